"""Tests for symattn.exact.softmax: exact weights, rational rows, certified rounding."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
import sympy

from symattn.errors import LimitError
from tests.exact.build import softmax_of

F = Fraction


def test_softmax_rows_sum_to_exactly_one_symbolically() -> None:
    w = softmax_of([[0, 0, 0]], [[5, 1, F(-3, 7)]], r=2)
    total = sum(w.sympy((0, j)) for j in range(3))
    assert sympy.simplify(total) == 1


def test_equal_scores_give_exact_rational_weights() -> None:
    w = softmax_of([[3, 3, 3, 3]])
    assert w.exact().tolist() == [[F(1, 4)] * 4]
    # 1/8 is a tie at two decimals: decided exactly, not refined forever
    w8 = softmax_of([[1] * 8])
    assert w8.round(2).tolist()[0][0] == Decimal("0.12")


def test_masked_entries_and_fully_masked_rows() -> None:
    w = softmax_of([[1, 2], [3, 4]], masked=[[False, True], [True, True]])
    assert w.exact().tolist() == [[F(1), F(0)], [F(0), F(0)]]
    assert w.fully_masked((1,))
    scores = w.logits
    assert scores.evalf(5)[0, 1] == Decimal("-Infinity")
    assert math.isinf(scores.to_numpy()[1, 1])


def test_evalf_is_correctly_rounded_decimal() -> None:
    w = softmax_of([[0, 0]], [[5, 2]], r=2)  # seed 000 with d_k = 2, scores [5, 2] / sqrt(2)
    e = softmax_of([[0, 0]], [[F(5, 2), 1]], r=2)
    with mpmath.workdps(40):
        a, b = mpmath.exp(5 * mpmath.sqrt(2)), mpmath.exp(2 * mpmath.sqrt(2))
        assert str(w.evalf(15)[0, 0]) == mpmath.nstr(a / (a + b), 15)
        a, b = mpmath.exp(mpmath.mpf(5) / 2 * mpmath.sqrt(2)), mpmath.exp(mpmath.sqrt(2))
        assert str(e.evalf(10)[0, 0]) == mpmath.nstr(a / (a + b), 10)


def test_astronomical_values_are_decided_without_huge_fractions() -> None:
    # scores of about 8.7e9: e^x and the smaller weight are about 2^(±1.26e10)
    w = softmax_of([[0, 0]], [[F(12345678905, 2), 1]], r=2)
    assert w.to_numpy().tolist() == [[1.0, 0.0]]
    assert [str(x) for x in w.round(4)[0]] == ["1.0000", "0.0000"]
    small = w.enclose(20)[0, 1]
    assert small.lower == 0 and small.width < F(1, 10**20)
    with pytest.raises(LimitError, match="beyond the range"):
        w.evalf(5)
    assert math.isinf(w.terms.to_numpy()[0, 0])


def test_rational_rows() -> None:
    w = softmax_of([[2, 2, 5], [1, 1, 1]], masked=[[False, False, True], [True, True, True]])
    assert w.rational_row((0,)) == F(1, 2) and w.rational_row((1,)) == 0
    assert softmax_of([[0, 1]]).rational_row((0,)) is None
    assert w.terms.rational((0, 2)) == 0 and w.sums.rational((0,)) is None
    assert softmax_of([[0, 0]]).sums.rational((0,)) == 2
