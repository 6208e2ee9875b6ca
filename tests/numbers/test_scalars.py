"""Tests for symattn.numbers.scalars: one number of any kind as an exact value."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symattn.errors import InputError, LimitError, NumberError
from symattn.numbers import as_written, parse_number, to_fraction

F = Fraction


# ---------------------------------------------------------------- as_written


@pytest.mark.parametrize(
    ("x", "value", "kind", "decimals", "significant", "text"),
    [
        (Decimal("0.340"), F(17, 50), "decimal", 3, 3, "0.340"),
        (Decimal("0.34"), F(17, 50), "decimal", 2, 2, "0.34"),
        (Decimal("5"), F(5), "integer", 0, 1, "5"),
        (Decimal("1E-7"), F(1, 10**7), "decimal", 7, 1, "0.0000001"),
        (Decimal("1.2E+3"), F(1200), "scientific", 0, 2, "1.2E+3"),
        (Decimal("-0.00"), F(0), "decimal", 2, 1, "-0.00"),
        (7, F(7), "integer", 0, 1, "7"),
        (-120, F(-120), "integer", 0, 3, "-120"),
        (np.int64(42), F(42), "integer", 0, 2, "42"),
        (0.1, F(1, 10), "decimal", 1, 1, "0.1"),
        (2.5, F(5, 2), "decimal", 1, 2, "2.5"),
        (1e-05, F(1, 100000), "scientific", 5, 1, "1e-05"),
        (np.float32(0.1), F(1, 10), "decimal", 1, 1, "0.1"),
        (np.float64(0.1), F(1, 10), "decimal", 1, 1, "0.1"),
        (np.float64(1e-05), F(1, 100000), "scientific", 5, 1, "1e-05"),
        (F(3, 4), F(3, 4), "fraction", None, None, "3/4"),
        ("0.340", F(17, 50), "decimal", 3, 3, "0.340"),
        (sympy.Rational(3, 4), F(3, 4), "fraction", None, None, "3/4"),
        (sympy.Integer(9), F(9), "integer", 0, 1, "9"),
    ],
)
def test_as_written(
    x: object, value: Fraction, kind: str, decimals: int | None, significant: int | None, text: str
) -> None:
    w = as_written(x)
    assert (w.value, w.kind, w.decimals, w.significant, w.text) == (
        value,
        kind,
        decimals,
        significant,
        text,
    )


def test_as_written_passes_written_through() -> None:
    w = parse_number("0.5")
    assert as_written(w) is w


@pytest.mark.parametrize(
    ("x", "error"),
    [
        (True, NumberError),
        (np.bool_(False), NumberError),
        (float("nan"), NumberError),
        (float("inf"), NumberError),
        (Decimal("NaN"), NumberError),
        (Decimal("-Infinity"), NumberError),
        (Decimal("1E+999999999"), LimitError),
        pytest.param(10**5000, LimitError, id="huge-int"),
        (None, NumberError),
        ("abc", NumberError),
    ],
)
def test_as_written_rejects(x: object, error: type[InputError]) -> None:
    with pytest.raises(error):
        as_written(x, what="claim")


# ---------------------------------------------------------------- to_fraction


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (3, F(3)),
        (-(10**50), F(-(10**50))),
        (F(-2, 6), F(-1, 3)),
        (Decimal("0.340"), F(17, 50)),
        ("1e-3", F(1, 1000)),
        ("3/4", F(3, 4)),
        (0.1, F(1, 10)),
        (1e-3, F(1, 1000)),
        (2.5, F(5, 2)),
        (1 / 3, F("0.3333333333333333")),
        (-0.0, F(0)),
        (np.int32(-4), F(-4)),
        (np.uint64(2**64 - 1), F(2**64 - 1)),
        (np.float64(0.1), F(1, 10)),
        (np.float32(0.1), F(1, 10)),
        (np.float16(0.1), F(1, 10)),
        (np.float32(1 / 3), F("0.33333334")),
        (np.array(0.25), F(1, 4)),
        (sympy.Integer(-5), F(-5)),
        (sympy.Rational(-3, 4), F(-3, 4)),
        (sympy.Float("0.1"), F(1, 10)),
        (parse_number("0.5"), F(1, 2)),
    ],
)
def test_to_fraction(x: object, expected: Fraction) -> None:
    got = to_fraction(x)
    assert type(got) is Fraction
    assert got == expected


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (0.1, F(0.1)),
        (1 / 3, F(1 / 3)),
        (np.float64(0.1), F(0.1)),
        (np.float32(0.1), F(13421773, 134217728)),
        (np.float16(0.1), F(819, 8192)),
        (sympy.Float("0.1"), F(0.1)),
        (sympy.Float("-2.5"), F(-5, 2)),
        ("0.1", F(1, 10)),  # text is exact either way
        (3, F(3)),
    ],
)
def test_to_fraction_exact_float(x: object, expected: Fraction) -> None:
    assert to_fraction(x, exact_float=True) == expected


def test_exact_float_differs_from_repr() -> None:
    assert to_fraction(0.1) != to_fraction(0.1, exact_float=True)


class _Ratio:
    """Something rational-like that is not a Fraction (like gmpy2.mpq)."""

    def __init__(self, n: int, d: int) -> None:
        self.numerator = n
        self.denominator = d


def test_to_fraction_numerator_denominator() -> None:
    assert to_fraction(_Ratio(6, -8)) == F(-3, 4)
    with pytest.raises(NumberError, match="denominator 0"):
        to_fraction(_Ratio(1, 0))


def test_to_fraction_python_flint() -> None:
    assert to_fraction(flint.fmpq(3, 4)) == F(3, 4)
    assert to_fraction(flint.fmpz(12)) == F(12)


@pytest.mark.parametrize(
    ("x", "fragment"),
    [
        (float("nan"), "is NaN; attention inputs must be finite"),
        (float("inf"), "must be finite"),
        (float("-inf"), "must be finite"),
        (np.float32("nan"), "is NaN"),
        (np.float64("inf"), "must be finite"),
        (Decimal("NaN"), "is NaN"),
        (sympy.Float("nan"), "must be finite"),
        (True, "boolean"),
        (np.bool_(True), "use it as a mask"),
        (None, "NoneType"),
        ([1, 2], "list"),
        (1 + 2j, "complex"),
        (np.complex128(1), "complex"),
        (sympy.Symbol("x"), "Symbol"),
        (sympy.sqrt(2), "Pow"),
        (sympy.oo, "Infinity"),
        (object(), "object"),
        (_Ratio(1.5, 2), "_Ratio"),  # type: ignore[arg-type]  # a float numerator, on purpose
    ],
)
def test_to_fraction_rejects(x: object, fragment: str) -> None:
    with pytest.raises(NumberError) as info:
        to_fraction(x, what="K[0][1]")
    assert "K[0][1]" in str(info.value)
    assert fragment in str(info.value)


def test_to_fraction_decimal_limits() -> None:
    with pytest.raises(LimitError):
        to_fraction(Decimal("1E+999999999"))
    with pytest.raises(LimitError):
        to_fraction(Decimal("1." + "1" * 500))


def test_sympy_float_huge_exponent_is_a_limit_error() -> None:
    huge = sympy.Float("1e100000")
    with pytest.raises(LimitError):
        to_fraction(huge, exact_float=True)
    with pytest.raises(LimitError):
        to_fraction(huge)


# ---------------------------------------------------------------- hypothesis properties


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_shortest_repr_and_exact(x: float) -> None:
    assert to_fraction(x) == Fraction(repr(x))
    assert to_fraction(x, exact_float=True) == Fraction(x)
    assert float(to_fraction(x)) == x


@given(st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_float32_shortest_repr(x: float) -> None:
    f32 = np.float32(x)
    got = to_fraction(f32)
    assert got == Fraction(str(f32))
    assert np.float32(float(got)) == f32
    assert to_fraction(f32, exact_float=True) == Fraction(x)


def test_max_bits_bounds_one_number() -> None:
    """Issue 15 row 20: a number (Fraction, int, ratio-like object, text) beyond max_bits."""
    from fractions import Fraction

    from symattn.config import Limits
    from symattn.errors import LimitError
    from symattn.numbers.scalars import total_bits

    small = Limits(max_bits=64)
    for x in (Fraction(1, 3**50), 3**50, "0." + "1" * 30, "1e-30"):
        with pytest.raises(LimitError, match="max_bits=64"):
            to_fraction(x, limits=small)
        with pytest.raises(LimitError, match="max_bits=64"):
            as_written(x, limits=small)
    assert to_fraction(Fraction(1, 3**30), limits=small) == Fraction(1, 3**30)  # 48 + 1 bits
    assert total_bits([Fraction(3, 4), Fraction(-1), "not counted"]) == (2 + 3) + (1 + 1)
