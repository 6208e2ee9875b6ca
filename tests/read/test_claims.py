"""Tests of symattn.read.claims: one written number against the value of its expression, as
written and with its exact ingredients."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.numbers import Written
from symattn.present.reports import message
from symattn.read.audit import audit
from symattn.read.claims import Stood
from symattn.read.evaluate import evaluate
from symattn.read.syntax import Num, parse


def written(text: str) -> Written:
    node = parse(text)
    assert isinstance(node, Num)
    return node.written


def found(text: str) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in audit(text).findings]


def test_right_both_ways_says_nothing() -> None:
    assert found("$1/4 = 0.25$\n") == []


def test_computed_more_precisely_than_written_is_no_error() -> None:
    """√2 ≈ 1.41, then 5/1.41 ≈ 3.54 (5/√2 = 3.5355…, 5/1.41 = 3.546…): 3.54 is right for √2."""
    assert found("$\\sqrt{2} \\approx 1.41$\n\n$5 / 1.41 \\approx 3.54$\n") == []


def test_right_as_written_wrong_exactly_is_propagated() -> None:
    got = found("$s = e^{2.5} \\approx 12.18$\n\n$1000 \\times s = 12180$\n")
    assert got == [("propagated-rounding", "12180")]


def test_a_rounded_root_is_an_approximate_constant() -> None:
    (f,) = audit("$\\sqrt{2} \\approx 1.41$\n\n$10 / 1.41 \\approx 7.09$\n").findings
    assert f.code == "approximate-constant" and f.cause.startswith("approximate-root")


def test_wrong_both_ways_is_the_verdict() -> None:
    assert found("$e^{1} \\approx 2.71$\n") == [("truncated", "2.71")]


def test_e_rounded_by_the_author() -> None:
    (f,) = audit("$e^{0.5} \\approx 1.6486$\n").findings
    assert (f.code, f.cause) == ("approximate-constant", "approximate-e:2.718")


def test_propagated_message_names_the_expression() -> None:
    r = audit("$s = e^{2.5} \\approx 12.18$\n\n$1000 \\times s = 12180$\n")
    (f,) = r.findings
    assert "= 1000 × s" in message(f)


def test_a_stated_number_is_found_by_its_shorter_roundings() -> None:
    stood = Stood()
    stood.add(written("0.7071"), 10, None)
    stood.add(written("0.7071"), 10, evaluate(parse("1/sqrt(2)")))  # (judged: its exact value)
    stood.add(written("0.75"), 20, None)  # a tie: both 0.7 and 0.8
    assert [e[:2] for e in stood.by_rounding[(2, Fraction("0.71"))]] == [(10, Fraction("0.7071"))]
    assert stood.by_rounding[(2, Fraction("0.71"))][0][2] is not None
    assert [e[0] for e in stood.by_rounding[(1, Fraction("0.7"))]] == [10, 20]
    assert [e[0] for e in stood.by_rounding[(1, Fraction("0.8"))]] == [20]
    node = parse("e^{0.71}")
    values = stood.alternatives(node, {}, 30, DEFAULT_LIMITS)
    assert len(values) == 2  # as stated, and exactly
    assert stood.alternatives(node, {}, 5, DEFAULT_LIMITS) == []  # stated after it: no


@pytest.mark.parametrize(
    ("text", "accused"),
    [
        # the author wrote the rounded exponent but computed with the stated 0.7071
        ("scaled score $1/\\sqrt{2} = 0.7071$, then $e^{0.71} = 2.0281$", False),
        ("$s = [0, 0.7071]$, then $e^{0.71} = 2.0281$", False),
        ("$s = [0, 0.7071]$, then $e^{0.71} = 2.0340$", False),  # as written: e^{0.71}
        ("$s = [0, 0.7071]$, then $e^{0.71} = 2.0291$", True),  # right for neither
        ("$e^{0.71} = 2.0281$", True),  # nothing stated that 0.71 stands for
        ("$e^{0.71} = 2.0281$, $s = 0.7071$", True),  # stated only after
    ],
)
def test_a_shorter_number_stands_for_the_stated_one(text: str, accused: bool) -> None:
    assert audit(text).has_errors is accused


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        # 2.7 gives 2.7^0.5 = 1.643, but the same text's e^{1.5} ≈ 4.48 is e^{1.5} rounded
        # (2.7^1.5 = 4.437): no rounded e explains the author, 1.64 is a truncation
        ("$e^{0.5} \\approx 1.64$ and $e^{1.5} \\approx 4.48$", ["truncated"]),
        # the author computed with 2.7 throughout: named for both
        (
            "$e^{0.5} \\approx 1.64$ and $e^{1.5} \\approx 4.44$",
            ["approximate-constant", "approximate-constant"],
        ),
        ("$e^{0.5} \\approx 1.64$", ["approximate-constant"]),
        # 2.718 gives both (2.718^2 = 7.3875): named
        ("$e^{0.5} \\approx 1.6486$ and $e^{2} \\approx 7.39$", ["approximate-constant"]),
    ],
)
def test_a_rounded_e_is_named_only_when_it_explains_the_other_exponentials(
    text: str, codes: list[str]
) -> None:
    assert [f.code for f in audit(text).findings] == codes


def test_a_wrong_exponential_does_not_rule_a_rounded_e_out() -> None:
    """e^{2} ≈ 7.5 is wrong with e and with 2.7: it says nothing about the constant."""
    codes = [f.code for f in audit("$e^{0.5} \\approx 1.64$ and $e^{2} \\approx 7.5$").findings]
    assert codes == ["approximate-constant", "wrong-value"]


def test_an_exact_value_shown_rounded_carries_an_ellipsis() -> None:
    """Issue 21: audit printed "exact 2.71828" for a rounded value, without the "…" that
    docs/check.md defines; a value shown in full (1/2 = 0.5) has none."""
    from symattn.read.audit import audit

    (e,) = audit("$$ e^{1} = 2.71 $$\n").findings
    assert e.exact_text.startswith("2.71828") and e.exact_text.endswith("…")
    (half,) = audit("$$ 1/2 = 0.6 $$\n").findings
    assert half.exact_text == half.exact and not half.inexact
