"""Tests of symattn.present.numbers: how a document writes exact and rounded numbers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from symattn.exact import Surd
from symattn.present.numbers import (
    dot_terms,
    fixed,
    inline_rational,
    is_plain_decimal,
    is_short_decimal,
    paren,
    rational_latex,
    short_surd_latex,
    surd_latex,
    vector_latex,
)


@pytest.mark.parametrize(
    ("value", "latex"),
    [
        (Fraction(5), "5"),
        (Fraction(5, 2), "2.5"),
        (Fraction(-7, 20), "-0.35"),
        (Fraction(1, 3), r"\frac{1}{3}"),
        (Fraction(-2, 7), r"-\frac{2}{7}"),
    ],
)
def test_rational_latex(value: Fraction, latex: str) -> None:
    assert rational_latex(value) == latex


@pytest.mark.parametrize(
    ("surd", "latex"),
    [
        (Surd(Fraction(0), Fraction(1), 2), r"\sqrt{2}"),
        (Surd(Fraction(0), Fraction(5, 2), 2), r"\frac{5\sqrt{2}}{2}"),
        (Surd(Fraction(0), Fraction(-1, 2), 3), r"-\frac{\sqrt{3}}{2}"),
        (Surd(Fraction(0), Fraction(2593, 40000), 2), None),
        (Surd(Fraction(5, 2)), "2.5"),
    ],
)
def test_short_surd_latex(surd: Surd, latex: str | None) -> None:
    assert short_surd_latex(surd) == latex


@pytest.mark.parametrize(
    ("value", "short"),
    [
        (Fraction(5, 2), True),
        (Fraction(123456789, 1000), False),  # nine significant digits
        (Fraction(1, 3), False),  # short, but not a finite decimal
    ],
)
def test_is_short_decimal(value: Fraction, short: bool) -> None:
    assert is_short_decimal(value) is short


def test_is_plain_decimal() -> None:
    assert is_plain_decimal(Surd(Fraction(5, 2)))
    assert not is_plain_decimal(Surd(Fraction(0), Fraction(1), 2))
    assert not is_plain_decimal(None)


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [
        (Decimal("0.0900"), 4, "0.0900"),
        (Decimal("-0.0000"), 4, "0.0000"),  # never a negative zero
        (Decimal("-1.5"), 1, "-1.5"),
        (Decimal("3"), 0, "3"),
    ],
)
def test_fixed(value: Decimal, decimals: int, text: str) -> None:
    assert fixed(value, decimals) == text


def test_dot_terms_parenthesise_negative_factors() -> None:
    factors, products = dot_terms([Fraction(1), Fraction(-2)], [Fraction(3), Fraction(1, 2)])
    assert factors == [r"1 \times 3", r"(-2) \times 0.5"]
    assert products == ["3", "-1"]
    assert paren("-1") == "(-1)" and paren("1") == "1"


def test_dot_terms_need_vectors_of_one_length() -> None:
    with pytest.raises(ValueError):
        dot_terms([Fraction(1)], [Fraction(1), Fraction(2)])


def test_vector_latex() -> None:
    assert vector_latex(["1", "2"]) == r"\left[1,\ 2\right]"


@pytest.mark.parametrize(
    ("surd", "latex"),
    [
        (Surd(Fraction(1, 2), Fraction(3, 4), 2), r"0.5 + \frac{3\sqrt{2}}{4}"),
        (Surd(Fraction(1), Fraction(-1), 3), r"1 - \sqrt{3}"),
        (Surd(Fraction(0), Fraction(-1234), 5), r"-1234\sqrt{5}"),
        (Surd(Fraction(1, 3)), r"\frac{1}{3}"),
    ],
)
def test_surd_latex_writes_any_surd(surd: Surd, latex: str) -> None:
    assert surd_latex(surd) == latex


def test_inline_rational_is_flat() -> None:
    assert inline_rational(Fraction(-1, 3)) == "-1/3"
    assert inline_rational(Fraction(3, 4)) == "0.75"
