from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symattn.numbers.rounding import (
    Rounding,
    decimal_exponent,
    int_to_decimal,
    is_tie,
    round_decimals,
    round_significant,
    round_to_int,
    scaled_decimal,
    terminating_decimal,
)

F = Fraction


@pytest.mark.parametrize(
    ("x", "mode", "expected"),
    [
        (F(5, 2), Rounding.HALF_UP, 3),
        (F(5, 2), Rounding.HALF_DOWN, 2),
        (F(5, 2), Rounding.HALF_EVEN, 2),
        (F(7, 2), Rounding.HALF_EVEN, 4),
        (F(-5, 2), Rounding.HALF_UP, -3),
        (F(-5, 2), Rounding.HALF_DOWN, -2),
        (F(29, 10), Rounding.TRUNCATE, 2),
        (F(-29, 10), Rounding.TRUNCATE, -2),
        (F(26, 10), Rounding.HALF_DOWN, 3),
        (F(24, 10), Rounding.HALF_UP, 2),
    ],
)
def test_round_to_int(x: Fraction, mode: Rounding, expected: int) -> None:
    assert round_to_int(x, mode) == expected


@pytest.mark.parametrize(
    ("x", "decimals", "mode", "expected"),
    [
        (F(2718281828, 10**9), 2, Rounding.HALF_EVEN, "2.72"),
        (F(2718281828, 10**9), 2, Rounding.TRUNCATE, "2.71"),
        (F(1, 8), 2, Rounding.HALF_UP, "0.13"),
        (F(1, 8), 2, Rounding.HALF_EVEN, "0.12"),
        (F(31859, 10**6), 3, Rounding.HALF_UP, "0.032"),
        (F(1234), -2, Rounding.HALF_UP, "1.2E+3"),
        (F(-1, 3), 4, Rounding.HALF_EVEN, "-0.3333"),
    ],
)
def test_round_decimals(x: Fraction, decimals: int, mode: Rounding, expected: str) -> None:
    assert round_decimals(x, decimals, mode) == Decimal(expected)
    assert str(round_decimals(x, decimals, mode)) == expected


@pytest.mark.parametrize(
    ("x", "digits", "expected"),
    [
        (F(1, 3), 3, "0.333"),
        (F(999, 100), 2, "10"),
        (F(12140836, 10**6), 4, "12.14"),
        (F(0), 5, "0"),
        (F(-2, 3), 2, "-0.67"),
        (F(1, 10**20), 2, "1.0E-20"),
    ],
)
def test_round_significant(x: Fraction, digits: int, expected: str) -> None:
    assert round_significant(x, digits) == Decimal(expected)


def test_round_significant_carry_keeps_digit_count() -> None:
    r = round_significant(F(9999, 1000), 3)
    assert r == 10 and len(r.as_tuple().digits) == 3


@pytest.mark.parametrize(
    ("x", "e"), [(F(1), 0), (F(999, 1000), -1), (F(10), 1), (F(1, 10), -1), (F(-123), 2)]
)
def test_decimal_exponent(x: Fraction, e: int) -> None:
    assert decimal_exponent(x) == e


def test_is_tie() -> None:
    assert is_tie(F(1, 8), 2)
    assert not is_tie(F(1, 8), 3)
    assert not is_tie(F(1, 3), 2)


def test_parse_mode() -> None:
    assert Rounding.parse("half-up") is Rounding.HALF_UP
    with pytest.raises(ValueError, match="half-even"):
        Rounding.parse("nearest")


@given(st.fractions(max_denominator=10**6), st.integers(min_value=0, max_value=8))
def test_rounding_is_within_half_unit(x: Fraction, decimals: int) -> None:
    unit = F(1, 10**decimals)
    for mode in (Rounding.HALF_UP, Rounding.HALF_DOWN, Rounding.HALF_EVEN):
        assert abs(F(round_decimals(x, decimals, mode)) - x) <= unit / 2
    t = F(round_decimals(x, decimals, Rounding.TRUNCATE))
    assert abs(t) <= abs(x) and abs(x - t) < unit


