"""Tests for symattn.numbers.format: the one vocabulary for writing exact values as text."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symattn.numbers import (
    compact_text,
    fixed,
    fraction_text,
    int_text,
    parse_number,
    plain,
    ratio_text,
    rounded_text,
    terminating_text,
)
from symattn.numbers.rounding import Rounding

F = Fraction


@pytest.mark.parametrize(
    ("d", "text"),
    [
        (Decimal("1E-7"), "0.0000001"),
        (Decimal("1.2E+3"), "1200"),
        (Decimal("-0.340"), "-0.340"),
        (Decimal("5"), "5"),
        (Decimal("0E-6"), "0.000000"),
    ],
)
def test_plain_never_writes_an_exponent(d: Decimal, text: str) -> None:
    assert plain(d) == text


@pytest.mark.parametrize(
    ("d", "decimals", "text"),
    [
        (Decimal("0.125"), 3, "0.125"),
        (Decimal("0.5"), 3, "0.500"),
        (Decimal("-0.001"), 2, "0.00"),
        (Decimal("-0.000"), 3, "0.000"),
        (Decimal("-0.25"), 2, "-0.25"),
        (Decimal("2"), 0, "2"),
    ],
)
def test_fixed(d: Decimal, decimals: int, text: str) -> None:
    assert fixed(d, decimals) == text


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (F(7, 20), "0.35"),
        (F(-7, 20), "-0.35"),
        (F(5), "5"),
        (F(0), "0"),
        (F(1, 1024), "0.0009765625"),
        (F(1, 3), None),
        (F(1, 6), None),
    ],
)
def test_terminating_text(x: Fraction, text: str | None) -> None:
    assert terminating_text(x) == text


@pytest.mark.parametrize(
    ("x", "text"),
    [(F(7, 20), "0.35"), (F(-1, 3), "-1/3"), (F(12), "12"), (F(2, 7), "2/7")],
)
def test_fraction_text(x: Fraction, text: str) -> None:
    assert fraction_text(x) == text


@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=1000))
def test_fraction_text_reads_back_exactly(x: Fraction) -> None:
    assert parse_number(fraction_text(x)).value == x


@pytest.mark.parametrize(
    ("x", "decimals", "mode", "text"),
    [
        (F(1, 3), 6, Rounding.HALF_EVEN, "0.333333"),
        (F(1, 2), 6, Rounding.HALF_EVEN, "0.5"),
        (F(-2, 3), 2, Rounding.HALF_EVEN, "-0.67"),
        (F(2, 3), 2, Rounding.TRUNCATE, "0.66"),
        (F(12001, 10), 0, Rounding.HALF_EVEN, "1200"),
        (F(1, 10**9), 6, Rounding.HALF_EVEN, "0"),
        (F(42), 2, Rounding.HALF_EVEN, "42"),
    ],
)
def test_rounded_text(x: Fraction, decimals: int, mode: Rounding, text: str) -> None:
    assert rounded_text(x, decimals, mode) == text


@pytest.mark.parametrize(
    ("x", "decimals", "text"),
    [
        (F(1, 3), 20, "0.33333333333333333333"),
        (F(1, 2), 20, "0.5"),
        (F(1, 10**25), 30, "1E-25"),
        (F(12001, 10), 0, "1.2E+3"),
        (F(7), 20, "7"),
    ],
)
def test_compact_text_uses_decimal_notation(x: Fraction, decimals: int, text: str) -> None:
    assert compact_text(x, decimals) == text


def test_int_and_ratio_text_of_any_size() -> None:
    """Issue 15 rows 10/11: no str(int), which Python refuses past 4300 digits."""
    n = 7**9000  # 7606 digits
    text = int_text(n)
    assert len(text) == 7606 and text.startswith("7") and int_text(-n) == "-" + text
    assert ratio_text(F(1, n)) == "1/" + text
    assert ratio_text(F(-3, 4)) == "-3/4" == str(F(-3, 4))
    assert ratio_text(F(6, 3)) == "2" == str(F(6, 3))
    assert fraction_text(F(1, 3 * n)) == "1/" + int_text(3 * n)
    assert rounded_text(F(n), 3) == text and compact_text(F(n)) == text
