"""Tests of symattn.read.scalar: exact Scalar trees, certified balls, double precision."""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import pytest

from symattn.exact import Ball
from symattn.read.evaluate import evaluate, flatten
from symattn.read.scalar import E, Fold, Op, Scalar, lit
from symattn.read.syntax import parse
from symattn.read.tokens import ExprError


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


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("e^{\\ln 2}", "2"),
        ("\\exp(\\ln 3)", "3"),
        ("e^{-\\ln 4}", "1/4"),
        ("e^{2\\ln 2 - \\ln 3}", "4/3"),
        ("e^{\\ln 9 / 2}", "3"),
        ("\\ln 1", "0"),
        ("\\ln e", "1"),
        ("\\ln(e^{3})", "3"),
        ("log(1)", "0"),
    ],
)
def test_exponentials_of_logarithms_are_exact(text: str, value: str) -> None:
    (s,) = flatten(evaluate(parse(text)))
    assert s.rational() == Fraction(value)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("\\ln 2", "0.693147", "0.693148"),
        ("log 2", "0.693147", "0.693148"),
        ("e^{\\ln 2 / 2}", "1.414213", "1.414214"),
        ("e^{1 + \\ln 2}", "5.436563", "5.436564"),
    ],
)
def test_logarithms_of_rationals_are_certified(text: str, low: str, high: str) -> None:
    (s,) = flatten(evaluate(parse(text)))
    assert s.rational() is None
    ball = Ball.from_arb(s.arb(128))
    assert Fraction(low) < ball.lower <= ball.upper < Fraction(high)
    assert abs((s.float64() or 0) - float(Fraction(low))) < 1e-5


@pytest.mark.parametrize("text", ["\\ln 0", "\\ln(-2)"])
def test_the_logarithm_of_a_number_not_positive_is_no_value(text: str) -> None:
    with pytest.raises(ExprError):
        flatten(evaluate(parse(text)))[0].arb(64)


def test_a_product_folds_left_to_right_with_each_items_fold() -> None:
    # 3 / 4 * 2 as written: (3 / 4) * 2, not 3 / (4 * 2)
    s = Scalar(Op.PROD, (lit(3), lit(4), lit(2)), ops=(Fold.MUL, Fold.DIV, Fold.MUL))
    assert s.rational() == Fraction(3, 2)
    assert s.float64() == 1.5
    with pytest.raises(ExprError):
        Scalar(Op.PROD, (lit(1), lit(0)), ops=(Fold.MUL, Fold.DIV)).rational()


class _Five:
    """An outside quantity worth 5 (an entry of the problem behind a text)."""

    def rational(self) -> Fraction | None:
        return Fraction(5)

    def arb(self, prec: int) -> flint.arb:
        return flint.arb(5)


#: one node of each kind and the value it stands for
_NODES: dict[Op, tuple[Scalar, float]] = {
    Op.LIT: (lit(Fraction(7, 4)), 1.75),
    Op.E: (E, math.e),
    Op.NEG: (Scalar(Op.NEG, (lit(2),)), -2.0),
    Op.SUM: (Scalar(Op.SUM, (lit(1), lit(2), E)), 3 + math.e),
    Op.PROD: (Scalar(Op.PROD, (lit(3), E), ops=(Fold.MUL, Fold.DIV)), 3 / math.e),
    Op.POW: (Scalar(Op.POW, (lit(2), lit(Fraction(1, 2)))), math.sqrt(2)),
    Op.EXP: (Scalar(Op.EXP, (lit(1),)), math.e),
    Op.SQRT: (Scalar(Op.SQRT, (lit(3),)), math.sqrt(3)),
    Op.LN: (Scalar(Op.LN, (lit(2),)), math.log(2)),
    Op.EXT: (Scalar(Op.EXT, ext=_Five()), 5.0),
}


@pytest.mark.parametrize("op", list(Op))
def test_every_node_kind_has_a_certified_ball_and_a_double(op: Op) -> None:
    s, expected = _NODES[op]
    assert s.op is op
    ball = Ball.from_arb(s.arb(128))
    assert ball.lower <= Fraction(expected) + Fraction(1, 10**12)
    assert ball.upper >= Fraction(expected) - Fraction(1, 10**12)
    assert ball.upper - ball.lower < Fraction(1, 10**30)
    assert s.float64() == pytest.approx(expected, rel=1e-15)
