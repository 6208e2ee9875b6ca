"""How programs print floats: is a long claim what a float32 or float64 of the value prints?

A notebook's ``0.33089125`` is not a rounding error when it is how the float32 of the exact
value prints. Binary roundings here are exact (``Fraction`` arithmetic), so float32 is never
reached through a double rounding via float64.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from typing import Literal

import numpy as np

from symattn.numbers import Written
from symattn.numbers.rounding import Rounding, round_decimals
from symattn.numbers.written import WrittenKind

FloatKind = Literal["float64", "float32"]

#: claims with at least this many significant digits may be a printed float
FLOAT_REPR_MIN_DIGITS = 8

#: the binary formats a program may print, widest first: (kind, mantissa bits, min exponent)
FORMATS: tuple[tuple[FloatKind, int, int], ...] = (("float64", 53, -1074), ("float32", 24, -149))


def nearest_binary(x: Fraction, mant_bits: int, min_exp: int) -> Fraction:
    """``x`` rounded to the nearest binary float (``mant_bits`` bits, ties to even), exactly."""
    if x == 0:
        return Fraction(0)
    sign = -1 if x < 0 else 1
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    ulp_exp = max(e - mant_bits + 1, min_exp)
    scaled = a / Fraction(2) ** ulp_exp
    n = int(round_decimals(scaled, 0, Rounding.HALF_EVEN))
    return sign * Fraction(n) * Fraction(2) ** ulp_exp


def float32_repr(x: Fraction) -> str:
    """The shortest repr numpy prints for ``x`` correctly rounded to float32."""
    f = nearest_binary(x, 24, -149)
    if abs(f) >= Fraction(2) ** 128:
        return "inf" if f > 0 else "-inf"
    return str(np.float32(float(f)))  # exact: a float32 value is exactly a float64


def float64_repr(x: Fraction) -> str:
    """The shortest repr of ``x`` correctly rounded to float64 (``float()`` rounds correctly)."""
    return repr(float(x))


def float_match(
    claim: Written, places: int, modes: Collection[Rounding], lo: Fraction, hi: Fraction
) -> FloatKind | None | Literal[False]:
    """``"float64"``/``"float32"`` when the claim is how that float of every value in
    ``[lo, hi]`` prints (its shortest repr, or its binary value rounded to the claim's
    places, as numpy/torch print with fixed digits); None when it is not; False when
    undecided at this width."""
    if (
        claim.significant is None
        or claim.significant < FLOAT_REPR_MIN_DIGITS
        or claim.kind is WrittenKind.FRACTION
    ):
        return None
    for kind, bits, min_exp in FORMATS:
        f = nearest_binary(lo, bits, min_exp)
        if nearest_binary(hi, bits, min_exp) != f:
            return False
        shortest = float64_repr(f) if kind == "float64" else float32_repr(f)
        if Fraction(shortest) == claim.value:
            return kind
        if any(round_decimals(f, places, m) == claim.value for m in modes):
            return kind
    return None
