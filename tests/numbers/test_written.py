"""Tests for symattn.numbers.written: parsing written numbers, their written form, -inf text."""

from __future__ import annotations

import copy
import pickle
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symattn.config import Limits
from symattn.errors import LimitError, NumberError
from symattn.numbers import NEG_INF, NegInf, Written, is_neg_inf_text, parse_number, to_fraction

F = Fraction


# ---------------------------------------------------------------- parse_number


@pytest.mark.parametrize(
    ("text", "value", "kind", "decimals", "significant"),
    [
        ("0", F(0), "integer", 0, 1),
        ("5", F(5), "integer", 0, 1),
        ("-12", F(-12), "integer", 0, 2),
        ("+7", F(7), "integer", 0, 1),
        ("1200", F(1200), "integer", 0, 4),
        ("0.12", F(3, 25), "decimal", 2, 2),
        ("0.340", F(17, 50), "decimal", 3, 3),
        ("0.031", F(31, 1000), "decimal", 3, 2),
        ("12.18", F(609, 50), "decimal", 2, 4),
        ("2.5", F(5, 2), "decimal", 1, 2),
        ("-0.5", F(-1, 2), "decimal", 1, 1),
        (".5", F(1, 2), "decimal", 1, 1),
        ("5.", F(5), "decimal", 0, 1),
        ("0.00", F(0), "decimal", 2, 1),
        ("1e-3", F(1, 1000), "scientific", 3, 1),
        ("1.2e-3", F(3, 2500), "scientific", 4, 2),
        ("1.2e3", F(1200), "scientific", 0, 2),
        ("1.25E+1", F(25, 2), "scientific", 1, 3),
        ("-2.50e0", F(-5, 2), "scientific", 2, 3),
        ("3/4", F(3, 4), "fraction", None, None),
        ("-3/4", F(-3, 4), "fraction", None, None),
        ("3/-4", F(-3, 4), "fraction", None, None),
        ("-6/-8", F(3, 4), "fraction", None, None),
        ("6 / 8", F(3, 4), "fraction", None, None),
        ("  0.25  ", F(1, 4), "decimal", 2, 2),
        # fullwidth digits, point, signs; unicode minus signs; vulgar fraction
        ("１２．５", F(25, 2), "decimal", 1, 3),
        ("－３", F(-3), "integer", 0, 1),
        ("＋３／４", F(3, 4), "fraction", None, None),
        ("\u22120.5", F(-1, 2), "decimal", 1, 1),
        ("\ufe633", F(-3), "integer", 0, 1),
        ("\uff0d3", F(-3), "integer", 0, 1),
        ("1．２ｅ－３", F(3, 2500), "scientific", 4, 2),
        ("½", F(1, 2), "fraction", None, None),
    ],
)
def test_parse_number_table(
    text: str, value: Fraction, kind: str, decimals: int | None, significant: int | None
) -> None:
    w = parse_number(text)
    assert w.value == value
    assert isinstance(w.value, Fraction)
    assert w.kind == kind
    assert w.decimals == decimals
    assert w.significant == significant
    assert w.text == text.strip()
    assert str(w) == text.strip()


@pytest.mark.parametrize(
    ("text", "half"),
    [
        ("0.34", F(1, 200)),
        ("0.340", F(1, 2000)),
        ("5", F(1, 2)),
        ("1200", F(1, 2)),
        ("2.5", F(1, 20)),
        ("1.2e-3", F(1, 20000)),
        ("1.2e3", F(50)),
        ("1e3", F(500)),
        ("3/4", None),
    ],
)
def test_half_unit(text: str, half: Fraction | None) -> None:
    assert parse_number(text).half_unit == half


def test_written_is_frozen() -> None:
    w = parse_number("0.5")
    with pytest.raises(AttributeError):
        w.value = F(1)  # type: ignore[misc]  # frozen: the assignment must fail


@pytest.mark.parametrize(
    "text",
    [
        "abc",
        "1..2",
        "0x10",
        "1e",
        "e5",
        "nan",
        "NaN",
        "inf",
        "+inf",
        "-inf",
        "__import__('os')",
        "",
        "   ",
        "1,000",
        "1 000",
        "1_000",
        "1,5",
        "--1",
        "+-1",
        "1e+-3",
        "1.5/2",
        "3/",
        "/4",
        "1/2/3",
        "10²",
        "①",
        "٣",
        "1e3.5",
        "2^3",
        "√2",
    ],
)
def test_parse_number_rejects(text: str) -> None:
    with pytest.raises(NumberError) as info:
        parse_number(text, what="Q")
    message = str(info.value)
    assert repr(text.strip()) in message
    assert "(in Q)" in message


def test_parse_number_error_shows_short_excerpt() -> None:
    text = "x" * 300
    with pytest.raises(NumberError) as info:
        parse_number(text)
    assert len(str(info.value)) < 120
    assert "xxxxxxxxxx" in str(info.value)


