"""Exact arrays of the code a text shows: the values its constructors and operations give.

An :class:`Array` is a shape and its entries (row-major) as fractions; the operations are the
pure ones of numpy/torch written exactly: broadcasting arithmetic, ``@``, transposes,
reshapes, sums and maxima over an axis, indexing and slicing with literal integers, ``tril``
and ``triu``, stacking. Each builds a new array and checks its size first
(:meth:`~symattn.config.Limits.check_elements`); anything it cannot do exactly (a shape that
does not broadcast, an irrational square root) raises :class:`NotFollowed`, and the value is
then unknown.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Final

from symattn.config import Limits
from symattn.errors import LimitError

__all__ = [
    "Array",
    "NotFollowed",
    "broadcast",
    "concatenate",
    "diag",
    "eye",
    "full",
    "index",
    "matmul",
    "nested",
    "reduce",
    "reshape",
    "sqrt_exact",
    "stack",
    "transpose",
    "triangle",
]

#: the most dimensions an array may have
MAX_DIMS: Final = 6


class NotFollowed(Exception):
    """An operation this reading cannot follow exactly (the value is then unknown)."""


@dataclass(frozen=True)
class Array:
    """An exact array: its shape and its entries in row-major order."""

    shape: tuple[int, ...]
    data: tuple[Fraction, ...]

    @property
    def size(self) -> int:
        return len(self.data)

    def rows(self) -> list[list[Fraction]]:
        """A 1-d array as one row, a 2-d array as its rows."""
        if len(self.shape) == 1:
            return [list(self.data)]
        if len(self.shape) != 2:
            raise NotFollowed("not a matrix")
        w = self.shape[1]
        return [list(self.data[i * w : (i + 1) * w]) for i in range(self.shape[0])]

    def map(self, f: Callable[[Fraction], Fraction]) -> Array:
        return Array(self.shape, tuple(f(x) for x in self.data))


def _make(shape: tuple[int, ...], data: Sequence[Fraction], limits: Limits) -> Array:
    if len(shape) > MAX_DIMS or any(n < 0 for n in shape):
        raise NotFollowed("shape")
    _check(shape, limits)
    if math.prod(shape) != len(data):
        raise NotFollowed("size")
    return Array(shape, tuple(data))


def _check(shape: tuple[int, ...] | int, limits: Limits) -> None:
    try:
        limits.check_elements(shape, "an array the code builds")
    except LimitError as e:
        raise NotFollowed(str(e)) from e


def nested(value: object, limits: Limits, depth: int = 0) -> Array:
    """An array from nested lists of fractions (rows of one length)."""
    if isinstance(value, Fraction):
        return Array((), (value,))
    if not isinstance(value, list) or depth > MAX_DIMS:
        raise NotFollowed("not an array")
    if not value:
        return Array((0,), ())
    parts = [nested(v, limits, depth + 1) for v in value]
    if len({p.shape for p in parts}) != 1:
        raise NotFollowed("ragged")
    return _make((len(parts), *parts[0].shape), [x for p in parts for x in p.data], limits)


def full(shape: tuple[int, ...], v: Fraction, limits: Limits) -> Array:
    _check(shape, limits)
    return _make(shape, [v] * math.prod(shape), limits)


def eye(n: int, m: int, k: int, limits: Limits) -> Array:
    _check((n, m), limits)
    one, zero = Fraction(1), Fraction(0)
    return _make((n, m), [one if j - i == k else zero for i in range(n) for j in range(m)], limits)


def diag(a: Array, limits: Limits) -> Array:
    """``diag(v)``: the matrix with ``v`` on its diagonal; ``diag(M)``: the diagonal of ``M``."""
    if len(a.shape) == 1:
        n = a.shape[0]
        _check((n, n), limits)
        zero = Fraction(0)
        return _make(
            (n, n), [a.data[i] if i == j else zero for i in range(n) for j in range(n)], limits
        )
    if len(a.shape) == 2:
        n = min(a.shape)
        return _make((n,), [a.data[i * a.shape[1] + i] for i in range(n)], limits)
    raise NotFollowed("diag")


def triangle(a: Array, k: int, lower: bool, limits: Limits) -> Array:
    """``tril(a, k)`` (``lower``) or ``triu(a, k)`` of a matrix."""
    if len(a.shape) != 2:
        raise NotFollowed("tril of a non-matrix")
    n, m = a.shape
    zero = Fraction(0)
    out = [
        a.data[i * m + j] if ((j - i <= k) if lower else (j - i >= k)) else zero
        for i in range(n)
        for j in range(m)
    ]
    return _make(a.shape, out, limits)


def reshape(a: Array, shape: tuple[int, ...], limits: Limits) -> Array:
    """``a.reshape(shape)``, one ``-1`` allowed."""
    if shape.count(-1) > 1:
        raise NotFollowed("reshape")
    if -1 in shape:
        rest = math.prod(n for n in shape if n != -1)
        if rest == 0 or a.size % rest:
            raise NotFollowed("reshape")
        shape = tuple(a.size // rest if n == -1 else n for n in shape)
    if math.prod(shape) != a.size:
        raise NotFollowed("reshape")
    return _make(shape, a.data, limits)


def _strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    s = 1
    for n in reversed(shape):
        out.append(s)
        s *= n
    return tuple(reversed(out))


def transpose(a: Array, axes: tuple[int, ...] | None, limits: Limits) -> Array:
    """The axes of ``a`` permuted (reversed when ``axes`` is None, as ``.T``)."""
    nd = len(a.shape)
    if axes is None:
        axes = tuple(reversed(range(nd)))
    axes = tuple(x % nd if nd else x for x in axes)
    if sorted(axes) != list(range(nd)):
        raise NotFollowed("axes")
    shape = tuple(a.shape[x] for x in axes)
    strides = _strides(a.shape)
    src = [strides[x] for x in axes]
    data = [
        a.data[sum(i * s for i, s in zip(idx, src, strict=True))]
        for idx in product(*(range(n) for n in shape))
    ]
    return _make(shape, data, limits)


def _broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b, strict=True):
        if x != y and 1 not in (x, y):
            raise NotFollowed("shapes do not broadcast")
        out.append(max(x, y) if 0 not in (x, y) else 0)
    return tuple(out)


def _spread(a: Array, shape: tuple[int, ...]) -> list[Fraction]:
    full_shape = (1,) * (len(shape) - len(a.shape)) + a.shape
    strides = _strides(full_shape)
    return [
        a.data[sum(i * s for i, s, n in zip(idx, strides, full_shape, strict=True) if n != 1)]
        for idx in product(*(range(n) for n in shape))
    ]


def broadcast(
    a: Array, b: Array, op: Callable[[Fraction, Fraction], Fraction], limits: Limits
) -> Array:
    """``op`` entry by entry, with numpy's broadcasting."""
    shape = _broadcast_shape(a.shape, b.shape)
    _check(shape, limits)
    xs, ys = _spread(a, shape), _spread(b, shape)
    try:
        return _make(shape, [op(x, y) for x, y in zip(xs, ys, strict=True)], limits)
    except ZeroDivisionError as e:
        raise NotFollowed("division by zero") from e


