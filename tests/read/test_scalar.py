"""Tests of symattn.read.scalar: exact Scalar trees, certified balls, double precision."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.exact import Ball
from symattn.read.evaluate import evaluate, flatten
from symattn.read.scalar import lit
from symattn.read.syntax import parse


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("e^{2.5}", "12.18249", "12.18250"),
        ("e^1", "2.71828", "2.71829"),
        ("\\sqrt{2}", "1.41421", "1.41422"),
        ("sum([e^0.092,e^0.119,e^0.086])", "3.312541", "3.312542"),
        ("2^{0.5}", "1.41421", "1.41422"),
    ],
)
def test_irrational_values_are_certified(text: str, low: str, high: str) -> None:
    (s,) = flatten(evaluate(parse(text)))
    assert s.rational() is None
    ball = Ball.from_arb(s.arb(128))
    assert Fraction(low) < ball.lower <= ball.upper < Fraction(high)


def test_e_replaced_gives_the_double_precision_sum_of_seed_001() -> None:
    (s,) = flatten(evaluate(parse("sum([e^0.092,e^0.119,e^0.086])")))
    alt = s.with_e(lit(Fraction("2.718")))
    assert (
        repr(alt.float64())
        == "3.3125069954097492"
        == repr(2.718**0.092 + 2.718**0.119 + 2.718**0.086)
    )
    assert s.uses_e and not alt.uses_e
