"""Tests for symattn.exact.ball: certified enclosures and the decisions taken from them."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import flint
import pytest

from symattn.errors import LimitError
from symattn.exact import (
    EXPONENT_RANGE_BITS,
    Ball,
    arb_of,
    arb_of_ratio,
    arb_to_fraction,
    float_of,
)

F = Fraction


def test_ball_refuses_float_and_keeps_parts() -> None:
    b = Ball(F(1), F(3))
    assert b.mid == 2 and b.radius == 1 and b.width == 2
    assert 2 in b and 4 not in b
    with pytest.raises(TypeError, match="certified"):
        float(b)


def test_ball_from_arb_is_lazy_exact_and_read_only() -> None:
    with flint.ctx.workprec(80):
        x = flint.arb(1) / 3
    b = Ball.from_arb(x)
    assert "lower" not in vars(b)  # bounds are built on first access
    assert b.width == 2 * b.radius and b.mid == (b.lower + b.upper) / 2
    assert b.lower < F(1, 3) < b.upper and F(1, 3) in b
    assert b == Ball(b.lower, b.upper) and hash(b) == hash(Ball(b.lower, b.upper))
    assert b.narrower_than(b.width + F(1, 10**40)) and not b.narrower_than(b.width)
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.lower = F(0)  # type: ignore[misc]  # frozen: the assignment must fail
    with pytest.raises(TypeError, match="certified"):
        float(b)
    exact = Ball.from_arb(flint.arb(5) / 4)
    assert (exact.lower, exact.upper, exact.width) == (F(5, 4), F(5, 4), 0)


@pytest.mark.parametrize(
    ("ball", "text"),
    [
        (Ball.exact(F(5)), "[5]"),
        (Ball.exact(F(1, 4)), "[0.25]"),
        (Ball(F(1, 3) - F(1, 10**6), F(1, 3) + F(1, 10**6)), "[0.33333333 ± 1.0e-06]"),
    ],
)
def test_ball_str_writes_the_centre_to_the_width(ball: Ball, text: str) -> None:
    assert str(ball) == text and repr(ball) == "Ball" + text


def test_ball_membership_needs_a_number() -> None:
    b = Ball(F(0), F(1))
    assert "1/2" in b and 0.25 in b and F(3, 2) not in b
    with pytest.raises(TypeError, match="lies in a Ball"):
        _ = None in b


def test_round_decisions_need_both_ends_to_agree() -> None:
    b = Ball(F(1234, 10000), F(1236, 10000))
    assert str(b.round_decimals(2)) == "0.12" and b.round_decimals(3) is None
    assert str(b.round_significant(2)) == "0.12" and b.round_significant(3) is None


@pytest.mark.parametrize(
    ("ball", "expected"),
    [
        (Ball.exact(F(1, 10)), 0.1),
        (Ball(F(1, 3), F(1, 3) + F(1, 2**80)), 1 / 3),
        (Ball(F(1, 3), F(1, 3) + F(1, 2**40)), None),
        (Ball.exact(F(-1, 2**1200)), -0.0),
        (Ball.exact(F(2**1100)), float("inf")),
    ],
)
def test_float_of(ball: Ball, expected: float | None) -> None:
    got = float_of(ball)
    assert got == expected
    if expected == 0:
        assert str(got) == "-0.0"


def test_arb_converters_are_exact() -> None:
    with flint.ctx.workprec(64):
        third = arb_of(F(1, 3), F(1, 10))
        assert third.contains(flint.arb(1) / 3) and third.rad() >= flint.arb("0.1")
        assert arb_of(7).is_exact() and arb_to_fraction(arb_of(F(-5, 8))) == F(-5, 8)
        assert arb_of_ratio(6, 8).overlaps(arb_of(F(3, 4)))
    with pytest.raises(LimitError, match="beyond the range"):
        _ = Ball.from_arb(flint.arb(2) ** (EXPONENT_RANGE_BITS + 10)).lower


def test_significant_digits_of_a_value_beyond_the_written_range() -> None:
    x = flint.arb(2) ** -300000 * 3
    ball = Ball.from_arb(x)
    with pytest.raises(LimitError):
        _ = ball.lower  # not written out exactly
    got = ball.round_significant(5)
    assert got is not None and str(got) == "3.0090E-90309"  # 3 * 2**-300000


@pytest.mark.parametrize("exponent", ["1e150", "1e400"])
def test_astronomical_values_are_limit_errors_not_overflow(exponent: str) -> None:
    # issue 15 row 12: exp of a huge logit (Q = 1e150, a mask entry 1e400) reaches from_arb
    with flint.ctx.workprec(2000):  # the argument's bits set the precision exp needs
        x = flint.arb(exponent).exp()
    ball = Ball.from_arb(x)
    assert float_of(ball) == float("inf") and ball.sign == 1
    with pytest.raises(LimitError, match=r"2\^\(1\.443e\+\d+\)"):
        _ = ball.lower
    with pytest.raises(LimitError):
        ball.round_significant(6)
    tiny = Ball.from_arb(flint.arb(1) / x)
    assert float_of(tiny) == 0.0


def test_a_radius_far_below_the_midpoint_is_rounded_outward() -> None:
    x = flint.arb(flint.arb(2) ** 10000, flint.arb(2) ** -10000)
    ball = Ball.from_arb(x)
    m, r, e = ball._dyadic  # type: ignore[misc]
    assert r >= 1 and (m - r) * Fraction(2) ** e <= 2**10000 <= (m + r) * Fraction(2) ** e
