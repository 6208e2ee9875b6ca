"""Tests for symattn.numbers: exact parsing, written form, conversion of scalars and arrays."""

from __future__ import annotations

import copy
import pickle
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError, NumberError, ShapeError
from symattn.numbers import (
    NEG_INF,
    NegInf,
    Written,
    as_written,
    from_torch,
    is_neg_inf_text,
    parse_number,
    to_exact_array,
    to_fraction,
)

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
        w.value = F(1)  # type: ignore[misc]


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
        parse_number(bad)  # type: ignore[arg-type]


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
    import flint

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
        (_Ratio(1.5, 2), "_Ratio"),  # type: ignore[arg-type]
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


# ---------------------------------------------------------------- to_exact_array


def _fractions(arr: np.ndarray) -> list[object]:
    return arr.reshape(-1).tolist()


def test_nested_lists() -> None:
    arr = to_exact_array([[1, "0.5", 2.5], (F(1, 3), Decimal("0.25"), "3/4")], what="Q")
    assert arr.dtype == object
    assert arr.shape == (2, 3)
    assert _fractions(arr) == [F(1), F(1, 2), F(5, 2), F(1, 3), F(1, 4), F(3, 4)]
    assert all(type(v) is Fraction for v in _fractions(arr))


def test_result_is_read_only() -> None:
    arr = to_exact_array([[1, 2]])
    assert not arr.flags.writeable
    with pytest.raises(ValueError):
        arr[0, 0] = F(5)


@pytest.mark.parametrize(
    ("x", "shape"),
    [
        (3, ()),
        ("0.5", ()),
        (np.float64(0.5), ()),
        (np.array(0.5), ()),
        ([], (0,)),
        ([[], []], (2, 0)),
        ([1], (1,)),
        ([[[1], [2]]], (1, 2, 1)),
        (np.zeros((2, 3, 4)), (2, 3, 4)),
    ],
)
def test_shapes(x: object, shape: tuple[int, ...]) -> None:
    arr = to_exact_array(x)
    assert arr.shape == shape
    assert arr.dtype == object
    assert not arr.flags.writeable


def test_longdouble_uses_its_own_shortest_repr() -> None:
    from_text = np.array(["0.1", "-2.5"]).astype(np.longdouble)
    assert _fractions(to_exact_array(from_text)) == [F(1, 10), F(-5, 2)]
    # a longdouble holding the double nearest 0.1 is not 0.1 at longdouble precision
    from_double = np.array([0.1], dtype=np.longdouble)
    expected = F(1, 10) if np.finfo(np.longdouble).nmant == 52 else F(str(from_double[0]))
    assert _fractions(to_exact_array(from_double)) == [expected]
    assert _fractions(to_exact_array(from_double, exact_float=True)) == [F(0.1)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_numpy_float_arrays_shortest_repr(dtype: type) -> None:
    arr = to_exact_array(np.array([[0.1, -2.5], [0.1, 0.0]], dtype=dtype))
    assert _fractions(arr) == [F(1, 10), F(-5, 2), F(1, 10), F(0)]


@pytest.mark.parametrize(
    ("dtype", "tenth"),
    [(np.float64, F(0.1)), (np.float32, F(13421773, 134217728)), (np.float16, F(819, 8192))],
)
def test_numpy_float_arrays_exact(dtype: type, tenth: Fraction) -> None:
    arr = to_exact_array(np.array([0.1, 0.5], dtype=dtype), exact_float=True)
    assert _fractions(arr) == [tenth, F(1, 2)]


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint64])
def test_numpy_int_arrays(dtype: type) -> None:
    arr = to_exact_array(np.array([[1, 2], [3, 100]], dtype=dtype))
    assert _fractions(arr) == [F(1), F(2), F(3), F(100)]
    assert all(type(v) is Fraction for v in _fractions(arr))