@given(
    st.fractions(max_denominator=10**6).filter(lambda f: f != 0),
    st.integers(min_value=1, max_value=12),
)
def test_significant_matches_decimal_module(x: Fraction, digits: int) -> None:
    from decimal import ROUND_HALF_EVEN, localcontext

    with localcontext() as ctx:
        ctx.prec = 200
        exact = Decimal(x.numerator) / Decimal(x.denominator)
        ctx.prec = digits
        ctx.rounding = ROUND_HALF_EVEN
        expected = +exact
    # with denominators <= 1e6 a 200-digit quotient cannot land on a tie the exact value misses
    assert round_significant(x, digits) == expected


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (F(5), "5"),
        (F(-7, 20), "-0.35"),
        (F(1, 8), "0.125"),
        (F(1, 3), None),
        (F(3, 1024), "0.0029296875"),
    ],
)
def test_terminating_decimal(x: Fraction, text: str | None) -> None:
    d = terminating_decimal(x)
    assert (None if d is None else f"{d:f}") == text
    if d is not None:
        assert Fraction(d) == x


@given(st.fractions(max_denominator=10**30).filter(lambda f: f != 0))
def test_decimal_exponent_matches_definition(x: Fraction) -> None:
    e = decimal_exponent(x)
    assert Fraction(10) ** e <= abs(x) < Fraction(10) ** (e + 1)


def test_decimal_exponent_of_huge_numbers_needs_no_decimal_string() -> None:
    big = Fraction(
        3 * 10**20000 + 1, 7
    )  # str() of the numerator would exceed Python's 4300-digit limit
    assert decimal_exponent(big) == 19999
    assert decimal_exponent(1 / big) == -20000


@contextlib.contextmanager
def _unlimited_str_digits() -> Iterator[None]:
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


@given(st.integers(min_value=-(2**20000), max_value=2**20000))
def test_int_to_decimal_is_exact(n: int) -> None:
    with _unlimited_str_digits():
        expected = Decimal(str(n))
    got = int_to_decimal(n)
    assert got == expected and got.as_tuple() == expected.as_tuple()


@pytest.mark.parametrize("bits", [2049, 14_300, 100_000, 262_144])
def test_int_to_decimal_of_huge_integers(bits: int) -> None:
    """Issue 15 rows 10/11: integers past Python's 4300-digit str() limit, in milliseconds."""
    n = 3 ** int(bits / 1.585) + 1
    t0 = time.process_time()
    d = int_to_decimal(-n)
    assert time.process_time() - t0 < 2.0
    assert d < 0 and Fraction(d) == -n


@pytest.mark.parametrize("mode", list(Rounding))
def test_round_decimals_of_values_past_int_max_str_digits(mode: Rounding) -> None:
    """Issue 15 rows 10/11: e^10000 (4343 digits) once raised ValueError in round_decimals."""
    x = F(3**20000 * 7 + 5, 7)  # 9543 digits before the point, 5/7 after
    d = round_decimals(x, 2, mode)
    assert Fraction(d) == 3**20000 + F(71, 100)  # 5/7 = 0.714285... is 0.71 in every mode
    assert round_decimals(-x, -3, mode) == scaled_decimal(-round_to_int(x / 1000, mode), 3)
    assert round_significant(x, 5, mode) == round_decimals(x, 5 - 1 - decimal_exponent(x), mode)
    assert is_tie(F(3**20000 * 2 + 1, 2), 0)


def test_scaled_decimal_keeps_the_coefficient() -> None:
    assert str(scaled_decimal(12, 2)) == "1.2E+3" == str(Decimal("12e2"))
    assert scaled_decimal(0, -2).as_tuple() == Decimal("0e-2").as_tuple()
    assert scaled_decimal(-5, -1) == Decimal("-0.5")


@given(
    st.fractions(max_denominator=10**12),
    st.integers(min_value=-8, max_value=20),
    st.sampled_from(list(Rounding)),
)
def test_round_decimals_is_round_to_int_of_the_scaled_fraction(
    x: Fraction, decimals: int, mode: Rounding
) -> None:
    """The integer-only scaling gives what rounding ``x * 10**decimals`` gives."""
    expected = round_to_int(x * F(10) ** decimals, mode)
    got = round_decimals(x, decimals, mode)
    assert F(got) == expected * F(10) ** -decimals
    assert got.as_tuple().exponent == -decimals
