"""Exact inputs as sliced integer matrices, and their exact products through float64 BLAS.

An input is read exactly and scaled to an integer matrix times a ``unit``, then cut into
signed slices of at most ``width`` bits, so every slice product ``A @ B`` done by float64
BLAS is exact (all partial sums are integers below ``2**53``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symattn.config import Limits
from symattn.errors import InputError
from symattn.exact import ScaledIntTensor, combine_products, fractions_to_ints, int_slices
from symattn.numbers import from_torch, is_torch, to_exact_array

__all__ = [
    "Sliced",
    "at_batch",
    "exact_input",
    "from_float",
    "from_fractions",
    "short_decimals",
    "slice_products",
    "sliced_ints",
]


@dataclass(frozen=True)
class Sliced:
    """An exact integer array ``sum_s slices[s] * 2**(width*s)``; the real value is that times
    ``unit``.

    Every slice holds integers (as float64) of magnitude below ``2**width``.
    """

    slices: tuple[np.ndarray, ...]
    width: int
    unit: Fraction

    @classmethod
    def of_ints(cls, ints: np.ndarray, den: int, width: int) -> Sliced:
        """The integer array ``ints`` (int64 or Python ints) over the denominator ``den``."""
        return cls(tuple(int_slices(ints, width)), width, Fraction(1, den))

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
        return tuple(self.slices[0].shape)

    def at_batch(self, b: tuple[int, ...]) -> list[np.ndarray]:
        """The slices of the matrix at batch index ``b`` (numpy broadcasting)."""
        return [at_batch(a, b) for a in self.slices]

    def ints(self, index: Any) -> np.ndarray:
        """The exact Python integers at ``index`` (an object array)."""
        ints: np.ndarray = combine_products(
            ((a[index], self.width * s) for s, a in enumerate(self.slices)), small=False
        )
        return ints

    def fractions(self, index: Any) -> np.ndarray:
        """The exact values at ``index`` as ``Fraction`` (an object array)."""
        u = self.unit
        values: np.ndarray = np.vectorize(lambda i: Fraction(i) * u, otypes=[object])(
            self.ints(index)
        )
        return values


def at_batch(a: np.ndarray, b: tuple[int, ...]) -> Any:
    """The trailing ``(L, S)`` or ``(S, E)`` matrix of ``a`` at batch index ``b`` (numpy
    broadcasting: a missing or length-1 batch axis is shared)."""
    extra = a.ndim - 2
    idx = b[len(b) - extra :] if extra > 0 else ()
    idx = tuple(0 if n == 1 else i for i, n in zip(idx, a.shape[:extra], strict=True))
    return a[idx]


def slice_products(
    a: Sequence[np.ndarray], a_width: int, b: Sequence[np.ndarray], b_width: int
) -> Iterator[tuple[np.ndarray, int]]:
    """``a @ b.T`` slice by slice: exact integer-valued float64 products and their powers of two
    (the exact product is ``sum c * 2**shift``)."""
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            yield x @ y.T, a_width * i + b_width * j


def _slice_float_ints(m: np.ndarray, width: int) -> tuple[np.ndarray, ...]:
    """Signed ``width``-bit slices of an array of integer-valued floats (exact)."""
    sign = np.where(m < 0, -1.0, 1.0)
    r = np.abs(m)
    step = 2.0**width
    out = []
    while True:
        low = np.fmod(r, step)
        out.append(sign * low)
        r = (r - low) / step
        if not r.any():
            return tuple(out)


def from_float(a: np.ndarray, width: int) -> Sliced:
    """A float array as its exact binary values (integers times a power of two)."""
    a = np.asarray(a, dtype=np.float64)
    if not np.isfinite(a).all():
        raise InputError("inputs must be finite (use a mask for -inf)")
    nz = a != 0
    if not nz.any():
        return Sliced((np.zeros(a.shape),), width, Fraction(1))
    mant, ex = np.frexp(a[nz])
    mi = np.abs(np.ldexp(mant, 53)).astype(np.int64)
    tz = np.frexp((mi & -mi).astype(np.float64))[1].astype(np.int64) - 1  # exact: powers of two
    e0 = int((ex - 53 + tz).min())
    if int(ex.max()) - e0 > 1000:  # integers beyond the double range: exact Python integers
        return from_fractions(np.vectorize(Fraction, otypes=[object])(a), width)
    m = np.ldexp(a, -e0)  # exact: integers
    return Sliced(_slice_float_ints(m, width), width, Fraction(2) ** e0)


def from_fractions(x: np.ndarray, width: int) -> Sliced:
    """An object array of ``Fraction`` over the LCM of its denominators."""
    ints, den = fractions_to_ints(x)
    return Sliced.of_ints(ints, den, width)


def short_decimals(a: np.ndarray, width: int) -> Sliced | None:
    """Floats whose shortest repr has at most 8 decimals, as ``m / 10**k`` without Fractions.

    When ``fl(m / 10**k) == a`` with ``|m| < 2**52``, the ulp of ``a`` is below ``10**-k``,
    so ``m / 10**k`` is the only decimal with at most ``k`` places that rounds to ``a``;
    it is therefore what the shortest repr reads (as :func:`to_exact_array` does).
    """
    for k in range(9):
        with np.errstate(over="ignore"):
            m = np.round(a * 10.0**k)
        if not np.abs(m).max() < 2.0**52:
            return None
        if np.array_equal(m / 10.0**k, a):
            return Sliced(_slice_float_ints(m, width), width, Fraction(1, 10**k))
    return None


def exact_input(x: Any, width: int, exact_float: bool, what: str, limits: Limits) -> Sliced:
    """Any input symattn reads (arrays, lists, tensors) as a :class:`Sliced`, exactly."""
    if is_torch(x):
        x = from_torch(x)
    if isinstance(x, np.ndarray) and x.dtype.kind == "f" and exact_float:
        return from_float(x, width)
    if isinstance(x, np.ndarray) and x.dtype.kind == "f" and x.size and np.isfinite(x).all():
        short = short_decimals(x.astype(np.float64), width)
        if short is not None:
            return short
    return from_fractions(
        to_exact_array(x, exact_float=exact_float, what=what, limits=limits), width
    )


def sliced_ints(t: ScaledIntTensor, width: int) -> Sliced:
    """The engine's integer form of an input, sliced."""
    return Sliced.of_ints(t.ints, t.den, width)


def exact_products(
    a: Sequence[np.ndarray], a_width: int, b: Sequence[np.ndarray], b_width: int, fits: bool
) -> Any:
    """The exact integers ``a @ b.T`` (int64 when ``fits``, else Python integers)."""
    return combine_products(slice_products(a, a_width, b, b_width), fits)
