"""The symbolic value of an expression: which stage of attention it is, from what.

A :class:`Sym` is a stage (``scores``, ``weights``, …) with the values it was computed from,
an exact array (``array``: what the code builds from literals, :mod:`.values`), a number, or
``unknown``. :func:`product` and :func:`weights` are the stage algebra: what ``a @ b`` and a
softmax of a value are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Final

from symattn.read.notations.roles import RoleName
from symattn.read.roles import symbol_role
from symattn.read.symbolic.scale import UNSCALED, Scale
from symattn.read.symbolic.values import Array

__all__ = [
    "ARRAYS",
    "DATA",
    "KEYLIKE",
    "NUMBERS",
    "PROJECTED",
    "QUERYLIKE",
    "SAME_ROWS",
    "SCORELIKE",
    "SEQUENCES",
    "SOFTMAX_BY_HAND",
    "STAGES",
    "UNKNOWN",
    "VALUELIKE",
    "WITH_VALUES",
    "Sym",
    "SymKind",
    "collapse",
    "exact",
    "is_k",
    "kind_of",
    "product",
    "projection_of",
    "role_kind",
    "weights",
]


class SymKind(StrEnum):
    """What a symbolic value is. The inputs and the stages of attention have the values of
    :class:`~symattn.read.notations.roles.RoleName` (the spec claim fields of
    :data:`symattn.stages.BY_CLAIM`), so a computed value's kind is the role it reproduces."""

    #: the input X (a literal named so: ``x``, ``inputs``, ``embeddings``)
    X = RoleName.X.value
    #: the query projection W_Q (a literal named so)
    W_Q = RoleName.W_Q.value
    #: the key projection W_K (a literal named so)
    W_K = RoleName.W_K.value
    #: the value projection W_V (a literal named so)
    W_V = RoleName.W_V.value
    #: the queries: a literal named so, ``X @ W_Q``, or a layer ``W_q(x)``
    Q = RoleName.Q.value
    #: the keys
    K = RoleName.K.value
    #: the values
    V = RoleName.V.value
    #: one array that is both the keys and the values (a literal named so)
    KV = RoleName.KV.value
    #: the scores ``Q K^T`` (or an array the text writes, given to a softmax)
    SCORES = RoleName.SCORES.value
    #: the scores scaled (divided by √d_k, by a number, or multiplied by 1/√d_k)
    SCALED = RoleName.SCALED.value
    #: the exponentials of the (scaled) scores
    EXP = RoleName.EXP.value
    #: the sum of the exponentials
    SUM = RoleName.SUM.value
    #: the attention weights: the softmax of the (scaled) scores
    WEIGHTS = RoleName.WEIGHTS.value
    #: the output ``weights @ V``
    OUTPUT = RoleName.OUTPUT.value
    #: a causal mask the code builds without its exact values (``torch.tril(...)``)
    MASK = RoleName.MASK.value
    #: an array the text writes literally (``Sym.name`` holds the role its name says)
    LIT = "lit"
    #: a number (``Sym.value``)
    NUM = "num"
    #: an exact array the code builds (``Sym.array``), with no stage
    ARRAY = "array"
    #: ``True``, ``False`` or ``None`` (``Sym.name`` holds which)
    CONST = "const"
    #: a user function (``Sym.name``), inlined where it is called
    FUNC = "func"
    #: ``inf`` (``np.inf``, ``float('inf')``)
    INF = "inf"
    #: ``-inf``: what a mask fills
    NEGINF = "neginf"
    #: an irrational square root; ``Sym.scale`` says the scale it stands for
    ROOT = "root"
    #: a projection layer (``nn.Linear``): ``Sym.name`` is the kind it computes (q, k or v)
    LAYER = "layer"
    #: a transpose of ``args[0]``
    T = "T"
    #: one dot product ``q @ k_i`` (``Sym.row`` is the key's row)
    DOT = "dot"
    #: a tuple of values
    TUPLE = "tuple"
    #: a list of values
    LIST = "list"
    #: the weights times ``tril(ones)``: the future zeroed, not yet renormalised
    ZEROED = "zeroed"
    #: the row sums of the zeroed weights (to renormalise them by)
    ROWSUM = "rowsum"
    #: a column of weights times the values, entry by entry (summed over axis 0: the output)
    WEIGHTED = "weighted"
    #: the scores minus their maximum (a numerically stable softmax)
    SHIFTED = "shifted"
    #: the maximum of the scores
    MAX = "max"
    #: the exponentials of the shifted scores
    EXP_SHIFTED = "exp_shifted"
    #: the sum of the exponentials of the shifted scores
    SUM_SHIFTED = "sum_shifted"
    #: anything not followed: never guessed
    UNKNOWN = "unknown"


