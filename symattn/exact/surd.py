"""Exact numbers ``p + q*sqrt(r)`` (:class:`Surd`): the scale ``1/sqrt(d_k)`` and the scaled
scores live in Q(sqrt(r))."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import flint

from symattn.errors import InputError, LimitError
from symattn.exact.ball import arb_of

if TYPE_CHECKING:
    import sympy

__all__ = ["Surd", "inv_sqrt", "sqrt_surd", "surd_arb"]

_MAX_RADICAND = 10**15


def _squarefree_split(n: int) -> tuple[int, int]:
    """``(m, r)`` with ``n == m*m*r`` and ``r`` squarefree."""
    if n > _MAX_RADICAND:
        raise LimitError(
            f"cannot take the exact square root of {n}: "
            f"radicands above {_MAX_RADICAND} are not supported"
        )
    m, r, p = 1, 1, 2
    while p * p * p <= n:
        while n % (p * p) == 0:
            n //= p * p
            m *= p
        if n % p == 0:
            n //= p
            r *= p
        p += 1 if p == 2 else 2
    s = math.isqrt(n)
    if s * s == n:
        m *= s
    else:
        r *= n
    return m, r


@dataclass(frozen=True)
class Surd:
    """The exact number ``p + q*sqrt(r)``: ``p, q`` rational, ``r >= 1`` squarefree."""

    p: Fraction
    q: Fraction = Fraction(0)
    r: int = 1

    def __post_init__(self) -> None:
        if self.r == 1 and self.q != 0:
            object.__setattr__(self, "p", self.p + self.q)
            object.__setattr__(self, "q", Fraction(0))

    @property
    def is_rational(self) -> bool:
        """Whether the value is rational."""
        return self.q == 0

    def __mul__(self, other: Fraction | int) -> Surd:
        f = Fraction(other)
        return Surd(self.p * f, self.q * f, self.r)

    __rmul__ = __mul__

    def __add__(self, other: Fraction | int) -> Surd:
        return Surd(self.p + Fraction(other), self.q, self.r)

    def sign(self) -> int:
        """The sign of the value (-1, 0 or 1), decided exactly."""
        sp = (self.p > 0) - (self.p < 0)
        sq = (self.q > 0) - (self.q < 0)
        if sq == 0 or sp == sq:
            return sp if sq == 0 else sq
        if sp == 0:
            return sq
        # opposite signs: compare p^2 with q^2 r
        big = self.p * self.p - self.q * self.q * self.r
        return sp * ((big > 0) - (big < 0))

    def compare(self, other: Surd) -> int:
        """The sign of ``self - other``, decided exactly; both share the radical unless one
        of them is rational."""
        if self.r != other.r and self.q != 0 and other.q != 0:
            raise InputError("cannot compare numbers with different radicals")
        r = self.r if self.q != 0 else other.r
        return Surd(self.p - other.p, self.q - other.q, r).sign()

    def sympy(self) -> sympy.Expr:
        """The value as a sympy expression, e.g. ``5*sqrt(2)/4``."""
        import sympy  # lazy: importing symattn does not load sympy

        return sympy.Rational(self.p.numerator, self.p.denominator) + sympy.Rational(
            self.q.numerator, self.q.denominator
        ) * sympy.sqrt(self.r)

    def arb(self) -> flint.arb:
        """A ball around the value at the current Arb working precision."""
        return surd_arb(self.p, self.q, self.r)

    def __str__(self) -> str:
        return str(self.sympy())


def surd_arb(p: Fraction, q: Fraction, r: int, root: flint.arb | None = None) -> flint.arb:
    """``p + q*sqrt(r)`` as an Arb ball at the working precision (``root``: ``sqrt(r)`` there,
    when the caller has it already)."""
    x = arb_of(p)
    if q:
        x += arb_of(q) * (flint.arb(r).sqrt() if root is None else root)
    return x


def sqrt_surd(n: int | Fraction) -> Surd:
    """``sqrt(n)`` exactly, for a positive rational ``n``."""
    f = Fraction(n)
    if f <= 0:
        raise InputError(f"cannot take the square root of {f}: it must be positive")
    a, b = f.numerator, f.denominator  # sqrt(a/b) = sqrt(a*b)/b
    root = math.isqrt(a * b)
    if root * root == a * b:  # a perfect square of any size (1/c^2 of a rational scale c)
        return Surd(Fraction(root, b))
    m, r = _squarefree_split(a * b)
    return Surd(Fraction(0), Fraction(m, b), r)


def inv_sqrt(n: int | Fraction) -> Surd:
    """``1/sqrt(n)`` exactly, for a positive rational ``n`` (the default attention scale)."""
    f = Fraction(n)
    if f <= 0:
        raise InputError(f"cannot take 1/sqrt({f}): it must be positive")
    return sqrt_surd(1 / f)
