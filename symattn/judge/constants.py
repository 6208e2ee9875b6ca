"""Rounded constants authors compute with instead of the exact ones: the one table.

``check`` and ``audit`` name the same constant for the same claim because both read
:data:`APPROX_E` and :func:`approximate_roots`, in this order (most used first).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

#: decimals of the rounded roots authors divide by (√2 ≈ 1.41 first; 1.4 last)
ROOT_PLACES: tuple[int, ...] = (2, 3, 4, 1)


@dataclass(frozen=True)
class ApproxConstant:
    """A rounded constant an author may have used instead of the exact one."""

    symbol: str
    text: str

    @property
    def value(self) -> Fraction:
        """The rounded constant, exactly."""
        return Fraction(self.text)


#: approximations of e authors use for exp (e^x ≈ c^x)
APPROX_E: tuple[ApproxConstant, ...] = tuple(
    ApproxConstant("e", t) for t in ("2.718", "2.72", "2.7183", "2.71828", "2.7")
)


@dataclass(frozen=True)
class RootConst:
    """A rounded ``√d`` an author divides by (or a rounded ``1/√d`` they multiply by)."""

    symbol: str
    text: str
    divide: bool

    @property
    def value(self) -> Fraction:
        """The rounded constant, exactly."""
        return Fraction(self.text)


def approximate_roots(d: int) -> tuple[RootConst, ...]:
    """Roundings and truncations of ``√d`` and ``1/√d`` to :data:`ROOT_PLACES` decimals
    (none when ``d`` is a perfect square: its root is exact)."""
    if d <= 0 or math.isqrt(d) ** 2 == d:
        return ()
    with localcontext() as ctx:
        ctx.prec = 60
        root = Decimal(d).sqrt()
        inverse = 1 / root
    out: list[RootConst] = []
    for places in ROOT_PLACES:
        for mode in (ROUND_HALF_EVEN, ROUND_DOWN):
            for symbol, x, divide in ((f"√{d}", root, True), (f"1/√{d}", inverse, False)):
                text = format(x.quantize(Decimal(1).scaleb(-places), rounding=mode), "f")
                const = RootConst(symbol, text, divide)
                if const not in out:
                    out.append(const)
    return tuple(out)


#: the largest radicand of a rounded root recognised in a divisor (d_k of worked examples)
MAX_RADICAND = 4096


def rounded_root(value: Fraction, half: Fraction) -> int | None:
    """The integer ``n`` (2 … :data:`MAX_RADICAND`, not a perfect square) whose square root
    rounds to ``value`` at a half-unit of ``half`` (``1.73``: 3, ``1.414``: 2, ``2.83``: 8);
    None when there is none. Decided exactly: ``(value - half)² ≤ n ≤ (value + half)²``."""
    if half <= 0 or value - half <= 0:
        return None
    lo, hi = (value - half) ** 2, (value + half) ** 2
    first = max(2, math.ceil(lo))
    for n in range(first, min(math.floor(hi), MAX_RADICAND) + 1):
        if math.isqrt(n) ** 2 != n:
            return n
    return None
