"""The spec model: a worked example's inputs and the numbers its author claims, validated.

A :class:`Spec` is what :func:`~symattn.spec.load.load_spec` returns: read-only exact input
arrays, and the author's :class:`Claims` kept as :class:`~symattn.numbers.Written` numbers
(``0.340`` is not ``0.34``). The schema is documented in ``docs/spec.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from symattn.engine import AttentionResult
from symattn.exact import Surd, inv_sqrt
from symattn.numbers import Written
from symattn.spec.run import run_spec

#: the inputs when the spec gives Q, K, V directly
Q_MODE_INPUTS = ("Q", "K", "V")
#: the inputs when the spec gives X and the projections (W_O is always optional)
X_MODE_INPUTS = ("X", "W_Q", "W_K", "W_V", "W_O")
ALL_INPUTS = Q_MODE_INPUTS + X_MODE_INPUTS


def gives_x(names: Iterable[str]) -> bool:
    """Whether the named inputs (given or listed as missing) are X and the projections."""
    return any(n in X_MODE_INPUTS for n in names)


def needed_inputs(x_mode: bool) -> tuple[str, ...]:
    """The inputs a computation needs (W_O is always optional)."""
    return X_MODE_INPUTS[:4] if x_mode else Q_MODE_INPUTS


#: one claimed number, or None where the author claims nothing
Claim = Written | None


@dataclass(frozen=True)
class RowClaims:
    """Claims for one query row; lists in key-token order, None = not claimed."""

    scores: tuple[Claim, ...]
    scaled: tuple[Claim, ...]
    exp: tuple[Claim, ...]
    sum: Claim
    weights: tuple[Claim, ...]
    output: tuple[Claim, ...]


@dataclass(frozen=True)
class TokenClaims:
    """The projections of one token the author printed (rows of Q, K, V); None = not claimed."""

    q: tuple[Claim, ...] | None
    k: tuple[Claim, ...] | None
    v: tuple[Claim, ...] | None


@dataclass(frozen=True)
class Claims:
    """All numbers an author claims, kept as written."""

    d_k: Claim
    sqrt_d_k: Claim
    tokens: Mapping[str, TokenClaims]
    rows: Mapping[str, RowClaims]


@dataclass(frozen=True)
class Spec:
    """A validated spec: inputs as read-only exact arrays, claims as :class:`Written` numbers."""

    path: str
    title: str
    lang: str
    source: str
    notes: str
    tokens: tuple[str, ...]
    query_tokens: tuple[str, ...]
    explain: tuple[str, ...]
    d_k: int | None
    scale: Fraction | None
    causal: bool
    mask: object | None
    num_heads: int
    missing: tuple[str, ...]
    inputs: Mapping[str, np.ndarray]
    claims: Claims

    @property
    def uses_x(self) -> bool:
        """True when the spec gives X and projection matrices rather than Q, K, V."""
        return gives_x((*self.inputs, *self.missing))

    @property
    def needed(self) -> tuple[str, ...]:
        """The inputs the computation needs (W_O is always optional)."""
        return needed_inputs(self.uses_x)

    @property
    def absent(self) -> tuple[str, ...]:
        """The needed inputs the spec does not give."""
        return tuple(n for n in self.needed if n not in self.inputs)

    @property
    def computable(self) -> bool:
        """False when an input needed for the computation is missing."""
        return not self.absent

    def effective_scale(self) -> Fraction | Surd | None:
        """The scale handed to the engine: explicit, else exact 1/sqrt(d_k), else None."""
        if self.scale is not None:
            return self.scale
        if self.d_k is not None:
            return inv_sqrt(self.d_k)
        return None

    def run(self) -> AttentionResult:
        """Compute attention for this spec with the exact engine."""
        return run_spec(self)
