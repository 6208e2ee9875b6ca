"""Tests for symattn.exact.logits: scaled and masked scores in both forms."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy

from symattn.exact import LinearSurdTensor, RationalTensor, Surd, SurdTensor, inv_sqrt
from tests.exact.build import obj

F = Fraction


def test_linear_form_equals_the_explicit_parts() -> None:
    scores = RationalTensor(obj([[1, 2, F(-1, 2)]]))
    coef = inv_sqrt(2)
    masked = np.array([[False, False, True]])
    add = RationalTensor(obj([[0, F(1, 3), 0]]))
    linear = LinearSurdTensor(scores, coef, masked, add)
    explicit = SurdTensor(linear.p, linear.q, linear.r, masked)
    assert linear.r == explicit.r == 2
    assert linear.surd((0, 1)) == Surd(F(1, 3), F(1), 2) == explicit.surd((0, 1))
    assert linear.surd((0, 2)) is None and linear.is_neg_inf((0, 2))
    assert linear.sympy((0, 2)) == -sympy.oo
    assert linear.rational((0, 0)) is None
    assert [str(x) for x in linear.evalf(8)[0]] == [str(x) for x in explicit.evalf(8)[0]]


def test_rational_logits() -> None:
    t = SurdTensor(obj([[F(3, 4), 1]]), obj([[0, 2]]), 3, np.zeros((1, 2), dtype=bool))
    assert t.rational((0, 0)) == F(3, 4) and t.rational((0, 1)) is None
    assert t.to_numpy()[0, 0] == 0.75