#: kinds that are one stage of attention computed from the text's inputs
STAGES: Final = frozenset(
    {
        SymKind.Q,
        SymKind.K,
        SymKind.V,
        SymKind.SCORES,
        SymKind.SCALED,
        SymKind.WEIGHTS,
        SymKind.OUTPUT,
        SymKind.EXP,
        SymKind.SUM,
    }
)
#: kinds that can stand as the queries (X itself, without projections)
QUERYLIKE: Final = frozenset({SymKind.Q, SymKind.X})
#: kinds that can stand as the keys (an array that is keys and values, or X itself)
KEYLIKE: Final = frozenset({SymKind.K, SymKind.KV, SymKind.X})
#: kinds that can stand as the values
VALUELIKE: Final = frozenset({SymKind.V, SymKind.KV, SymKind.X})
#: kinds of the scores a softmax, an exponential, a maximum or a mask takes
SCORELIKE: Final = frozenset({SymKind.SCORES, SymKind.SCALED})
#: sequences of values (``args``)
SEQUENCES: Final = frozenset({SymKind.LIST, SymKind.TUPLE})
#: a number or an exact array, with no stage (iterated over, its rows are its array's)
ARRAYS: Final = frozenset({SymKind.NUM, SymKind.ARRAY})
#: values that are data only, no stage of attention
DATA: Final = SEQUENCES | ARRAYS
#: kinds that are a number (rational, or a square root standing for a scale)
NUMBERS: Final = frozenset({SymKind.NUM, SymKind.ROOT})
#: stages with as many rows as the value they are computed from (``args[0]``)
SAME_ROWS: Final = frozenset(
    {SymKind.WEIGHTS, SymKind.SCALED, SymKind.EXP, SymKind.SCORES, SymKind.OUTPUT}
)
#: a softmax written by hand: the exponentials divided by their sum (shifted or not)
SOFTMAX_BY_HAND: Final = frozenset(
    {(SymKind.EXP, SymKind.SUM), (SymKind.EXP_SHIFTED, SymKind.SUM_SHIFTED)}
)
#: kinds with ``.values``: a tuple's first item (``torch.max(x, dim=-1).values``), a maximum
WITH_VALUES: Final = frozenset({SymKind.TUPLE, SymKind.MAX})
#: the projection weights, and the kind each computes from X
PROJECTED: Final = {SymKind.W_Q: SymKind.Q, SymKind.W_K: SymKind.K, SymKind.W_V: SymKind.V}

#: the kind of each role a literal's name can say
_BY_ROLE: Final[dict[str, SymKind]] = {
    k.value: k for k in SymKind if k.value in {r.value for r in RoleName}
}


@dataclass(frozen=True)
class Sym:
    """The symbolic value of an expression."""

    kind: SymKind
    args: tuple[Sym, ...] = ()
    ref: int = -1  # the offset of a literal array
    row: int | None = None  # one row selected (0-based)
    scale: Scale | None = None  # None: unknown
    causal: bool = False
    value: Fraction | None = None  # a number
    name: str = ""
    #: the exact value, when the code builds it from literals and exact operations
    array: Array | None = None
    #: ``w[:, None]``: a row of weights standing as a column (to weigh the rows of V)
    column: bool = False

    @property
    def base(self) -> Sym:
        """The value under transposes."""
        return self.args[0].base if self.kind is SymKind.T and self.args else self


UNKNOWN: Final = Sym(SymKind.UNKNOWN)


def role_kind(name: str) -> str:
    """The stage a name says (``W_q`` -> ``w_q``), or ""."""
    r = symbol_role(name)
    return "" if r is None else r.role


def projection_of(role: str) -> SymKind | None:
    """What the projection weights a role names compute (``w_q`` -> ``q``), or None."""
    kind = _BY_ROLE.get(role)
    return PROJECTED.get(kind) if kind is not None else None


