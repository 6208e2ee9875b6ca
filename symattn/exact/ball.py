"""Certified enclosures: :class:`Ball`, the one ``Fraction`` -> Arb converter, and the
decisions taken from a ball (round to decimals, to significant digits, to float64)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from numbers import Rational

import flint

from symattn.errors import LimitError, PrecisionError
from symattn.numbers.format import compact_text
from symattn.numbers.rounding import Rounding, decimal_exponent, round_decimals, round_significant

__all__ = [
    "EXPONENT_RANGE_BITS",
    "Ball",
    "Narrow",
    "Places",
    "Significant",
    "arb_of",
    "arb_of_ratio",
    "arb_to_fraction",
    "float_of",
]

#: values whose binary exponent lies beyond this are not written out as exact fractions: a
#: ``Ball`` bound there raises LimitError (``to_numpy`` and ``round`` decide them without it)
EXPONENT_RANGE_BITS = 1 << 18
#: significant digits are decided for values down to ``2**-(1 << 24)`` (and up to the inverse)
SIGNIFICANT_RANGE_BITS = 1 << 24


def arb_of(x: Fraction | int, radius: Fraction | int = 0) -> flint.arb:
    """The Arb ball of an exact rational (and an exact ``radius``): the one converter."""
    f, r = Fraction(x), Fraction(radius)
    mid = flint.fmpq(f.numerator, f.denominator)
    return flint.arb(mid, flint.fmpq(r.numerator, r.denominator)) if r else flint.arb(mid)


def arb_of_ratio(numerator: int, denominator: int) -> flint.arb:
    """``arb_of(Fraction(numerator, denominator))`` without building the ``Fraction``."""
    return flint.arb(flint.fmpq(numerator, denominator))


def arb_to_fraction(x: flint.arb) -> Fraction:
    """The exact value of an exact (zero-radius) Arb number."""
    man, exp = x.man_exp()
    m, e = int(man), int(exp)
    return Fraction(m * 2**e) if e >= 0 else Fraction(m, 2**-e)


@dataclass(frozen=True, repr=False, eq=False, init=False)
class Ball:
    """A certified enclosure: the exact value lies in ``[lower, upper]``.

    Like a number with an uncertainty, value and error stay apart (``mid``, ``radius``);
    it refuses silent conversion to ``float``, which would drop the guarantee. A ball from
    Arb keeps its exact dyadic centre and radius as integers and builds the ``Fraction``
    bounds only when they are first read (read-only all the same).
    """

    _dyadic: tuple[int, int, int] | None  # (m, r, e): [(m - r) 2**e, (m + r) 2**e]

    def __init__(self, lower: Fraction, upper: Fraction) -> None:
        object.__setattr__(self, "_dyadic", None)
        self.__dict__["lower"] = lower
        self.__dict__["upper"] = upper

    @classmethod
    def exact(cls, value: Fraction) -> Ball:
        """The zero-width ball around a known value."""
        return cls(value, value)

    @classmethod
    def from_arb(cls, x: flint.arb) -> Ball:
        """The ball an Arb number stands for (bounds built lazily)."""
        if not x.is_finite():
            raise PrecisionError(f"enclosure {x} is not finite")
        mm, me = x.mid().man_exp()
        rm, re = x.rad().man_exp()
        ball = object.__new__(cls)
        object.__setattr__(ball, "_dyadic", _dyadic_of(int(mm), int(me), int(rm), int(re)))
        return ball

    @staticmethod
    def _dyadic_value(m: int, e: int, limit: int = EXPONENT_RANGE_BITS) -> Fraction:
        if m and not -limit <= m.bit_length() + e <= limit:  # the limit is at least the range
            raise LimitError(
                f"a value of about 2^{_exponent_text(m.bit_length() + e)} is beyond the range "
                f"symattn writes out exactly (2^±{EXPONENT_RANGE_BITS}); its digits are not "
                "computed"
            )
        return Fraction(m << e) if e >= 0 else Fraction(m, 1 << -e)

    def _ends(self, limit: int) -> tuple[Fraction, Fraction]:
        """``(lower, upper)``, built within ``limit`` bits of exponent for a ball from Arb."""
        if self._dyadic is None:
            return self.lower, self.upper
        m, r, e = self._dyadic
        return self._dyadic_value(m - r, e, limit), self._dyadic_value(m + r, e, limit)

    def _dyadic_bound(self, side: int) -> Fraction:
        """``(m + side * r) 2**e``; only called for a ball from Arb (others have their bounds)."""
        assert self._dyadic is not None  # __init__ stores lower and upper themselves
        m, r, e = self._dyadic
        return self._dyadic_value(m + side * r, e)

    @property
    def sign(self) -> int:
        """1 when every point is >= 0 (and some > 0), -1 when every point is <= 0, else 0."""
        if self._dyadic is not None:
            m, r, _ = self._dyadic
            return 1 if m - r >= 0 and m + r > 0 else -1 if m + r <= 0 and m - r < 0 else 0
        return 1 if self.lower >= 0 < self.upper else -1 if self.upper <= 0 > self.lower else 0

    @property
    def upper_bits(self) -> int:
        """An integer ``k`` with ``|x| < 2**k`` for every point ``x`` of the ball (cheap)."""
        if self._dyadic is not None:
            m, r, e = self._dyadic
            return (abs(m) + r).bit_length() + e
        top = max(abs(self.lower), abs(self.upper))
        return top.numerator.bit_length() - top.denominator.bit_length() + 1

    @property
    def lower_bits(self) -> int | None:
        """An integer ``k`` with ``|x| >= 2**k`` for every point (``None`` if the ball holds 0)."""
        if self.sign == 0:
            return None
        if self._dyadic is not None:
            m, r, e = self._dyadic
            low = abs(m) - r
            return low.bit_length() - 1 + e if low else None
        bottom = min(abs(self.lower), abs(self.upper))
        if not bottom:
            return None
        return bottom.numerator.bit_length() - bottom.denominator.bit_length() - 1

    @cached_property
    def lower(self) -> Fraction:
        """The lower bound."""
        return self._dyadic_bound(-1)

    @cached_property
    def upper(self) -> Fraction:
        """The upper bound."""
        return self._dyadic_bound(1)

    @property
    def mid(self) -> Fraction:
        """The centre of the ball."""
        if self._dyadic is not None:
            return self._dyadic_value(self._dyadic[0], self._dyadic[2])
        return (self.lower + self.upper) / 2

    @property
    def radius(self) -> Fraction:
        """Half the width."""
        if self._dyadic is not None:
            return self._dyadic_value(self._dyadic[1], self._dyadic[2])
        return (self.upper - self.lower) / 2

    @property
    def width(self) -> Fraction:
        """``upper - lower``."""
        if self._dyadic is not None:
            return self._dyadic_value(2 * self._dyadic[1], self._dyadic[2])
        return self.upper - self.lower

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ball):
            return NotImplemented
        return (self.lower, self.upper) == (other.lower, other.upper)

    def __hash__(self) -> int:
        return hash((self.lower, self.upper))

    def narrower_than(self, width: Fraction) -> bool:
        """Whether ``upper - lower < width`` (integer arithmetic for a ball from Arb)."""
        if self._dyadic is None:
            return self.width < width
        r, e = 2 * self._dyadic[1], self._dyadic[2]
        num, den = width.numerator, width.denominator
        bits = r.bit_length() + e  # r * 2**e lies in [2**(bits-1), 2**bits)
        w_bits = num.bit_length() - den.bit_length()  # width in (2**(w_bits-1), 2**(w_bits+1))
        if r == 0 or bits < w_bits - 1:
            return True
        if bits - 1 > w_bits + 1:
            return False
        return (r * den << e) < num if e >= 0 else r * den < num << -e

    def round_decimals(self, decimals: int, mode: Rounding = Rounding.HALF_EVEN) -> Decimal | None:
        """What every point rounds to at ``decimals`` places, or ``None`` when the two ends differ.

        The one place that decides a rounding from an enclosure.
        """
        lo = round_decimals(self.lower, decimals, mode)
        return lo if round_decimals(self.upper, decimals, mode) == lo else None

    def round_significant(self, digits: int, mode: Rounding = Rounding.HALF_EVEN) -> Decimal | None:
        """What every point rounds to at ``digits`` significant digits, or ``None``.

        Significant digits have a few digits whatever the exponent, so the bounds may lie
        far beyond the range written out exactly (down to ``2**-SIGNIFICANT_RANGE_BITS``).
        """
        lower, upper = self._ends(SIGNIFICANT_RANGE_BITS)
        lo = round_significant(lower, digits, mode)
        return lo if round_significant(upper, digits, mode) == lo else None

    def __contains__(self, x: object) -> bool:
        if not isinstance(x, (Rational, float, Decimal, str)):
            raise TypeError(f"cannot tell whether a {type(x).__name__} lies in a Ball")
        value = Fraction(x)
        return self.lower <= value <= self.upper

    def __float__(self) -> float:
        raise TypeError(
            "a Ball is a certified interval; use .mid, .lower or .upper, "
            "or to_numpy() for correctly rounded floats"
        )

    def __repr__(self) -> str:
        return f"Ball{self}"

    def __str__(self) -> str:
        if self.width == 0:
            return f"[{compact_text(self.mid)}]"
        digits = max(1, -decimal_exponent(self.width) + 2)
        return f"[{compact_text(self.mid, digits)} ± {float(self.radius):.1e}]"


def _exponent_text(n: int) -> str:
    """An exponent for a message: exact when short, else in scientific notation."""
    return str(n) if abs(n) < 10**15 else f"({Decimal(n):.3e})"


#: exponents further apart than this are not put over one power of two (the integers would be
#: astronomically long): the smaller part is rounded outward onto a grid of the larger
_SPREAD = 4096


def _dyadic_of(m1: int, e1: int, m2: int, e2: int) -> tuple[int, int, int]:
    """``(m, r, e)`` with ``[(m - r) 2**e, (m + r) 2**e]`` holding the ball of midpoint
    ``m1 2**e1`` and radius ``m2 2**e2`` (exactly, unless the exponents are far apart)."""
    if m2 == 0:
        return m1, 0, e1
    if m1 == 0:
        return 0, m2, e2
    e = min(e1, e2)
    if max(e1, e2) - e <= _SPREAD:
        return m1 << (e1 - e), m2 << (e2 - e), e
    if e1 > e2:  # a radius far below the midpoint's last bit: one unit of a finer grid
        grid = e1 - 64
        return m1 << 64, (m2 >> (grid - e2)) + 1, grid
    grid = e2 - 64  # a midpoint far below the radius: floored onto the radius's grid
    return m1 >> (grid - e1), (m2 << 64) + 1, grid


def float_of(b: Ball) -> float | None:
    """The float64 every point of ``b`` rounds to (nearest-even), or ``None``."""
    sign = -1.0 if b.sign < 0 else 1.0
    if b.upper_bits < -1080:  # below half the smallest subnormal, 2**-1075: rounds to zero
        return math.copysign(0.0, sign)
    low = b.lower_bits
    if low is not None and low > 1030:  # beyond the largest double: rounds to infinity
        return math.copysign(math.inf, sign)
    lo, hi = float(b.lower), float(b.upper)  # Fraction -> float rounds correctly
    return lo if lo == hi else None


@dataclass(frozen=True)
class Narrow:
    """``enclose(digits)``'s decision: the ball itself once narrower than ``10**-digits`` (an
    astronomically small one becomes a coarser ball that is still narrow enough)."""

    digits: int

    @property
    def tiny(self) -> int:
        """A ball inside ``(-2**tiny, 2**tiny)`` is narrower than the width."""
        return -(self.digits * 10 // 3) - 3

    @cached_property
    def width(self) -> Fraction:
        """``10**-digits``."""
        return Fraction(1, 10**self.digits)

    def __call__(self, b: Ball) -> Ball | None:
        if b.upper_bits < self.tiny:
            bound = Fraction(1, 1 << -self.tiny)
            return Ball(
                -bound if b.sign <= 0 else Fraction(0), bound if b.sign >= 0 else Fraction(0)
            )
        return b if b.narrower_than(self.width) else None


@dataclass(frozen=True)
class Significant:
    """``evalf(digits)``'s decision: what every point rounds to at ``digits`` significant digits."""

    digits: int
    mode: Rounding = Rounding.HALF_EVEN

    def __call__(self, b: Ball) -> Decimal | None:
        return b.round_significant(self.digits, self.mode)


@dataclass(frozen=True)
class Places:
    """``round(decimals)``'s decision: what every point rounds to at ``decimals`` places."""

    decimals: int
    mode: Rounding = Rounding.HALF_EVEN

    def __call__(self, b: Ball) -> Decimal | None:
        if b.upper_bits < -(self.decimals * 10 // 3) - 2:  # |x| < 10**-decimals / 2: 0
            return round_decimals(Fraction(0), self.decimals, self.mode)
        return b.round_decimals(self.decimals, self.mode)
