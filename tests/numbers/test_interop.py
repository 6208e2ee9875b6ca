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
from symattn.numbers.interop import is_sympy, sympy_fraction
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
