"""Tests of symattn.spec.model: the validated spec and what it needs."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.spec.model import gives_x, needed_inputs
from tests.spec.common import BASE, QT, spec


def test_spec_is_immutable() -> None:
    s = spec(QT + BASE)
    with pytest.raises(AttributeError):
        s.d_k = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.inputs["Q"] = s.inputs["K"]  # type: ignore[index]


def test_effective_scale() -> None:
    assert spec(QT + "scale = 0.5\nd_k = 3\n" + BASE).effective_scale() == Fraction(1, 2)
    assert spec(QT + BASE).effective_scale() is None


def test_needed_inputs() -> None:
    assert gives_x(["X", "Q"]) and not gives_x(["Q", "K", "V"]) and not gives_x([])
    assert needed_inputs(True) == ("X", "W_Q", "W_K", "W_V")
    assert needed_inputs(False) == ("Q", "K", "V")


def test_absent_inputs() -> None:
    s = spec('tokens = ["a"]\nmissing = ["K"]\n[inputs]\nQ = [[1]]\nV = [[1]]\n')
    assert s.absent == ("K",) and not s.computable and not s.uses_x
    x = spec(
        'tokens = ["a"]\nmissing = ["W_K", "W_O"]\n[inputs]\nX = [[1]]\nW_Q = [[1]]\nW_V = [[1]]\n'
    )
    assert x.uses_x and x.needed == ("X", "W_Q", "W_K", "W_V") and x.absent == ("W_K",)
    assert spec(QT + BASE).absent == ()