def test_parse_number_separator_hint() -> None:
    with pytest.raises(NumberError, match="without separators"):
        parse_number("1,000")


@pytest.mark.parametrize("text", ["1/0", "-5/0", "0/0", "3/-0"])
def test_zero_denominator(text: str) -> None:
    with pytest.raises(NumberError, match="denominator 0"):
        parse_number(text)


@pytest.mark.parametrize("bad", [None, 3, 1.5, b"1"])
def test_parse_number_needs_text(bad: object) -> None:
    with pytest.raises(NumberError):
        parse_number(bad)  # type: ignore[arg-type]  # not text, on purpose


# ---------------------------------------------------------------- limits


@pytest.mark.parametrize(
    "text",
    [
        "1e999999999",
        "1e-999999999",
        "1e999999999999999999999",
        "1e401",
        "1e-401",
        "1e0000000000000000401",
    ],
)
def test_exponent_limit(text: str) -> None:
    with pytest.raises(LimitError, match="max_decimal_exponent=400"):
        parse_number(text)


@pytest.mark.parametrize("text", ["1e400", "1e-400", "1e0000000000000000400", "1e-0"])
def test_exponent_at_limit_is_fine(text: str) -> None:
    w = parse_number(text)
    assert abs(w.value) in (F(10) ** 400, F(1, 10**400), F(1))


def test_exponent_limit_can_be_raised() -> None:
    assert parse_number("1e500", limits=Limits(max_decimal_exponent=500)).value == F(10) ** 500
    with pytest.raises(LimitError):
        parse_number("1e5", limits=Limits(max_decimal_exponent=4))


def test_ten_megabyte_literal_is_a_limit_error() -> None:
    with pytest.raises(LimitError) as info:
        parse_number("9" * 10_000_000)
    assert "10000000 characters" in str(info.value)
    assert "max_literal_length=400" in str(info.value)
    assert "Limits(max_literal_length=...)" in str(info.value)


def test_literal_limit_boundary() -> None:
    assert parse_number("7" * 400).value == F(int("7" * 400))
    with pytest.raises(LimitError, match="401 characters"):
        parse_number("7" * 401)
    assert parse_number("7" * 401, limits=Limits(max_literal_length=401)).value == F(int("7" * 401))


# ---------------------------------------------------------------- hypothesis properties


@given(st.integers(min_value=-(10**30), max_value=10**30), st.integers(min_value=-40, max_value=40))
def test_decimal_text_round_trip(mantissa: int, exponent: int) -> None:
    d = Decimal(f"{mantissa}E{exponent}")
    expected = F(mantissa) * F(10) ** exponent
    assert parse_number(format(d, "f")).value == expected
    assert parse_number(format(d, "e")).value == expected
    assert to_fraction(d) == expected


@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=1000))
def test_fraction_text_round_trip(q: Fraction) -> None:
    assert parse_number(str(q)).value == q


# ---------------------------------------------------------------- NEG_INF


def test_neg_inf_singleton() -> None:
    assert isinstance(NEG_INF, NegInf)
    assert repr(NEG_INF) == "-inf"
    assert str(NEG_INF) == "-inf"
    assert pickle.loads(pickle.dumps(NEG_INF)) is NEG_INF
    assert copy.deepcopy(NEG_INF) is NEG_INF
    assert copy.copy(NEG_INF) is NEG_INF


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-inf", True),
        (" -INF ", True),
        ("\u2212inf", True),
        ("-∞", True),
        ("－∞", True),
        ("-infinity", True),
        ("inf", False),
        ("+inf", False),
        ("∞", False),
        ("-1", False),
        ("-" + "inf" * 100, False),
    ],
)
def test_is_neg_inf_text(text: str, expected: bool) -> None:
    assert is_neg_inf_text(text) is expected


def test_written_record_fields() -> None:
    w = Written(F(1, 2), "0.50", "decimal", 2, 2)
    assert w.half_unit == F(1, 200)
    assert w == parse_number("0.50")


@pytest.mark.parametrize(
    ("text", "value", "half_unit"),
    [
        ("97.3%", Fraction(973, 1000), Fraction(1, 2000)),
        ("50%", Fraction(1, 2), Fraction(1, 200)),
        ("0.25 %", Fraction(1, 400), Fraction(1, 20000)),
        ("５０％", Fraction(1, 2), Fraction(1, 200)),
    ],
)
def test_a_percentage_is_its_fraction_of_one(
    text: str, value: Fraction, half_unit: Fraction
) -> None:
    """``97.3%`` is 0.973 exactly, promising the decimals of 0.973; its text as written."""
    w = parse_number(text)
    assert (w.value, w.half_unit, w.text) == (value, half_unit, text.strip())


@pytest.mark.parametrize("text", ["1/3%", "1e-3%", "%", "5%%"])
def test_a_percentage_of_a_ratio_or_exponent_is_refused(text: str) -> None:
    with pytest.raises(NumberError):
        parse_number(text)
