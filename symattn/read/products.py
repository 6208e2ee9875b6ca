"""A row written out as the products of its factors: which stage and which row it is.

``[0.248(1) + 0.248(3) + 0.503(5), 0.248(2) + 0.248(4) + 0.503(6)]`` multiplies one vector,
``(0.248, 0.248, 0.503)``, by the columns ``(1, 3, 5)`` and ``(2, 4, 6)`` of another array.
When that vector is, number for number, one row of the weights the text writes and the
columns are its written V, the row is that query's output; a row of Q times the rows of K
is that query's scores. The numbers say the stage and the row, whatever the words around it
say (``Row 3:`` names no stage); nothing else is decided here, and a product whose factors
are not written arrays of the text (or match several rows) says nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Final

from symattn.read.notations.roles import RoleName
from symattn.read.syntax import Chain, Node, Num, VecNode

__all__ = ["Array", "factors", "product_row"]

#: an array the text writes: its shape and its entries, row-major (None: not a number)
Array = tuple[tuple[int, ...], tuple[Fraction | None, ...]]

#: the operators of a product of two numbers (``0.248(1)``, ``0.248 × 1``)
_TIMES: Final = frozenset({"*", "·", "×"})

Vector = tuple[Fraction, ...]


def _product(node: Node) -> tuple[Fraction, Fraction] | None:
    if (
        isinstance(node, Chain)
        and len(node.rest) == 1
        and node.rest[0][0] in _TIMES
        and isinstance(node.first, Num)
        and isinstance(node.rest[0][1], Num)
    ):
        return node.first.written.value, node.rest[0][1].written.value
    return None


def _terms(node: Node) -> list[tuple[Fraction, Fraction]] | None:
    if not isinstance(node, Chain) or not node.rest:
        return None
    parts = [node.first, *(x for op, x in node.rest if op == "+")]
    if len(parts) != len(node.rest) + 1:
        return None  # (a difference is no product of two vectors)
    out = [p for x in parts if (p := _product(x)) is not None]
    return out if len(out) == len(parts) else None


def factors(node: Node | None) -> tuple[Vector, tuple[Vector, ...]] | None:
    """``(a, (b_1, …, b_m))`` when ``node`` is the vector ``[Σ_j a_j b_1j, …, Σ_j a_j b_mj]``
    written term by term (each term a product of two numbers, the factor shared by every
    item on either side), else None."""
    if not isinstance(node, VecNode) or not node.items:
        return None
    items = [_terms(x) for x in node.items]
    if any(t is None for t in items):
        return None
    rows = [t for t in items if t is not None]
    n = len(rows[0])
    if n < 2 or any(len(t) != n for t in rows):
        return None
    for side in (0, 1):
        shared = tuple(p[side] for p in rows[0])
        if all(tuple(p[side] for p in t) == shared for t in rows):
            return shared, tuple(tuple(p[1 - side] for p in t) for t in rows)
    return None


def _rows(a: Array) -> list[tuple[Fraction | None, ...]] | None:
    dims, values = a
    if len(dims) != 2 or dims[0] * dims[1] != len(values):
        return None
    return [values[r * dims[1] : (r + 1) * dims[1]] for r in range(dims[0])]


def _matching(
    left: Vector, cols: tuple[Vector, ...], rows_of: Sequence[Array], by: Sequence[Array], t: bool
) -> set[int]:
    """The rows of the arrays ``rows_of`` equal to ``left`` when the columns ``cols`` are the
    columns of an array of ``by`` (its rows, when ``t``)."""
    right = [r for b in by if (r := _rows(b)) is not None]
    fits = any(
        (
            len(r) == len(cols) and all(tuple(r[c]) == col for c, col in enumerate(cols))
            if t
            else len(r) == len(left)
            and all(len(row) == len(cols) for row in r)
            and all(r[j][c] == col[j] for c, col in enumerate(cols) for j in range(len(left)))
        )
        for r in right
    )
    if not fits:
        return set()
    return {
        k
        for a in rows_of
        if (rows := _rows(a)) is not None
        for k, row in enumerate(rows)
        if tuple(row) == left
    }


#: (the stage of the row, the array its vector is a row of, the array of its columns, and
#: whether those columns are that array's rows: ``q · k_j``)
_STAGES: Final = (
    (RoleName.OUTPUT, RoleName.WEIGHTS, RoleName.V, False),
    (RoleName.SCORES, RoleName.Q, RoleName.K, True),
)


def product_row(
    node: Node | None, arrays: Mapping[RoleName, Sequence[Array]]
) -> tuple[RoleName, int] | None:
    """The stage and the 0-based query row of the vector ``node`` writes out as products
    (:func:`factors`), when its factors are one row of the text's written arrays of one
    stage and the columns of another (``arrays``: the written arrays by role); None when
    no stage or several rows fit."""
    found = factors(node)
    if found is None:
        return None
    left, cols = found
    fits = [
        (stage, k)
        for stage, row_role, col_role, t in _STAGES
        for k in _matching(left, cols, arrays.get(row_role, ()), arrays.get(col_role, ()), t)
    ]
    return fits[0] if len(fits) == 1 else None
