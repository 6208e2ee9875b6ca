"""Tests for symattn.exact.rational: rational stages as Fractions or scaled integers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symattn.errors import InputError
from symattn.exact import RationalTensor, ScaledIntTensor
from tests.exact.build import obj

F = Fraction


def test_rational_tensor_is_read_only() -> None:
    t = RationalTensor(obj([[1, 2]]))
    with pytest.raises(ValueError):
        t.values[0, 0] = F(3)


def test_scaled_ints_are_fractions_over_one_denominator() -> None:
    t = RationalTensor(obj([[F(1, 2), F(-1, 3)]])).as_ints
    assert isinstance(t, ScaledIntTensor) and t.den == 6 and t.as_ints is t
    assert t.values.tolist() == [[F(1, 2), F(-1, 3)]] and not t.ints.flags.writeable
    assert t.rational((0, 1)) == F(-1, 3) and str(t.sympy((0, 0))) == "1/2"
    assert t.to_numpy().tolist() == [[0.5, -1 / 3]]
    assert t.to_numpy(method="exact").tolist() == [[0.5, -1 / 3]]
    with pytest.raises(InputError, match="denominator must be positive"):
        ScaledIntTensor(np.ones(2, dtype=np.int64), 0)