def test_numpy_object_and_string_arrays() -> None:
    obj = np.array([F(1, 3), "0.5", 2], dtype=object)
    assert _fractions(to_exact_array(obj)) == [F(1, 3), F(1, 2), F(2)]
    text = np.array([["1/3", "0.25"]])
    assert _fractions(to_exact_array(text)) == [F(1, 3), F(1, 4)]


def test_list_of_numpy_rows() -> None:
    arr = to_exact_array([np.array([0.1, 0.2], dtype=np.float32), np.array([1, 2])])
    assert arr.shape == (2, 2)
    assert _fractions(arr) == [F(1, 10), F(1, 5), F(1), F(2)]


@pytest.mark.parametrize(
    ("x", "where"),
    [
        ([[1, 2], [3]], "Q[1]"),
        ([[1, 2], 3], "Q[1]"),
        ([1, [2]], "Q[1]"),
        ([[[1, 2], [3, 4]], [[1, 2], [3, 4, 5]]], "Q[1][1]"),
        (np.array([[1, 2], [3]], dtype=object), "Q[1]"),
    ],
)
def test_ragged_is_shape_error(x: object, where: str) -> None:
    with pytest.raises(ShapeError) as info:
        to_exact_array(x, what="Q")
    assert "ragged Q" in str(info.value)
    assert where in str(info.value)


def test_nesting_limit() -> None:
    deep: object = 1
    for _ in range(9):
        deep = [deep]
    with pytest.raises(LimitError, match="max_nesting=8"):
        to_exact_array(deep)
    assert to_exact_array(deep, limits=Limits(max_nesting=9)).shape == (1,) * 9
    with pytest.raises(LimitError, match="max_nesting=8"):
        to_exact_array(np.zeros((1,) * 9))


def test_element_limit() -> None:
    small = Limits(max_elements=5)
    with pytest.raises(LimitError, match="max_elements=5"):
        to_exact_array([[1, 2, 3], [4, 5, 6]], limits=small)
    with pytest.raises(LimitError, match="max_elements=5"):
        to_exact_array(np.zeros(6), limits=small)
    assert to_exact_array([1, 2, 3, 4, 5], limits=small).shape == (5,)


def test_element_limit_is_checked_before_conversion() -> None:
    n = DEFAULT_LIMITS.max_elements + 1
    big = np.zeros(n, dtype=np.int8)
    with pytest.raises(LimitError, match=f"{n} entries"):
        to_exact_array(big)


