"""Spec files: a worked example's inputs and its author's claims, loaded and run.

:mod:`~symattn.spec.model` (Spec, Claims), :mod:`~symattn.spec.load` (files, TOML/JSON,
limits), :mod:`~symattn.spec.fields` (one field checked), :mod:`~symattn.spec.build` (the
document), :mod:`~symattn.spec.claims` (the ``[claims]`` table), :mod:`~symattn.spec.run`
(a spec through the engine).
"""

from symattn.spec.load import load_spec, loads_spec
from symattn.spec.model import Claims, RowClaims, Spec, TokenClaims

__all__ = ["Claims", "RowClaims", "Spec", "TokenClaims", "load_spec", "loads_spec"]