def matmul(a: Array, b: Array, limits: Limits) -> Array:
    """``a @ b`` for vectors and matrices."""
    va, vb = len(a.shape) == 1, len(b.shape) == 1
    if len(a.shape) not in (1, 2) or len(b.shape) not in (1, 2):
        raise NotFollowed("matmul of more than two dimensions")
    ra = a.rows() if not va else [list(a.data)]
    cb = b.rows() if not vb else [[x] for x in b.data]
    inner = len(ra[0]) if ra else 0
    if inner != len(cb):
        raise NotFollowed("shapes do not multiply")
    n, m = len(ra), len(cb[0]) if cb else 0
    _check(n * m * max(inner, 1), limits)
    data = [
        sum((ra[i][t] * cb[t][j] for t in range(inner)), Fraction(0))
        for i in range(n)
        for j in range(m)
    ]
    shape: tuple[int, ...] = (n, m)
    if va and vb:
        shape = ()
    elif va:
        shape = (m,)
    elif vb:
        shape = (n,)
    return _make(shape, data, limits)


def reduce(
    a: Array,
    axis: int | None,
    keepdims: bool,
    op: Callable[[Sequence[Fraction]], Fraction],
    limits: Limits,
) -> Array:
    """``op`` (sum, max) over ``axis`` (all entries when None)."""
    if axis is None:
        if not a.data:
            raise NotFollowed("empty")
        shape: tuple[int, ...] = (1,) * len(a.shape) if keepdims else ()
        return _make(shape, [op(a.data)], limits)
    nd = len(a.shape)
    if not -nd <= axis < nd:
        raise NotFollowed("axis")
    axis %= nd
    if a.shape[axis] == 0:
        raise NotFollowed("empty")
    outer = math.prod(a.shape[:axis])
    n = a.shape[axis]
    inner = math.prod(a.shape[axis + 1 :])
    data = [
        op([a.data[(o * n + t) * inner + i] for t in range(n)])
        for o in range(outer)
        for i in range(inner)
    ]
    rest = a.shape[:axis] + ((1,) if keepdims else ()) + a.shape[axis + 1 :]
    return _make(rest, data, limits)


