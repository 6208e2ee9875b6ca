"""How judge writes the numbers it puts in verdicts and findings (plain text, no words)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from symattn.config import Limits
from symattn.exact import ExactTensor
from symattn.numbers.rounding import Rounding, round_decimals

#: decimals of a rational shown in a finding (a computation, a sum) when it is not an integer
FRACTION_DECIMALS = 6


def decimal_text(d: Decimal) -> str:
    """``d`` in positional notation, every written digit kept (``0.340``, never ``3.4E-1``)."""
    return format(d, "f")


def frac_text(x: Fraction) -> str:
    """An integer as itself, else rounded (half-even) to 6 decimals, trailing zeros dropped."""
    if x.denominator == 1:
        return str(x.numerator)
    return decimal_text(round_decimals(x, FRACTION_DECIMALS, Rounding.HALF_EVEN).normalize())


def vector_text(t: ExactTensor, i: int, decimals: int, limits: Limits) -> str:
    """Row ``i`` of ``t`` correctly rounded (half-even) to ``decimals`` places: ``[0.8930, …]``."""
    rounded = t.round(decimals, mode=Rounding.HALF_EVEN, limits=limits)
    return "[" + ", ".join(decimal_text(x) for x in rounded[i]) + "]"
