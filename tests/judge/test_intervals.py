"""Tests of symattn.judge.intervals: what a written claim promises."""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest

from symattn.exact import Ball, arb_of
from symattn.judge.intervals import (
    claim_places,
    fits,
    interval_ball,
    point_ball,
    rounding_interval,
)
from symattn.numbers import Written, parse_number


def W(text: str) -> Written:  # noqa: N802 - reads like the claim it builds
    return parse_number(text)


@pytest.mark.parametrize(
    ("text", "places", "interval"),
    [
        ("0.34", 2, (Fraction(335, 1000), Fraction(345, 1000))),
        ("12", 0, (Fraction(23, 2), Fraction(25, 2))),
        ("1.2e3", -2, (Fraction(1150), Fraction(1250))),
        ("3/4", None, (Fraction(3, 4), Fraction(3, 4))),
    ],
)
def test_places_and_interval(
    text: str, places: int | None, interval: tuple[Fraction, Fraction]
) -> None:
    assert claim_places(W(text)) == places
    assert rounding_interval(W(text)) == interval


def test_balls() -> None:
    b = Ball.from_arb(interval_ball(W("0.34")))
    assert b.lower <= Fraction(335, 1000) and Fraction(345, 1000) <= b.upper
    assert b.width < Fraction(1, 10**10) + Fraction(1, 100)
    assert Fraction(34, 100) in Ball.from_arb(point_ball(W("0.34")))
    assert Ball.from_arb(point_ball(W("0.375"))).width == 0  # dyadic: exact


@pytest.mark.parametrize(
    ("claim", "lo", "hi", "ok"),
    [
        ("0.34", "0.344", "0.36", True),  # the ball starts inside the interval
        ("0.34", "0.30", "0.335", True),  # touches its lower end
        ("0.34", "0.346", "0.36", False),
        ("38.41", "38.40", "38.5", True),
    ],
)
def test_fits(claim: str, lo: str, hi: str, ok: bool) -> None:
    a, b = Fraction(lo), Fraction(hi)
    mid, rad = (a + b) / 2, (b - a) / 2
    ball = arb_of(mid, rad)
    assert fits(W(claim), ball) is ok


def test_an_infinite_ball_fits_nothing() -> None:
    assert not fits(W("1"), flint.arb("inf"))
