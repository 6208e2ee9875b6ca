"""Tests of symattn.read.intervals: what arithmetic on rounded and printed numbers can be worth."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.numbers import Written
from symattn.read.intervals import (
    MAX_PRINTED,
    divisor_roots,
    overlaps,
    printed_corners,
    right_within_printed,
    root_overrides,
    rounded_interval,
    rounded_intervals,
)
from symattn.read.scalar import Op, Scalar, lit
from symattn.read.syntax import parse


def written(text: str) -> Written:
    w = parse(text)
    return w.written  # type: ignore[union-attr]


def test_a_sum_of_roundings_is_known_within_their_half_units() -> None:
    iv = rounded_interval(parse("0.4965 + 0.9930 + 3.0209"))
    assert iv == (Fraction("4.51025"), Fraction("4.51055"))
    assert overlaps(written("4.5105"), iv)
    assert not overlaps(written("4.5107"), iv)


def test_printed_numbers_have_corners_and_short_ones_none() -> None:
    # 2.828427 has 7 significant digits: a computed value printed rounded
    corners = printed_corners(parse("e^{2.828427}"))
    assert sorted(x for c in corners for x in c.values()) == [
        Fraction("2.8284265"),
        Fraction("2.8284275"),
    ]
    assert printed_corners(parse("e^{0.7071}")) == []  # 4 digits: taken as written
    assert printed_corners(parse("e^{2}")) == []
    many = " + ".join(["1.234567"] * (MAX_PRINTED + 1))
    assert printed_corners(parse(many)) == []
    assert len(printed_corners(parse("1.234567 + 2.345678"))) == 4


@pytest.mark.parametrize(
    ("expression", "claim", "right"),
    [
        # e^{2√2} = 16.9188287: its exponent prints as 2.828427, whose own exponential is
        # 16.9188266; 16.918829 is right for a value inside the printed rounding
        ("e^{2.828427}", "16.918829", True),
        ("e^{2.121320}", "8.342145", True),  # e^{3/√2} = 8.3421447
        ("e^{2.828427}", "16.918900", False),  # beyond any value the rounding allows
        ("e^{0.7071}", "2.0282", False),  # 0.7071 is no printout: nothing is widened
        ("1.414214 + 1.414214", "2.828427", True),  # 2√2 from two printed √2
    ],
)
def test_right_within_printed(expression: str, claim: str, right: bool) -> None:
    got = right_within_printed(parse(expression), written(claim), 0, {}, DEFAULT_LIMITS)
    assert got is right


def test_an_index_beyond_the_value_is_not_right() -> None:
    assert not right_within_printed(
        parse("e^{2.828427}"), written("16.918829"), 1, {}, DEFAULT_LIMITS
    )


@pytest.mark.parametrize(
    ("expression", "divisors"),
    [
        ("2/1.73", ["1.73"]),
        ("\\frac{5}{1.414}", ["1.414"]),
        ("(1 + 2) / 2.83 + 4 / 2.236", ["2.83", "2.236"]),
        ("1.73 / 2", []),  # not a divisor
        ("2 / 1.7", []),  # too few digits to tell a root from a number
        ("12.18 / 14.89", []),  # no integer has a root that rounds to 14.89
        ("2 / 2.00", []),  # √4 is exact: no rounding
    ],
)
def test_divisor_roots(expression: str, divisors: list[str]) -> None:
    assert [n.written.text for n in divisor_roots(parse(expression))] == divisors


def test_a_rounded_root_stands_for_the_root() -> None:
    node = parse("2/1.73")
    (over,) = root_overrides(node, DEFAULT_LIMITS).values()
    assert over == Scalar(Op.SQRT, (lit(3),))


def test_entries_of_arithmetic_on_roundings_are_known_within_their_half_units() -> None:
    got = rounded_intervals(parse("(2.622, 4.586)/12.82"))
    assert got is not None and len(got) == 2
    assert got[0] == (
        Fraction("2.6215") / Fraction("12.825"),
        Fraction("2.6225") / Fraction("12.815"),
    )
    assert overlaps(written("0.204"), got[0])  # 2.622/12.82 = 0.20452 as written
    # (too coarse to be widened as roundings: points)
    assert rounded_intervals(parse("0.5 * 0.6")) == [(Fraction(3, 10), Fraction(3, 10))]
    assert rounded_intervals(parse("0.335 + 0.5")) == [(Fraction("0.8345"), Fraction("0.8355"))]
    assert rounded_intervals(parse("0.335 + 0.083")) == [(Fraction("0.417"), Fraction("0.419"))]
    assert rounded_intervals(parse("[1.25, 2.50] + [1.00, 2.00, 3.00]")) is None
    assert rounded_intervals(parse("-[1.25, 2.50] * 2")) == [
        (Fraction("-2.51"), Fraction("-2.49")),
        (Fraction("-5.01"), Fraction("-4.99")),
    ]