def index(a: Array, keys: Sequence[int | slice | None], limits: Limits) -> Array:
    """``a[keys]``: literal integers, slices and ``None`` (a new axis of length 1)."""
    dims = [n for n in a.shape]
    picks: list[list[int] | None] = []  # per output axis: source indices, None for new axes
    kept: list[bool] = []
    axis = 0
    for k in keys:
        if k is None:
            picks.append(None)
            kept.append(True)
            continue
        if axis >= len(dims):
            raise NotFollowed("too many indices")
        n = dims[axis]
        if isinstance(k, int):
            if not -n <= k < n:
                raise NotFollowed("index out of range")
            picks.append([k % n])
            kept.append(False)
        else:
            picks.append(list(range(n))[k])
            kept.append(True)
        axis += 1
    for n in dims[axis:]:
        picks.append(list(range(n)))
        kept.append(True)
    strides = _strides(a.shape)
    source_axes = [p for p in picks if p is not None]
    shape = tuple(1 if p is None else len(p) for p, k in zip(picks, kept, strict=True) if k)
    _check(shape, limits)
    data = [
        a.data[sum(i * s for i, s in zip(idx, strides, strict=True))]
        for idx in product(*source_axes)
    ]
    return _make(shape, data, limits)


def stack(parts: Sequence[Array], axis: int, limits: Limits) -> Array:
    """``stack(parts, axis)``: arrays of one shape along a new axis."""
    if not parts or len({p.shape for p in parts}) != 1:
        raise NotFollowed("stack")
    shape = parts[0].shape
    if not -len(shape) - 1 <= axis <= len(shape):
        raise NotFollowed("axis")
    axis %= len(shape) + 1
    joined = _make((len(parts), *shape), [x for p in parts for x in p.data], limits)
    order = (*range(1, axis + 1), 0, *range(axis + 1, len(shape) + 1))
    return transpose(joined, order, limits)


def concatenate(parts: Sequence[Array], axis: int, limits: Limits) -> Array:
    """``concatenate(parts, axis)``: arrays joined along an existing axis."""
    if not parts or len({len(p.shape) for p in parts}) != 1 or not parts[0].shape:
        raise NotFollowed("concatenate")
    nd = len(parts[0].shape)
    if not -nd <= axis < nd:
        raise NotFollowed("axis")
    axis %= nd
    rest = {p.shape[:axis] + p.shape[axis + 1 :] for p in parts}
    if len(rest) != 1:
        raise NotFollowed("concatenate")
    moved = [transpose(p, (axis, *[x for x in range(nd) if x != axis]), limits) for p in parts]
    total = sum(p.shape[0] for p in moved)
    joined = _make((total, *moved[0].shape[1:]), [x for p in moved for x in p.data], limits)
    back = (*range(1, axis + 1), 0, *range(axis + 1, nd))
    return transpose(joined, back, limits)


def sqrt_exact(x: Fraction) -> Fraction | None:
    """√x when it is rational, else None."""
    if x < 0:
        return None
    p, q = math.isqrt(x.numerator), math.isqrt(x.denominator)
    if p * p == x.numerator and q * q == x.denominator:
        return Fraction(p, q)
    return None
