"""The spec model: a worked example's inputs and the numbers its author claims, validated.

A :class:`Spec` is what :func:`~symattn.spec.load.load_spec` returns: read-only exact input
arrays, and the author's :class:`Claims` kept as :class:`~symattn.numbers.Written` numbers
(``0.340`` is not ``0.34``). The schema is documented in ``docs/spec.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from symattn.engine import AttentionResult
from symattn.exact import Surd, inv_sqrt
from symattn.numbers import Written
from symattn.spec.run import run_spec


@dataclass(frozen=True)
class Start:
    """Where a worked example starts, and the inputs it gives there."""

    name: str  #: ``x`` | ``qkv`` | ``scores`` | ``scaled``
    required: tuple[str, ...]  #: the inputs the computation needs
    optional: tuple[str, ...] = ()  #: inputs it may give too

    @property
    def inputs(self) -> tuple[str, ...]:
        """Every input this start knows."""
        return self.required + self.optional


#: the starts, each with its inputs; a spec's inputs (given or missing) name exactly one
STARTS: tuple[Start, ...] = (
    Start("x", ("X", "W_Q", "W_K", "W_V"), ("X_q", "W_O")),
    Start("qkv", ("Q", "K", "V")),
    Start("scores", ("scores", "V")),
    Start("scaled", ("scaled", "V")),
)
#: every input name a spec knows, in table order
ALL_INPUTS: tuple[str, ...] = tuple(dict.fromkeys(n for st in STARTS for n in st.inputs))
#: the inputs when the spec gives Q, K, V directly
Q_MODE_INPUTS = STARTS[1].required
#: the inputs when the spec gives X and the projections
X_MODE_INPUTS = STARTS[0].inputs


def starts_of(names: Iterable[str]) -> tuple[Start, ...]:
    """The starts whose inputs include every one of ``names`` (``V`` fits three)."""
    given = set(names)
    return tuple(st for st in STARTS if given <= set(st.inputs)) if given else STARTS[1:2]


def gives_x(names: Iterable[str]) -> bool:
    """Whether the named inputs (given or listed as missing) are X and the projections."""
    return any(n in X_MODE_INPUTS for n in names)


def needed_inputs(x_mode: bool) -> tuple[str, ...]:
    """The inputs a computation from X (or from Q, K, V) needs."""
    return STARTS[0].required if x_mode else STARTS[1].required


#: one claimed number, or None where the author claims nothing
Claim = Written | None

#: the arithmetic a spec's printed results were computed in (``precision``); ``exact`` is a
#: person working by hand, rounding only what they write down
PRECISIONS: tuple[str, ...] = ("float32", "float16", "bfloat16", "float64", "exact")


@dataclass(frozen=True)
class RowClaims:
    """Claims for one query row; lists in key-token order, None = not claimed."""

    scores: tuple[Claim, ...]
    scaled: tuple[Claim, ...]
    exp: tuple[Claim, ...]
    sum: Claim
    weights: tuple[Claim, ...]
    output: tuple[Claim, ...]
    #: the concatenated head outputs (rows of a multi-head spec only; empty otherwise)
    concat: tuple[Claim, ...] = ()
    #: the key tokens a sentence says the query attends to most (empty: no such sentence)
    attends_most: tuple[str, ...] = ()


@dataclass(frozen=True)
class TokenClaims:
    """The projections of one token the author printed (rows of Q, K, V); None = not claimed."""

    q: tuple[Claim, ...] | None
    k: tuple[Claim, ...] | None
    v: tuple[Claim, ...] | None


@dataclass(frozen=True)
class HeadClaims:
    """The claims of one head of a multi-head spec: its q/k/v rows and its query rows."""

    tokens: Mapping[str, TokenClaims]
    rows: Mapping[str, RowClaims]


@dataclass(frozen=True)
class Claims:
    """All numbers an author claims, kept as written.

    ``heads`` maps a head's index (0-based here; the file numbers heads from 1) to its
    claims; ``rows`` then holds what follows the heads (``concat``, the ``W_O`` output).
    """

    d_k: Claim
    sqrt_d_k: Claim
    tokens: Mapping[str, TokenClaims]
    rows: Mapping[str, RowClaims]
    heads: Mapping[int, HeadClaims] = field(default_factory=lambda: MappingProxyType({}))


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
    #: the arithmetic of the printed results (``PRECISIONS``); None: inferred per claim
    precision: str | None = None
    #: inputs printed as roundings of unknown values (each entry within its half-unit)
    rounded_inputs: tuple[str, ...] = ()
    #: for each rounded input, the half-unit of every entry as written (read-only arrays)
    half_units: Mapping[str, np.ndarray] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def start(self) -> Start:
        """Where the example starts (the first start that fits its inputs)."""
        return starts_of((*self.inputs, *self.missing))[0]

    @property
    def uses_x(self) -> bool:
        """True when the spec gives X and projection matrices rather than Q, K, V."""
        return self.start.name == "x"

    @property
    def cross(self) -> bool:
        """True when the queries come from their own sequence (``X_q``): cross-attention."""
        return "X_q" in self.inputs or "X_q" in self.missing

    @property
    def needed(self) -> tuple[str, ...]:
        """The inputs the computation needs (``X_q`` too in cross-attention)."""
        return self.start.required + (("X_q",) if self.cross else ())

    @property
    def absent(self) -> tuple[str, ...]:
        """The needed inputs the spec does not give."""
        return tuple(n for n in self.needed if n not in self.inputs)

    @property
    def has_heads(self) -> bool:
        """True when the computation splits into heads (``num_heads > 1`` or a ``W_O``)."""
        return self.num_heads > 1 or "W_O" in self.inputs or "W_O" in self.missing

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
