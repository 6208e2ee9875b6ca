"""What a written claim promises: its decimals and the interval of values that round to it.

``0.34`` promises two decimals: every value in ``[0.335, 0.345]`` rounds (half-up or
half-down) to it. Taking an author's intermediate number as that interval "unrounds" it;
:func:`interval_ball` carries the interval into Arb arithmetic, :func:`fits` asks whether a
computed ball meets a claim's interval.
"""

from __future__ import annotations

from fractions import Fraction

import flint

from symattn.exact import arb_of, arb_to_fraction
from symattn.numbers import Written

#: working precision of the unrounding balls (bits)
UNROUNDING_BITS = 256


def claim_places(claim: Written) -> int | None:
    """Decimals the claim promises (negative for ``1.2e3``: hundreds); None for fractions."""
    h = claim.half_unit
    if h is None:
        return None
    unit = 2 * h
    if unit.denominator == 1:
        return -(len(str(unit.numerator)) - 1)
    return len(str(unit.denominator)) - 1


def rounding_interval(claim: Written) -> tuple[Fraction, Fraction]:
    """``[c - h, c + h]``: every value that rounds (half-up or half-down) to ``claim``."""
    h = claim.half_unit
    if h is None:
        return claim.value, claim.value
    return claim.value - h, claim.value + h


def interval_ball(claim: Written) -> flint.arb:
    """The claim as the ball of values that round to it."""
    lo, hi = rounding_interval(claim)
    return arb_of((lo + hi) / 2, (hi - lo) / 2)


def point_ball(claim: Written) -> flint.arb:
    """The claim as written, exactly."""
    return arb_of(claim.value)


def fits(claim: Written, ball: flint.arb) -> bool:
    """Whether some value in ``ball`` rounds to ``claim`` (the claim's interval meets the ball)."""
    if not ball.is_finite():
        return False
    lo, hi = rounding_interval(claim)
    with flint.ctx.workprec(UNROUNDING_BITS):
        b_lo = arb_to_fraction(ball.lower())
        b_hi = arb_to_fraction(ball.upper())
    return b_lo <= hi and lo <= b_hi