def kind_of(s: Sym) -> SymKind | None:
    """A literal's stage (from its name; None when it names none), or the kind of a
    computed value."""
    b = s.base
    return _BY_ROLE.get(b.name) if b.kind is SymKind.LIT else b.kind


def is_k(s: Sym) -> bool:
    return kind_of(s) in KEYLIKE


def exact(s: Sym) -> Array | None:
    """The exact array (a number as a 0-d array) a value is, or None."""
    if s.kind is SymKind.NUM and s.value is not None:
        return Array((), (s.value,))
    return s.array


def product(a: Sym, b: Sym) -> Sym:
    """The stage ``a @ b`` is: a projection ``X W``, the scores ``Q K^T``, the output ``P V``."""
    ka, kb = kind_of(a), kind_of(b)
    projected = PROJECTED.get(kb) if kb is not None else None
    if ka is SymKind.X and projected is not None:
        return Sym(projected, (a, b), row=a.row)
    if (ka in QUERYLIKE and b.kind is SymKind.T and is_k(b.args[0])) or (
        ka is SymKind.Q and b.kind is SymKind.T
    ):
        return Sym(SymKind.SCORES, (a, b.args[0]), row=a.row)
    if ka in KEYLIKE and kb is SymKind.Q and a.kind is not SymKind.T:
        return Sym(SymKind.SCORES, (b, a), row=b.row)
    if (
        ka in QUERYLIKE
        and _vector(a)
        and kb in KEYLIKE
        and b.kind is not SymKind.T
        and b.row is not None
    ):
        # q @ k_i: one score, of key i (a list of them over the keys is the scores of q)
        return Sym(SymKind.DOT, (a, replace(b, row=None, array=None)), row=b.row)
    if ka is SymKind.WEIGHTS and kb in VALUELIKE:
        return Sym(SymKind.OUTPUT, (a, b), row=a.row, scale=a.scale, causal=a.causal)
    return UNKNOWN


def _vector(s: Sym) -> bool:
    """Whether ``s`` is one row: selected from a matrix, or an array of one dimension."""
    return s.row is not None or (s.array is not None and len(s.array.shape) == 1)


def weights(inner: Sym) -> Sym:
    """The softmax of ``inner``: the weights of its scores (scaled or not)."""
    if inner.kind is SymKind.LIT:
        # softmax of an array the text writes: that array is the scores
        inner = Sym(SymKind.SCORES, (inner,), row=inner.row)
    if inner.kind is SymKind.SCALED:
        return Sym(SymKind.WEIGHTS, (inner,), row=inner.row, scale=inner.scale, causal=inner.causal)
    if inner.kind is SymKind.SCORES:
        return Sym(SymKind.WEIGHTS, (inner,), row=inner.row, scale=UNSCALED, causal=inner.causal)
    return UNKNOWN


#: the deepest value a list's rows are compared through
_MAX_NESTING: Final = 60


def collapse(s: Sym, over: Sym | None = None) -> Sym:
    """A list of the rows 0..n-1 of one stage is that stage (``[softmax(r) for r in S]``);
    a list of ``q @ k`` is the scores of ``q`` when it went ``over`` every row of K."""
    if s.kind is not SymKind.LIST or not s.args:
        return s
    first = s.args[0]
    if first.kind is SymKind.DOT and len(first.args) == 2:
        # [q @ k for k in K]: the score of q with every key, in order
        q, k = first.args
        if over is None or replace(over, array=None) != k:
            return s
        if all(
            i.kind is SymKind.DOT and i.row == n and i.args == first.args
            for n, i in enumerate(s.args)
        ):
            return Sym(SymKind.SCORES, (q, k), row=q.row)
        return s
    if first.kind not in STAGES or first.row != 0:
        return s
    whole = _unrowed(first)
    for i, item in enumerate(s.args):
        if item.row != i or _unrowed(item) != whole:
            return s
    return replace(whole, args=first.args and tuple(_unrowed(a) for a in first.args))


def _unrowed(s: Sym, depth: int = 0) -> Sym:
    """``s`` with the row it selects (and what it carries of that row) forgotten."""
    if depth > _MAX_NESTING:
        return s
    args = tuple(_unrowed(a, depth + 1) for a in s.args)
    return replace(s, row=None, array=None, args=args)
