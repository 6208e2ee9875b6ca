"""Exact inputs as sliced integer matrices, and their exact products through float64 BLAS.

An input is an integer array times ``2**exps`` (one exponent per *line*: a row of Q or K, a
column of V; absent for decimal and rational inputs) times one ``unit``, cut into signed
slices of at most ``width`` bits, so every slice product ``A @ B`` done by float64 BLAS is
exact (all partial sums are integers below ``2**53``). A line that would need more than
``max_bits`` bits keeps its top bits only (``trunc``): its entries are then low by less than
one unit of the line, a bound the kernels carry. The exact values stay in ``source``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from symattn.exact import combine_products, int_slices
from symattn.exact.integers import to_int64_if_small

__all__ = [
    "Exact",
    "Sliced",
    "at_batch",
    "exact_products",
    "float_bits",
    "from_float",
    "from_ints",
    "slice_products",
]


def at_batch(a: np.ndarray, b: tuple[int, ...]) -> Any:
    """The trailing ``(L, S)`` or ``(S, E)`` matrix of ``a`` at batch index ``b`` (numpy
    broadcasting: a missing or length-1 batch axis is shared)."""
    extra = a.ndim - 2
    idx = b[len(b) - extra :] if extra > 0 else ()
    idx = tuple(0 if n == 1 else i for i, n in zip(idx, a.shape[:extra], strict=True))
    return a[idx]


@dataclass(frozen=True)
class Exact:
    """The exact values of an input: binary floats (``floats``, float64 holds them exactly) or
    ``ints * unit`` (int64, or Python integers in an object array)."""

    floats: np.ndarray | None = None
    ints: np.ndarray | None = None
    unit: Fraction = Fraction(1)

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
        a = self.floats if self.floats is not None else self.ints
        assert a is not None
        return tuple(a.shape)

    def at(self, index: Any, small: bool = False) -> tuple[np.ndarray, Fraction]:
        """``(ints, unit)``: exact Python integers (an object array; int64 when ``small`` and
        they fit) whose values times ``unit`` are the entries at ``index``."""
        if self.floats is None:
            assert self.ints is not None
            ints = np.asarray(self.ints[index])
            if small and ints.dtype == np.int64:
                return ints, self.unit
            return ints.astype(object), self.unit
        a = np.asarray(self.floats[index], dtype=np.float64)
        mant, ex = np.frexp(a)
        mi = np.abs(np.ldexp(mant, 53)).astype(np.int64)
        nz = mi != 0
        if not nz.any():
            return np.zeros(a.shape, dtype=object), Fraction(1)
        tz = _trailing_zeros(mi)
        low = ex - 53 + tz
        e0 = int(low[nz].min())
        shift = np.where(nz, low - e0, 0).astype(object)
        odd = (mi >> tz).astype(object)
        ints = np.where(mant < 0, -1, 1).astype(object) * (odd << shift)
        return (to_int64_if_small(ints) if small else ints), Fraction(2) ** e0

    def batch(self, b: tuple[int, ...]) -> Exact:
        """The matrix at batch index ``b`` (numpy broadcasting)."""
        if self.floats is not None:
            return Exact(floats=at_batch(self.floats, b))
        assert self.ints is not None
        return Exact(ints=at_batch(self.ints, b), unit=self.unit)

    def fractions(self, index: Any) -> np.ndarray:
        """The exact values at ``index`` as ``Fraction`` (an object array)."""
        ints, unit = self.at(index)
        out: np.ndarray = np.vectorize(lambda i: Fraction(i) * unit, otypes=[object])(ints)
        return out


def float_bits(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(nz, top, low)`` of finite doubles, from their bits: which are not zero, the exponent
    ``numpy.frexp`` gives (``|x| < 2**top``) and the exponent of the lowest set bit
    (``x`` is an odd integer times ``2**low``); meaningless where ``nz`` is false."""
    bits = np.ascontiguousarray(a, dtype=np.float64).view(np.int64)
    biased = (bits >> 52) & 0x7FF
    frac = bits & ((1 << 52) - 1)
    normal = biased != 0
    mant = frac | (normal.astype(np.int64) << 52)  # the integer significand
    nz = mant != 0
    lowbit = (mant & -mant).astype(np.float64)  # a power of two below 2**53: exact
    tz = (lowbit.view(np.int64) >> 52) - 1023
    low = (np.maximum(biased, 1) - 1075) + tz  # subnormals: 2**-1074 times the significand
    top = biased - 1022
    if not normal[nz].all():
        top = np.where(normal, top, np.frexp(frac.astype(np.float64))[1] - 1074)
    return nz, top, low


