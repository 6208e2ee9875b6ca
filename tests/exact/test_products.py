"""Tests for symattn.exact.products: P V exactly, enclosed and correctly rounded."""

from __future__ import annotations

from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.exact import MatMulTensor, RationalTensor, ReshapeTensor
from tests.exact.build import obj, softmax_of

F = Fraction


def test_weighted_sum_rational_when_groups_average_alike() -> None:
    w = softmax_of([[1, 2, 2]])
    v = RationalTensor(obj([[6], [4], [8]]))  # group {1}: 6, group {2}: mean(4, 8) = 6
    assert MatMulTensor(w, v).rational((0, 0)) == 6
    v2 = RationalTensor(obj([[6], [4], [9]]))
    assert MatMulTensor(w, v2).rational((0, 0)) is None


def mp_softmax_out(p: list[list[Fraction]], v: list[list[Fraction]]) -> list[list[mpmath.mpf]]:
    out = []
    for row in p:
        ex = [mpmath.exp(mpmath.mpf(x.numerator) / x.denominator) for x in row]
        s = mpmath.fsum(ex)
        out.append(
            [
                mpmath.fsum(
                    e / s * (mpmath.mpf(v[j][c].numerator) / v[j][c].denominator)
                    for j, e in enumerate(ex)
                )
                for c in range(len(v[0]))
            ]
        )
    return out


small = st.fractions(min_value=-20, max_value=20, max_denominator=100)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3), st.data())
def test_enclosures_contain_high_precision_value(
    n: int, s: int, c: int, data: st.DataObject
) -> None:
    p = [[data.draw(small) for _ in range(s)] for _ in range(n)]
    v = [[data.draw(small) for _ in range(c)] for _ in range(s)]
    out = MatMulTensor(softmax_of(p), RationalTensor(obj(v)))
    digits = 25
    with mpmath.workdps(2 * digits + 10):
        ref = mp_softmax_out(p, v)
        balls = out.enclose(digits)
        for i in range(n):
            for j in range(c):
                b = balls[i, j]
                assert b.width < F(1, 10**digits)
                mid = mpmath.mpf(b.mid.numerator) / b.mid.denominator
                rad = mpmath.mpf(b.radius.numerator) / b.radius.denominator
                assert abs(ref[i][j] - mid) <= rad + mpmath.mpf(10) ** (-2 * digits)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.data())
def test_to_numpy_is_correctly_rounded(n: int, s: int, data: st.DataObject) -> None:
    p = [[data.draw(small) for _ in range(s)] for _ in range(n)]
    v = [[data.draw(small)] for _ in range(s)]
    got = MatMulTensor(softmax_of(p), RationalTensor(obj(v))).to_numpy()
    with mpmath.workdps(60):
        ref = mp_softmax_out(p, v)
        for i in range(n):
            assert got[i, 0] == float(ref[i][0])


def test_reshape_gathers_entries_of_its_base() -> None:
    base = RationalTensor(obj([[1, 2, 3], [4, 5, 6]]))
    t = ReshapeTensor.of(base, lambda a: a.T)
    assert t.shape == (3, 2)
    assert t.rational((2, 1)) == 6 and t.exact().tolist() == [[1, 4], [2, 5], [3, 6]]
    assert str(t.sympy((0, 1))) == "4" and not t.is_neg_inf((0, 0))


def test_zero_coefficients_leave_an_entry_rational() -> None:
    w = softmax_of([[0, 1]])  # irrational weights
    right = RationalTensor(obj([[0, 1], [0, 2]]))
    t = MatMulTensor(w, right)
    assert t.rational((0, 0)) == 0 and t.rational((0, 1)) is None
    heads = ReshapeTensor.of(w, lambda a: a)  # not a SoftmaxTensor: the general rule
    assert MatMulTensor(heads, right).rational((0, 0)) == 0
    assert MatMulTensor(heads, right).rational((0, 1)) is None
