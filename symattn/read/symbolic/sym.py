"""The symbolic value of an expression: which stage of attention it is, from what.

A :class:`Sym` is a stage (``scores``, ``weights``, …) with the values it was computed from,
an exact array (``array``: what the code builds from literals, :mod:`.values`), a number, or
``unknown``. :func:`product` and :func:`weights` are the stage algebra: what ``a @ b`` and a
softmax of a value are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Final

from symattn.read.roles import symbol_role
from symattn.read.symbolic.values import Array

__all__ = [
    "UNKNOWN",
    "Sym",
    "collapse",
    "exact",
    "is_k",
    "kind_of",
    "product",
    "role_kind",
    "weights",
]


@dataclass(frozen=True)
class Sym:
    """The symbolic value of an expression."""

    #: lit num array x w_q w_k w_v q k v kv layer scores scaled weights output exp sum mask
    #: T dot tuple list zeroed rowsum weighted shifted max exp_shifted sum_shifted neginf unknown
    kind: str
    args: tuple[Sym, ...] = ()
    ref: int = -1  # the offset of a literal array
    row: int | None = None  # one row selected (0-based)
    scale: str = ""  # "1", "sqrt:N", "frac:P/Q", "inv:P/Q", "width", "" unknown
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
        return self.args[0].base if self.kind == "T" and self.args else self


UNKNOWN: Final = Sym("unknown")

#: kinds that are one stage of attention computed from the text's inputs
STAGES: Final = frozenset({"q", "k", "v", "scores", "scaled", "weights", "output", "exp", "sum"})


def role_kind(name: str) -> str:
    """The stage a name says (``W_q`` -> ``w_q``), or ""."""
    r = symbol_role(name)
    return "" if r is None else r.role


def kind_of(s: Sym) -> str:
    """A literal's stage (from its name), or the stage of a computed value."""
    b = s.base
    return b.name if b.kind == "lit" else b.kind


def is_k(s: Sym) -> bool:
    return kind_of(s) in ("k", "kv", "x")


def exact(s: Sym) -> Array | None:
    """The exact array (a number as a 0-d array) a value is, or None."""
    if s.kind == "num" and s.value is not None:
        return Array((), (s.value,))
    return s.array


def product(a: Sym, b: Sym) -> Sym:
    """The stage ``a @ b`` is: a projection ``X W``, the scores ``Q K^T``, the output ``P V``."""
    ka, kb = kind_of(a), kind_of(b)
    if ka == "x" and kb in ("w_q", "w_k", "w_v"):
        return Sym(kb[-1], (a, b), row=a.row)
    if (ka in ("q", "x", "lit") and b.kind == "T" and is_k(b.args[0])) or (
        ka == "q" and b.kind == "T"
    ):
        return Sym("scores", (a, b.args[0]), row=a.row)
    if ka in ("k", "kv", "x") and kb == "q" and a.kind != "T":
        return Sym("scores", (b, a), row=b.row)
    if (
        ka in ("q", "x")
        and _vector(a)
        and kb in ("k", "kv", "x")
        and b.kind != "T"
        and b.row is not None
    ):
        # q @ k_i: one score, of key i (a list of them over the keys is the scores of q)
        return Sym("dot", (a, replace(b, row=None, array=None)), row=b.row)
    if ka == "weights" and kb in ("v", "kv", "x"):
        return Sym("output", (a, b), row=a.row, scale=a.scale, causal=a.causal)
    return UNKNOWN


def _vector(s: Sym) -> bool:
    """Whether ``s`` is one row: selected from a matrix, or an array of one dimension."""
    return s.row is not None or (s.array is not None and len(s.array.shape) == 1)


def weights(inner: Sym) -> Sym:
    """The softmax of ``inner``: the weights of its scores (scaled or not)."""
    if inner.kind == "lit":
        # softmax of an array the text writes: that array is the scores
        inner = Sym("scores", (inner,), row=inner.row)
    if inner.kind == "scaled":
        return Sym("weights", (inner,), row=inner.row, scale=inner.scale, causal=inner.causal)
    if inner.kind == "scores":
        return Sym("weights", (inner,), row=inner.row, scale="1", causal=inner.causal)
    return UNKNOWN


#: the deepest value a list's rows are compared through
_MAX_NESTING: Final = 60


def collapse(s: Sym, over: Sym | None = None) -> Sym:
    """A list of the rows 0..n-1 of one stage is that stage (``[softmax(r) for r in S]``);
    a list of ``q @ k`` is the scores of ``q`` when it went ``over`` every row of K."""
    if s.kind != "list" or not s.args:
        return s
    first = s.args[0]
    if first.kind == "dot" and len(first.args) == 2:
        # [q @ k for k in K]: the score of q with every key, in order
        q, k = first.args
        if over is None or replace(over, array=None) != k:
            return s
        if all(
            i.kind == "dot" and i.row == n and i.args == first.args for n, i in enumerate(s.args)
        ):
            return Sym("scores", (q, k), row=q.row)
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
