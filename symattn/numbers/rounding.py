"""Exact decimal rounding of rational numbers.

Every rounded number symattn displays, and every verdict about a rounded claim, starts
here: the rounding of an *exact* value, done in integer arithmetic.

Nothing here goes through ``str(int)``: Python refuses to convert an integer of more than
``sys.get_int_max_str_digits()`` (4300) digits that way, and the conversion is quadratic.
:func:`int_to_decimal` turns an integer of any size into a ``Decimal`` by halves instead
(libmpdec multiplies large numbers in n log n), so ``e^10000`` (4343 digits) or a value near
``2^262144`` rounds in milliseconds.
"""

from __future__ import annotations

import decimal
import math
from decimal import Decimal
from enum import Enum
from fractions import Fraction

#: a context in which every operation on integers and powers of ten is exact (huge precision,
#: unbounded exponents; an inexact result would raise instead of rounding)
_EXACT = decimal.Context(
    prec=decimal.MAX_PREC,
    Emax=decimal.MAX_EMAX,
    Emin=decimal.MIN_EMIN,
    traps=[decimal.Inexact, decimal.Overflow, decimal.InvalidOperation],
)
#: integers below this many bits are converted directly (fast for small numbers)
_DIRECT_BITS = 2048


class Rounding(Enum):
    """How a value is rounded to a number of decimals."""

    HALF_UP = "half-up"  # ties away from zero (四舍五入)
    HALF_DOWN = "half-down"  # ties toward zero
    HALF_EVEN = "half-even"  # ties to the even digit (IEEE, Python's round)
    TRUNCATE = "truncate"  # toward zero: drop the digits

    @classmethod
    def parse(cls, text: str) -> Rounding:
        """The mode named ``text`` (its value, e.g. ``"half-up"``)."""
        for mode in cls:
            if mode.value == text:
                return mode
        names = ", ".join(m.value for m in cls)
        raise ValueError(f"unknown rounding mode {text!r}; use one of {names}")


def round_to_int(x: Fraction, mode: Rounding = Rounding.HALF_EVEN) -> int:
    """``x`` rounded to an integer under ``mode``."""
    return _round_ratio(x.numerator, x.denominator, mode)


def _round_ratio(n: int, d: int, mode: Rounding) -> int:
    """``n / d`` (``d > 0``) rounded to an integer under ``mode``, in integers only."""
    sign = -1 if n < 0 else 1
    whole, rest = divmod(abs(n), d)
    twice = 2 * rest
    if mode is Rounding.TRUNCATE or twice < d:
        up = False
    elif twice > d:
        up = True
    elif mode is Rounding.HALF_UP:
        up = True
    elif mode is Rounding.HALF_DOWN:
        up = False
    else:
        up = whole % 2 == 1
    return sign * (whole + (1 if up else 0))


def int_to_decimal(n: int) -> Decimal:
    """``n`` as a ``Decimal`` (exponent 0), any size, without ``str(n)`` (see the module doc)."""
    if n.bit_length() <= _DIRECT_BITS:
        return Decimal(n)
    powers: dict[int, Decimal] = {}

    def two_to(w: int) -> Decimal:
        if w not in powers:
            half = w >> 1
            powers[w] = (
                Decimal(1 << w)
                if w <= _DIRECT_BITS
                else _EXACT.multiply(two_to(half), two_to(w - half))
            )
        return powers[w]

    def convert(m: int, bits: int) -> Decimal:  # 0 <= m < 2**bits
        if bits <= _DIRECT_BITS:
            return Decimal(m)
        half = bits >> 1
        high, low = m >> half, m & ((1 << half) - 1)
        return _EXACT.add(
            _EXACT.multiply(convert(high, bits - half), two_to(half)), convert(low, half)
        )

    value = convert(abs(n), n.bit_length())
    return value.copy_negate() if n < 0 else value  # copy_negate: no rounding to a context


def scaled_decimal(n: int, exponent: int) -> Decimal:
    """Exactly ``n * 10**exponent``, keeping ``n`` as the coefficient (``12, 2`` -> ``1.2E+3``)."""
    return _EXACT.scaleb(int_to_decimal(n), exponent)


def round_decimals(x: Fraction, decimals: int, mode: Rounding = Rounding.HALF_EVEN) -> Decimal:
    """``x`` rounded to ``decimals`` places after the point (negative: tens, hundreds)."""
    n, d = x.numerator, x.denominator
    if decimals >= 0:
        n *= 10**decimals
    else:
        d *= 10**-decimals
    return scaled_decimal(_round_ratio(n, d, mode), -decimals)


def decimal_exponent(x: Fraction) -> int:
    """``floor(log10(|x|))`` for ``x != 0``, exactly (from bit lengths: no decimal conversion)."""
    a = abs(x)
    if a == 0:
        raise ValueError("decimal_exponent of zero")
    n, d = a.numerator, a.denominator
    e = math.floor((n.bit_length() - d.bit_length()) * _LOG10_2)  # off by at most 1 or 2

    def at_least(k: int) -> bool:  # n/d >= 10**k
        power: int = 10 ** abs(k)
        return n >= d * power if k >= 0 else n * power >= d

    while not at_least(e):
        e -= 1
    while at_least(e + 1):
        e += 1
    return e


_LOG10_2 = math.log10(2)
_LOG2_5 = math.log2(5)


def round_significant(x: Fraction, digits: int, mode: Rounding = Rounding.HALF_EVEN) -> Decimal:
    """``x`` rounded to ``digits`` significant digits."""
    if digits < 1:
        raise ValueError("digits must be at least 1")
    if x == 0:
        return Decimal(0)
    decimals = digits - 1 - decimal_exponent(x)
    result = round_decimals(x, decimals, mode)
    # rounding up may have carried into a new digit (9.99 -> 10.0): drop one place
    if result != 0 and len(result.as_tuple().digits) > digits:
        result = round_decimals(x, decimals - 1, mode)
    return result


def is_tie(x: Fraction, decimals: int) -> bool:
    """Whether ``x`` lies exactly half-way between two values with ``decimals`` places."""
    scaled = x * Fraction(10) ** decimals
    return (2 * scaled).denominator == 1 and scaled.denominator != 1


def terminating_decimal(x: Fraction) -> Decimal | None:
    """``x`` exactly as a ``Decimal`` when its decimal expansion terminates, else ``None``.

    The denominator must be ``2**a * 5**b``: ``a`` is its count of trailing zero bits, and the
    odd rest must be the power of five its bit length allows. The digits are the numerator
    times what the denominator lacks of ``10**max(a, b)``. Powers and products are libmpdec's
    (n log n); a division per factor of the denominator, then a long division, made this
    quadratic (a value of 20 000 digits took seconds to write).
    """
    d = x.denominator
    twos = (d & -d).bit_length() - 1
    odd = d >> twos
    fives = 0
    if odd != 1:
        if odd % 5:
            return None
        guess = int((odd.bit_length() - 1) / _LOG2_5)  # 5**guess <= odd, off by at most one
        target = int_to_decimal(odd)
        fives = next(
            (k for k in (guess, guess + 1, guess - 1) if k > 0 and _power(5, k) == target), 0
        )
        if not fives:
            return None
    places = max(twos, fives)
    scaled = _EXACT.multiply(
        int_to_decimal(x.numerator),
        _EXACT.multiply(_power(2, places - twos), _power(5, places - fives)),
    )
    return _EXACT.scaleb(scaled, -places)


def _power(base: int, k: int) -> Decimal:
    """``base**k`` exactly, as a ``Decimal`` (libmpdec's multiplication, not Python's)."""
    return _EXACT.power(Decimal(base), k)