def _trailing_zeros(mi: np.ndarray) -> np.ndarray:
    """Trailing zero bits of positive int64 values below ``2**53`` (0 for 0)."""
    low = (mi & -mi).astype(np.float64)  # the lowest set bit: a power of two, exact
    tz: np.ndarray = np.maximum(np.frexp(low)[1].astype(np.int64) - 1, 0)
    return tz


@dataclass(frozen=True)
class Sliced:
    """An integer array ``sum_s slices[s] * 2**(width*s)``; the value of an entry is that times
    ``2**exps`` (per line; ``None``: all 0) times ``unit``.

    Every slice holds integers (as float64) of magnitude below ``2**width``. Where ``trunc`` is
    set (per line, like ``exps``), the entries were cut toward zero: the true value differs by
    less than ``2**exps * unit``. ``source`` holds the exact values.
    """

    slices: tuple[np.ndarray, ...]
    width: int
    unit: Fraction
    source: Exact
    exps: np.ndarray | None = None
    trunc: np.ndarray | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
        return tuple(self.slices[0].shape)

    @property
    def exact(self) -> bool:
        """Whether the slices hold the values exactly (no line was cut)."""
        return self.trunc is None or not bool(self.trunc.any())

    def at_batch(self, b: tuple[int, ...]) -> list[np.ndarray]:
        """The slices of the matrix at batch index ``b`` (numpy broadcasting)."""
        return [at_batch(a, b) for a in self.slices]

    def exps_at(self, b: tuple[int, ...]) -> np.ndarray | None:
        """The line exponents of the matrix at batch index ``b`` (``None``: all 0)."""
        return None if self.exps is None else at_batch(self.exps, b)

    def trunc_at(self, b: tuple[int, ...]) -> np.ndarray | None:
        """The cut lines of the matrix at batch index ``b`` (``None``: none)."""
        return None if self.exact or self.trunc is None else at_batch(self.trunc, b)

    def repeat(self, groups: int) -> Sliced:
        """Heads repeated ``groups`` times along axis -3 (grouped-query attention)."""

        def rep(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else np.repeat(a, groups, axis=-3)

        src = self.source
        source = Exact(rep(src.floats), rep(src.ints), src.unit)
        return Sliced(
            tuple(np.repeat(a, groups, axis=-3) for a in self.slices),
            self.width,
            self.unit,
            source,
            rep(self.exps) if self.exps is not None and self.exps.ndim >= 3 else self.exps,
            rep(self.trunc) if self.trunc is not None and self.trunc.ndim >= 3 else self.trunc,
        )

    @cached_property
    def top_exp(self) -> int:
        """The largest line exponent (0 without line exponents)."""
        return int(self.exps.max()) if self.exps is not None and self.exps.size else 0

    @cached_property
    def bits(self) -> int:
        """Bits of the largest integer the slices hold (0 for all zeros)."""
        total = np.zeros(self.shape)
        for s, a in enumerate(self.slices):
            total = total + np.abs(a) * 2.0 ** (self.width * s)
        top = float(total.max(initial=0.0))
        return int(np.frexp(top)[1]) if top else 0


def _slice_float_ints(m: np.ndarray, width: int) -> tuple[np.ndarray, ...]:
    """Signed ``width``-bit slices of an array of integer-valued floats (exact)."""
    r = np.abs(m)
    inv = 2.0**-width
    out = []
    while True:
        high = np.floor(r * inv)  # exact: a power-of-two scaling, then floor
        out.append(np.copysign(r - high * 2.0**width, m))  # exact: the low bits, signed
        r = high
        if not r.any():
            return tuple(out)


def from_float(a: np.ndarray, width: int, axis: int = -1, max_bits: int = 960) -> Sliced:
    """A float array as its exact binary values, one exponent per line along ``axis``.

    Each line is scaled by a power of two to integers (exact); a line needing more than
    ``max_bits`` bits keeps its top ``max_bits`` (cut toward zero, recorded in ``trunc``).
    """
    a = np.asarray(a, dtype=np.float64)
    source = Exact(floats=a)
    if a.size == 0:
        return Sliced((np.zeros(a.shape),), width, Fraction(1), source)
    nz, ex, low_bit = float_bits(a)
    big = 1 << 20
    low = np.where(nz, low_bit, big).min(axis=axis, keepdims=True)
    top = np.where(nz, ex, -big).max(axis=axis, keepdims=True)
    empty = low == big
    if empty.all():
        return Sliced((np.zeros(a.shape),), width, Fraction(1), source)
    low_all, top_all = int(low.min()), int(top.max())
    if top_all - low_all <= width:  # one slice with one exponent: integers times 2**low
        ints = np.ldexp(a, -low_all)  # exact
        return Sliced((ints,), width, Fraction(2) ** low_all, source)
    # every line gets the same number of slices counted from its top: the highest slice holds
    # the leading bits of every line and the lowest only the entries that reach that low,
    # often few (multiplied compactly)
    span = np.where(empty, 0, top - low)
    limit = min(max_bits, 960) // width * width  # 960: the scaled line stays finite
    n_slices = max(1, -(-min(int(span.max(initial=0)), limit) // width))
    e_line = np.where(empty, 0, top - width * n_slices)
    cut = ~empty & (span > width * n_slices)
    trunc = cut if cut.any() else None
    m = np.ldexp(a, (-e_line).astype(np.int32))  # exact: a power-of-two scaling in range
    if trunc is not None:
        m = np.trunc(m)  # the cut lines: below one unit of the line, toward zero
    return Sliced(
        _slice_float_ints(m, width), width, Fraction(1), source, e_line.astype(np.int64), trunc
    )


def from_ints(
    ints: np.ndarray, unit: Fraction, width: int, axis: int = -1, max_bits: int | None = None
) -> Sliced:
    """An integer array (int64 or Python integers) times ``unit``, sliced; lines needing more
    than ``max_bits`` bits keep their top bits (cut toward zero, recorded in ``trunc``)."""
    source = Exact(ints=ints, unit=unit)
    if ints.dtype == object and max_bits is not None and ints.size:
        mags = np.abs(ints)
        bits = np.vectorize(lambda x: int(x).bit_length(), otypes=[np.int64])(mags)
        top = bits.max(axis=axis, keepdims=True)
        shift = np.maximum(top - max_bits, 0)
        if shift.any():
            sign = np.where(ints < 0, -1, 1).astype(object)
            cut = sign * (mags >> shift.astype(object))
            return Sliced(
                tuple(int_slices(cut, width)),
                width,
                unit,
                source,
                shift.astype(np.int64),
                shift > 0,
            )
    return Sliced(tuple(int_slices(ints, width)), width, unit, source)


def slice_products(
    a: Sequence[np.ndarray], a_width: int, b: Sequence[np.ndarray], b_width: int
) -> Iterator[tuple[np.ndarray, int]]:
    """``a @ b.T`` slice by slice: exact integer-valued float64 products and their powers of two
    (the exact product is ``sum c * 2**shift``)."""
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            yield x @ y.T, a_width * i + b_width * j


def exact_products(
    a: Sequence[np.ndarray], a_width: int, b: Sequence[np.ndarray], b_width: int, fits: bool
) -> Any:
    """The exact integers ``a @ b.T`` (int64 when ``fits``, else Python integers)."""
    return combine_products(slice_products(a, a_width, b, b_width), fits)