@pytest.mark.parametrize(
    ("x", "fragment"),
    [
        ([1, float("nan")], "V[1] is NaN"),
        ([[1, 2], [float("inf"), 1]], "V[1][0] is +inf"),
        ([1, float("-inf")], "V[1] is -inf"),
        (np.array([[0.0, np.nan]]), "V[0][1] is NaN"),
        (np.array([np.inf], dtype=np.float32), "V[0] is +inf"),
        (np.array([-np.inf]), "V[0] is -inf"),
        (["-inf"], "V[0]"),
        ([NEG_INF], "V[0] is -inf"),
        ([1, "abc"], "cannot read 'abc' as a number (in V[1])"),
        ([[1, True]], "V[0][1] is the boolean True"),
        (np.array([True, False]), "use it as a mask"),
        (np.array([1 + 1j]), "complex"),
        ([None], "V[0] is of type NoneType"),
        (None, "V is of type NoneType"),
    ],
)
def test_array_number_errors(x: object, fragment: str) -> None:
    with pytest.raises(NumberError) as info:
        to_exact_array(x, what="V")
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "minus_inf",
    [float("-inf"), "-inf", "\u2212inf", "-∞", np.float64("-inf"), np.float32("-inf"), NEG_INF],
)
def test_neg_inf_allowed_in_lists(minus_inf: object) -> None:
    arr = to_exact_array([[0, minus_inf], ["0.5", 1]], allow_neg_inf=True, what="mask")
    assert arr[0, 1] is NEG_INF
    assert _fractions(arr) == [F(0), NEG_INF, F(1, 2), F(1)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_neg_inf_allowed_in_arrays(dtype: type) -> None:
    arr = to_exact_array(
        np.array([[0.0, -np.inf], [-np.inf, 0.1]], dtype=dtype), allow_neg_inf=True
    )
    assert _fractions(arr) == [F(0), NEG_INF, NEG_INF, F(1, 10)]
    all_masked = to_exact_array(np.full(3, -np.inf), allow_neg_inf=True)
    assert _fractions(all_masked) == [NEG_INF] * 3


@pytest.mark.parametrize("bad", [float("inf"), float("nan"), "inf", "nan"])
def test_pos_inf_and_nan_never_allowed(bad: object) -> None:
    with pytest.raises(NumberError):
        to_exact_array([0, bad], allow_neg_inf=True)
    with pytest.raises(NumberError):
        to_exact_array(np.array([0.0, float(bad)]), allow_neg_inf=True)


def test_array_exact_float_lists() -> None:
    arr = to_exact_array([0.1, np.float32(0.1)], exact_float=True)
    assert _fractions(arr) == [F(0.1), F(13421773, 134217728)]


def test_array_strings_are_limited() -> None:
    with pytest.raises(LimitError):
        to_exact_array([["1e999999999"]])


# ---------------------------------------------- torch (a stand-in: torch is not installed)


class _FakeTensor:
    """The part of torch.Tensor symattn uses; bfloat16 refuses .numpy() as torch does."""

    def __init__(self, data: np.ndarray, dtype: str, device: str = "cuda:0") -> None:
        self._data = data
        self.dtype = dtype
        self.device = device
        self.detached = False

    def detach(self) -> _FakeTensor:
        t = _FakeTensor(self._data, self.dtype, self.device)
        t.detached = True
        return t

    def cpu(self) -> _FakeTensor:
        t = _FakeTensor(self._data, self.dtype, "cpu")
        t.detached = self.detached
        return t

    def float(self) -> _FakeTensor:
        t = _FakeTensor(self._data.astype(np.float32), "torch.float32", self.device)
        t.detached = self.detached
        return t

    def numpy(self) -> np.ndarray:
        if not self.detached or self.device != "cpu":
            raise RuntimeError("call .detach().cpu() first")
        if self.dtype == "torch.bfloat16":
            raise TypeError("Got unsupported ScalarType BFloat16")
        return self._data


_FakeTensor.__module__ = "torch"


def test_from_torch_float32() -> None:
    t = _FakeTensor(np.array([[0.1, 0.5]], dtype=np.float32), "torch.float32")
    arr = from_torch(t)
    assert arr.dtype == np.float32
    assert _fractions(to_exact_array(t)) == [F(1, 10), F(1, 2)]


def test_from_torch_bfloat16_goes_through_float() -> None:
    # 0.1 in bfloat16 is 0.10009765625; held here as the float32 that .float() gives exactly
    t = _FakeTensor(np.array([0.10009765625, -2.0], dtype=np.float32), "torch.bfloat16")
    assert from_torch(t).dtype == np.float32
    assert _fractions(to_exact_array(t, exact_float=True)) == [F(205, 2048), F(-2)]


def test_torch_tensor_with_neg_inf_and_scalar() -> None:
    t = _FakeTensor(np.array([0.0, -np.inf]), "torch.float64")
    assert _fractions(to_exact_array(t, allow_neg_inf=True)) == [F(0), NEG_INF]
    scalar = _FakeTensor(np.array(0.25, dtype=np.float32), "torch.float32")
    assert to_fraction(scalar) == F(1, 4)
    with pytest.raises(NumberError, match="tensor of shape"):
        to_fraction(t)


def test_torch_bool_tensor_is_not_numbers() -> None:
    t = _FakeTensor(np.array([True, False]), "torch.bool")
    with pytest.raises(NumberError, match="mask"):
        to_exact_array(t)


def test_written_record_fields() -> None:
    w = Written(F(1, 2), "0.50", "decimal", 2, 2)
    assert w.half_unit == F(1, 200)
    assert w == parse_number("0.50")
