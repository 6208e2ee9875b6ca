"""Exact integer matrices: rationals over one common denominator, signed slices that float64
BLAS multiplies exactly, and the exact product recombined from the slice products."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = [
    "INT64_SAFE",
    "float_ints",
    "combine_products",
    "fractions_to_ints",
    "int_matmul",
    "int_slices",
    "max_abs",
    "slice_width",
    "to_int64_if_small",
]

#: integers strictly inside ``(-INT64_SAFE, INT64_SAFE)`` are kept as int64, with room for a sum
INT64_SAFE = 2**62


def to_int64_if_small(ints: np.ndarray) -> np.ndarray:
    """``ints`` as int64 when every entry fits comfortably, else an object array of Python ints."""
    if ints.dtype == np.int64:
        return ints
    flat = ints.reshape(-1).tolist()
    if all(-INT64_SAFE < i < INT64_SAFE for i in flat):
        return np.array(flat, dtype=np.int64).reshape(ints.shape)
    return np.asarray(ints, dtype=object)


def float_ints(a: np.ndarray, small: bool = True) -> tuple[np.ndarray, int]:
    """``(ints, e0)`` with ``a == ints * 2**e0`` exactly for a float64 array (ints: int64 when
    ``small`` and they fit, else Python integers in an object array; ``e0 = 0`` for zeros)."""
    a = np.asarray(a, dtype=np.float64)
    mant, ex = np.frexp(a)
    mi = np.abs(np.ldexp(mant, 53)).astype(np.int64)
    nz = mi != 0
    if not nz.any():
        return np.zeros(a.shape, dtype=np.int64 if small else object), 0
    lowbit = (mi & -mi).astype(np.float64)  # a power of two, exact
    tz = np.maximum(np.frexp(lowbit)[1].astype(np.int64) - 1, 0)
    low = ex - 53 + tz
    e0 = int(low[nz].min())
    shift = np.where(nz, low - e0, 0)
    odd = mi >> tz
    sign = np.where(mant < 0, -1, 1)
    if small and int(shift.max()) + 53 < 62:
        return sign * (odd << shift), e0
    ints: np.ndarray = sign.astype(object) * (odd.astype(object) << shift.astype(object))
    return (to_int64_if_small(ints) if small else ints), e0


def max_abs(ints: np.ndarray) -> int:
    """``max |ints|`` as a Python int (0 for an empty array)."""
    if ints.size == 0:
        return 0
    if ints.dtype == np.int64:
        return int(np.abs(ints).max())
    return max(abs(int(i)) for i in ints.reshape(-1).tolist())


def fractions_to_ints(values: np.ndarray) -> tuple[np.ndarray, int]:
    """``(ints, den)`` with ``values == ints / den`` exactly (``den``: LCM of the denominators)."""
    flat = values.reshape(-1).tolist()
    den = math.lcm(*{f.denominator for f in flat}) if flat else 1
    ints = np.array([f.numerator * (den // f.denominator) for f in flat], dtype=object).reshape(
        values.shape
    )
    return to_int64_if_small(ints), den


def slice_width(terms: int) -> int:
    """Slice width so that a product of two slices summed ``terms`` times stays below 2**53."""
    return max(4, (53 - (terms + 1).bit_length() - 1) // 2)


def int_slices(ints: np.ndarray, width: int) -> list[np.ndarray]:
    """Signed ``width``-bit slices (float64, exact): ``ints == sum_s slices[s] * 2**(width*s)``."""
    small = ints.dtype == np.int64 and max_abs(ints) < 2**53
    values = ints if small else np.asarray(ints, dtype=object)
    sign = np.where(values < 0, -1.0, 1.0)
    mag = np.abs(values)
    out = []
    while True:
        out.append(sign * (mag & ((1 << width) - 1)).astype(np.float64))
        mag = mag >> width
        if not mag.any():
            return out


def combine_products(terms: Iterable[tuple[np.ndarray, int]], small: bool) -> Any:
    """``sum c * 2**shift`` over exact integer-valued float64 products ``c`` (below ``2**53``),
    or int64 arrays (below ``2**61``).

    In int64 when ``small`` (the caller has bounded the sum below ``2**62``), else in Python
    integers (an object array).
    """
    total: Any = None
    for c, shift in terms:
        ints = c if c.dtype == np.int64 else c.astype(np.int64)
        term = ints << shift if small else ints.astype(object) << shift
        total = term if total is None else total + term
    return total


def int_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The exact integer product ``a @ b`` (numpy broadcasting over batch axes).

    Operands are cut into signed slices small enough that every slice product done by
    float64 BLAS is exact (all partial sums are integers below ``2**53``); the slice
    products are recombined in int64 when the result surely fits, else in Python integers.
    """
    k = a.shape[-1]
    bound = max_abs(a) * max_abs(b) * max(k, 1)
    if bound < 2**53:  # one float64 product, exact
        product: np.ndarray = np.matmul(a.astype(np.float64), b.astype(np.float64))
        return product.astype(np.int64)
    width = slice_width(k)
    sa, sb = int_slices(a, width), int_slices(b, width)
    small = bound < INT64_SAFE
    # the slice products of one diagonal (one shift) summed in int64 first: each is below
    # 2**53 and a diagonal holds at most min(len(sa), len(sb)) of them, so the sum stays below
    # 2**61 up to 2**8 slices (far fewer Python integer operations when the result is large)
    per_diagonal = 2**8 if min(len(sa), len(sb)) <= 2**8 else 1
    parts: dict[tuple[int, int], np.ndarray] = {}
    for i, x in enumerate(sa):
        for j, y in enumerate(sb):
            prod = np.matmul(x, y).astype(np.int64)
            key = (i + j, 0 if per_diagonal > 1 else i)
            got = parts.get(key)
            parts[key] = prod if got is None else got + prod
    total: np.ndarray = combine_products(
        ((d, width * key[0]) for key, d in sorted(parts.items())), small
    )
    return total if small else to_int64_if_small(total)
