"""How an exact value is written as text: one vocabulary for every layer.

=====================  ==========================================  =====================
function               writes                                      example
=====================  ==========================================  =====================
:func:`plain`          a ``Decimal`` in positional notation        ``1E-7 -> 0.0000001``
:func:`fixed`          a ``Decimal`` with exactly N places, no -0  ``-0.001, 2 -> 0.00``
:func:`terminating_text`  a ``Fraction`` exactly, if it terminates ``7/20 -> 0.35``
:func:`fraction_text`  a ``Fraction`` exactly: decimal, else p/q   ``1/3 -> 1/3``
:func:`rounded_text`   an integer exactly, else N places, trimmed  ``1/3, 6 -> 0.333333``
:func:`compact_text`   like ``rounded_text`` in Decimal's notation ``1/10**25 -> 1E-25``
:func:`int_text`       an integer of any size                      ``7**9000 -> 7608…``
:func:`ratio_text`     a ``Fraction`` as ``str`` does, any size    ``2/4 -> 1/2``
=====================  ==========================================  =====================

Every rounding here is exact (:mod:`symattn.numbers.rounding`); nothing goes through a float,
and no integer through ``str(int)``, which Python refuses past 4300 digits.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from symattn.numbers.rounding import (
    Rounding,
    int_to_decimal,
    round_decimals,
    terminating_decimal,
)

__all__ = [
    "compact_text",
    "fixed",
    "fraction_text",
    "int_text",
    "plain",
    "ratio_text",
    "rounded_text",
    "terminating_text",
]


def int_text(n: int) -> str:
    """``n`` in decimal digits, whatever its size (``str(n)`` stops at 4300 digits)."""
    return str(n) if n.bit_length() < 4096 else str(int_to_decimal(n))


def ratio_text(x: Fraction) -> str:
    """``str(x)`` (``p/q``, or ``p`` for an integer), for numbers of any size."""
    if x.denominator == 1:
        return int_text(x.numerator)
    return f"{int_text(x.numerator)}/{int_text(x.denominator)}"


def plain(d: Decimal) -> str:
    """``d`` in positional notation, never with an exponent (``Decimal("1E+3")`` -> ``1000``)."""
    return format(d, "f")


def fixed(d: Decimal, decimals: int) -> str:
    """``d`` with exactly ``decimals`` places; a value that shows as zero has no minus sign."""
    text = f"{d:.{decimals}f}"
    return text[1:] if text.startswith("-") and set(text[1:]) <= set("0.") else text


def terminating_text(x: Fraction) -> str | None:
    """``x`` exactly as a decimal (``7/20`` -> ``0.35``) when its expansion terminates."""
    d = terminating_decimal(x)
    return None if d is None else plain(d)


def fraction_text(x: Fraction) -> str:
    """``x`` exactly: a decimal when its expansion terminates (``-0.35``), else ``p/q``."""
    text = terminating_text(x)
    return text if text is not None else f"{int_text(x.numerator)}/{int_text(x.denominator)}"


def rounded_text(x: Fraction, decimals: int, mode: Rounding = Rounding.HALF_EVEN) -> str:
    """An integer exactly; otherwise ``x`` rounded to ``decimals`` places, trailing zeros dropped.

    Positional notation (``1/3, 6`` -> ``0.333333``; ``1/2, 6`` -> ``0.5``).
    """
    if x.denominator == 1:
        return int_text(x.numerator)
    return plain(round_decimals(x, decimals, mode).normalize())


def compact_text(x: Fraction, decimals: int = 20) -> str:
    """Like :func:`rounded_text`, in ``Decimal``'s own short notation (``1E-25``; for reprs)."""
    if x.denominator == 1:
        return int_text(x.numerator)
    return str(round_decimals(x, decimals).normalize())
