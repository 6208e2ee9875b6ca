"""Spec files: a worked example's inputs and its author's claims, loaded and run."""

from symattn.spec.load import load_spec, loads_spec
from symattn.spec.model import Claims, RowClaims, Spec, TokenClaims

__all__ = ["Claims", "RowClaims", "Spec", "TokenClaims", "load_spec", "loads_spec"]
