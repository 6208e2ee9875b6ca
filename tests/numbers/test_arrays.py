"""Tests for symattn.numbers.arrays: nested lists and numpy arrays as exact arrays."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import LimitError, NumberError, ShapeError
from symattn.numbers import NEG_INF, arrays, to_exact_array
from symattn.numbers.arrays import read_array

F = Fraction


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


def test_lists_of_long_numbers_are_bounded_in_all() -> None:
    # issue 15 row 20: 30-digit decimals, many of them: refused after reading, not computed with
    rows = [["0." + "7" * 30] * 8 for _ in range(8)]
    assert to_exact_array(rows, limits=Limits(max_bits=20_000)).shape == (8, 8)
    with pytest.raises(LimitError, match="max_bits"):
        to_exact_array(rows, limits=Limits(max_bits=5_000))
    with pytest.raises(LimitError, match="max_bits"):
        read_array(rows, limits=Limits(max_bits=5_000))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_read_array_reads_floats_as_to_exact_array(dtype: type) -> None:
    rng = np.random.default_rng(1)
    a = np.concatenate(
        [np.round(rng.uniform(-9, 9, 40), 2), rng.standard_normal(40), [1e-7, 3e4, 0.1, 5e-5]]
    ).astype(dtype)
    for exact_float in (False, True):
        got = read_array(a, exact_float=exact_float)
        assert got.fractions().tolist() == to_exact_array(a, exact_float=exact_float).tolist()
    neg = read_array(np.array([0.5, -np.inf], dtype=dtype), allow_neg_inf=True)
    assert neg.neg_inf is not None and neg.neg_inf.tolist() == [False, True]


# ------------------------------------------------ sharing conversions (parsed nested lists)


def test_equal_entries_share_one_fraction() -> None:
    """Entries of the shareable kinds with one value are converted once and share the result:
    a matrix of short decimals holds a pointer per entry, not an object."""
    arr = to_exact_array([[Decimal("0.5"), Decimal("0.50"), "1/2"], [F(1, 2), "0.5", 3]])
    flat = _fractions(arr)
    assert flat == [F(1, 2)] * 5 + [F(3)]
    assert flat[0] is flat[1] is flat[3]  # Decimal 0.5 == 0.50 == Fraction 1/2: one value
    assert flat[2] is not flat[0]  # text is keyed by its characters ("1/2" != "0.5")


def test_sharing_keeps_bools_and_floats_apart() -> None:
    """``True == 1`` and ``0.1 == Decimal(0.1)``: such lists are read entry by entry, so a
    boolean is still refused after an equal integer and a float still read by its repr."""
    with pytest.raises(NumberError, match=r"Q\[1\] is the boolean True"):
        to_exact_array([1, True], what="Q")
    exact = Decimal(0.1)  # the binary value of 0.1, exactly
    assert _fractions(to_exact_array([exact, 0.1])) == [F(exact), F(1, 10)]


def test_errors_name_the_entry_when_shared() -> None:
    """A conversion that fails is converted again by the walk that names the entry."""
    with pytest.raises(NumberError, match=r"Q\[1\]\[0\] is '-inf'"):
        to_exact_array([["1", "2"], ["-inf", "2"]], what="Q")
    with pytest.raises(NumberError, match=r"Q\[0\]\[1\] is NaN"):
        to_exact_array([[Decimal(1), Decimal("sNaN")]], what="Q")  # unhashable: no sharing
    assert _fractions(to_exact_array([["-inf", "1"]], allow_neg_inf=True)) == [NEG_INF, F(1)]


def test_past_max_shared_entries_are_converted_one_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Values past MAX_SHARED distinct ones are not remembered (those remembered are still
    shared); the values and the bits bound (max_bits, over all entries) are the same."""
    values = [[str(i), str(i % 3)] for i in range(40)] + [["39", "39"]]
    shared = _fractions(to_exact_array(values))
    monkeypatch.setattr(arrays, "MAX_SHARED", 8)
    capped = _fractions(to_exact_array(values))
    assert capped == shared == [F(x) for r in values for x in r]
    assert capped[2] is capped[3] and capped[-1] is not capped[-2]  # "1" shared, "39" not
    bits = sum(F(x).numerator.bit_length() + 1 for r in values for x in r)
    for cap in (8, 1 << 16):
        monkeypatch.setattr(arrays, "MAX_SHARED", cap)
        to_exact_array(values, limits=Limits(max_bits=bits))
        with pytest.raises(LimitError, match="max_bits"):
            to_exact_array(values, limits=Limits(max_bits=bits - 1))
