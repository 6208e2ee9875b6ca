"""Tests of symattn.read.definitions: names a text defines, and names given two values."""

from __future__ import annotations

from fractions import Fraction

from symattn.config import DEFAULT_LIMITS
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.read.definitions import Definitions, same, show_value
from symattn.read.evaluate import evaluate
from symattn.read.scalar import lit
from symattn.read.syntax import parse


def test_same_compares_rationals_exactly_and_irrationals_as_formulas() -> None:
    assert same(lit(Fraction(1, 2)), evaluate(parse("2 / 4")))
    assert same(evaluate(parse("e^2")), evaluate(parse("e^{2}")))
    assert not same(evaluate(parse("e^2")), evaluate(parse("e^{2.0001}")))
    assert not same(evaluate(parse("[1, 2]")), evaluate(parse("[1, 2, 3]")))


def test_show_value() -> None:
    assert show_value(evaluate(parse("[0.5, 1/3, e]"))) == "[0.5, 1/3, …]"
    assert show_value(lit(4)) == "4"


def test_a_name_given_two_values_is_a_conflict() -> None:
    defs = Definitions(DEFAULT_ACCEPTED, DEFAULT_LIMITS)
    defs.define("d_k", lit(2), lit(2), "d_k = 2", 3, 1)
    defs.define("d_k", lit(2), lit(2), "d_k = 2", 5, 1)
    assert defs.conflicted() == {}
    defs.define("d_k", lit(4), lit(4), "d_k = 4", 9, 4)
    assert [d.line for d in defs.conflicted()["d_k"]] == [3, 9]
    assert defs.env["d_k"] == lit(4)
    (finding,) = defs.findings()
    assert (finding.code, finding.claimed, finding.exact, finding.line) == (
        "conflicting-definition",
        "d_k = 4",
        "d_k = 2",
        9,
    )
