"""Tests for symattn.numbers.interop: torch tensors (through a stand-in) read exactly."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy

from symattn.config import DEFAULT_LIMITS
from symattn.errors import NumberError
from symattn.numbers import NEG_INF, from_torch, is_torch, to_exact_array, to_fraction
from symattn.numbers.arrays import read_array
from symattn.numbers.interop import (
    FloatReading,
    float_reading,
    holds_floats,
    is_sympy,
    plain_array,
    reads_binary,
    sympy_fraction,
)
from tests.conftest import require_module

F = Fraction


def _fractions(arr: np.ndarray) -> list[object]:
    return arr.reshape(-1).tolist()


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


def test_is_torch_and_is_sympy_recognise_without_importing() -> None:
    assert is_torch(_FakeTensor(np.zeros(1), "torch.float32"))
    assert not is_torch(np.zeros(1)) and not is_torch(sympy.Integer(1))
    assert is_sympy(sympy.Rational(1, 3)) and not is_sympy(F(1, 3))


@pytest.mark.parametrize(
    ("x", "exact_float", "expected"),
    [
        (sympy.Rational(-3, 4), False, F(-3, 4)),
        (sympy.Float("0.1"), False, F(1, 10)),
        (sympy.Float("0.1"), True, F(0.1)),
        (sympy.Float("-2.5"), True, F(-5, 2)),
    ],
)
def test_sympy_fraction(x: object, exact_float: bool, expected: Fraction) -> None:
    assert sympy_fraction(x, exact_float, "x", DEFAULT_LIMITS) == expected


def test_torch_tensors_are_read_exactly_without_objects() -> None:
    torch = require_module("torch")

    t = torch.randn(4, 3, generator=torch.Generator().manual_seed(3))
    for dtype in (torch.bfloat16, torch.float16, torch.float32, torch.float64):
        x = t.to(dtype)
        got = read_array(x, exact_float=True)
        assert got.floats is not None and got.floats.dtype == np.float64
        assert got.floats.tolist() == x.double().tolist()  # every value exactly
    mask = torch.tensor([[0.0, float("-inf")], [0.5, 0.0]], dtype=torch.bfloat16)
    read = read_array(mask, exact_float=True, allow_neg_inf=True)
    assert read.neg_inf is not None and read.neg_inf.tolist() == [[False, True], [False, False]]


# ---------------------------------------------- how binary floats are read


@pytest.mark.parametrize(
    ("read_floats", "exact_float", "want"),
    [
        (None, None, FloatReading.AUTO),
        ("auto", None, FloatReading.AUTO),
        ("binary", None, FloatReading.BINARY),
        ("shortest", None, FloatReading.SHORTEST),
        (FloatReading.BINARY, None, FloatReading.BINARY),
        (None, True, FloatReading.BINARY),
        (None, False, FloatReading.SHORTEST),
        ("binary", True, FloatReading.BINARY),
        ("shortest", False, FloatReading.SHORTEST),
    ],
)
def test_float_reading_keywords(read_floats: object, exact_float: object, want: object) -> None:
    assert float_reading(read_floats, exact_float) is want


@pytest.mark.parametrize(
    ("read_floats", "exact_float", "match"),
    [
        ("exact", None, "read_floats must be one of"),
        (1, None, "read_floats must be one of"),
        (None, 1, "exact_float must be True or False"),
        ("binary", False, "disagree"),
        ("shortest", True, "disagree"),
        ("auto", True, "disagree"),
    ],
)
def test_float_reading_refuses(read_floats: object, exact_float: object, match: str) -> None:
    with pytest.raises(NumberError, match=match):
        float_reading(read_floats, exact_float)


@pytest.mark.parametrize(
    ("x", "binary"),
    [
        (np.zeros((2, 2), dtype=np.float32), True),
        (np.zeros((2, 2)), True),
        (np.float32(0.1), True),
        (np.float64(0.1), True),
        (np.zeros((2, 2), dtype=np.int64), False),
        (np.array([[0.1]], dtype=object), False),
        (0.1, False),
        ([[0.1, 0.2]], False),
        ("0.1", False),
    ],
)
def test_auto_reads_numpy_floats_binary_and_python_floats_shortest(x: object, binary: bool) -> None:
    assert reads_binary(x, FloatReading.AUTO) is binary
    assert reads_binary(x, FloatReading.BINARY) is True
    assert reads_binary(x, FloatReading.SHORTEST) is False


def test_auto_reads_a_torch_tensor_binary() -> None:
    t = _FakeTensor(np.array([[0.1]], dtype=np.float32), "torch.float32")
    assert reads_binary(t, FloatReading.AUTO)


@pytest.mark.parametrize(
    ("x", "holds"),
    [
        (np.zeros(2), True),
        (np.zeros(2, dtype=np.int32), False),
        ([[1, 2], [3, 0.5]], True),
        ([[1, 2], ["0.5"]], False),
        (np.array([1, 2.5], dtype=object), True),
        (np.float32(1), True),
        (Fraction(1, 2), False),
    ],
)
def test_holds_floats(x: object, holds: bool) -> None:
    assert holds_floats(x) is holds


def test_holds_floats_walks_deep_lists_without_recursion() -> None:
    deep: list[object] = [0.5]
    for _ in range(10_000):
        deep = [deep]
    assert holds_floats(deep)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_plain_array_reads_a_matrix_as_an_array() -> None:
    m = plain_array(np.matrix([[1.5, 2.0], [3.0, 4.0]]), "Q")
    assert type(m) is np.ndarray and m.shape == (2, 2)
    assert read_array(np.matrix([[1.5, 2.0]]), exact_float=True).shape == (1, 2)
    assert to_exact_array(np.matrix([[1, 2]])).tolist() == [[1, 2]]


def test_plain_array_refuses_a_masked_array_with_masked_entries() -> None:
    ma = np.ma.masked_array([[1.0, 2.0]], mask=[[False, True]])
    for read in (read_array, to_exact_array):
        with pytest.raises(NumberError, match="masked array .*attn_mask"):
            read(ma, what="Q")
    with pytest.raises(NumberError, match="masked array"):
        to_fraction(np.ma.masked_array(1.0, mask=True))


def test_plain_array_reads_a_masked_array_with_nothing_masked() -> None:
    ma = np.ma.masked_array([[1.0, 2.0]], mask=[[False, False]])
    assert type(plain_array(ma, "Q")) is np.ndarray
    assert to_exact_array(ma).tolist() == [[1, 2]]
