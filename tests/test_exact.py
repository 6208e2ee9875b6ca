from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.config import Limits
from symattn.errors import InputError, LimitError, PrecisionError
from symattn.exact.tensors import (
    Ball,
    ExpTensor,
    MatMulTensor,
    RationalTensor,
    RowSumTensor,
    SoftmaxTensor,
    Surd,
    SurdTensor,
    _squarefree_split,
    inv_sqrt,
    sqrt_surd,
)

F = Fraction


def obj(rows: list) -> np.ndarray:
    a = np.empty((len(rows), len(rows[0])), dtype=object)
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            a[i, j] = F(v)
    return a


def softmax_of(
    p_rows: list, q_rows: list | None = None, r: int = 1, masked: list | None = None
) -> SoftmaxTensor:
    p = obj(p_rows)
    q = obj(q_rows) if q_rows is not None else np.full(p.shape, F(0), dtype=object)
    m = np.array(masked, dtype=bool) if masked is not None else np.zeros(p.shape, dtype=bool)
    e = ExpTensor(SurdTensor(p, q, r, m))
    return SoftmaxTensor(e, RowSumTensor(e))


@pytest.mark.parametrize(
    ("n", "m", "r"),
    [(1, 1, 1), (2, 1, 2), (4, 2, 1), (8, 2, 2), (12, 2, 3), (72, 6, 2), (97, 1, 97)],
)
def test_squarefree_split(n: int, m: int, r: int) -> None:
    assert _squarefree_split(n) == (m, r)


def test_squarefree_split_refuses_huge() -> None:
    with pytest.raises(LimitError):
        _squarefree_split(10**30)


@pytest.mark.parametrize(
    ("n", "expr"),
    [
        (2, "sqrt(2)/2"),
        (4, "1/2"),
        (64, "1/8"),
        (F(1, 4), "2"),
        (8, "sqrt(2)/4"),
        (F(3, 2), "sqrt(6)/3"),
    ],
)
def test_inv_sqrt(n: int | Fraction, expr: str) -> None:
    s = inv_sqrt(n)
    assert (
        sympy.simplify(
            s.sympy()
            - sympy.Rational(1)
            / sympy.sqrt(
                sympy.Rational(n.numerator, n.denominator) if isinstance(n, Fraction) else n
            )
        )
        == 0
    )
    assert str(s.sympy()) == expr


@pytest.mark.parametrize("bad", [0, -1, F(-1, 2)])
def test_sqrt_of_non_positive_is_an_error(bad: int | Fraction) -> None:
    with pytest.raises(InputError):
        inv_sqrt(bad)
    with pytest.raises(InputError):
        sqrt_surd(bad)


def test_surd_normalises_rational_root() -> None:
    assert Surd(F(1), F(2), 1) == Surd(F(3))
    assert Surd(F(1), F(2), 1).is_rational


def test_ball_refuses_float_and_keeps_parts() -> None:
    b = Ball(F(1), F(3))
    assert b.mid == 2 and b.radius == 1 and b.width == 2
    assert 2 in b and 4 not in b
    with pytest.raises(TypeError, match="certified"):
        float(b)


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


def test_weighted_sum_rational_when_groups_average_alike() -> None:
    w = softmax_of([[1, 2, 2]])
    v = RationalTensor(obj([[6], [4], [8]]))  # group {1}: 6, group {2}: mean(4, 8) = 6
    assert MatMulTensor(w, v).rational((0, 0)) == 6
    v2 = RationalTensor(obj([[6], [4], [9]]))
    assert MatMulTensor(w, v2).rational((0, 0)) is None


def test_masked_entries_and_fully_masked_rows() -> None:
    w = softmax_of([[1, 2], [3, 4]], masked=[[False, True], [True, True]])
    assert w.exact().tolist() == [[F(1), F(0)], [F(0), F(0)]]
    assert w.fully_masked((1,))
    scores = w.logits
    assert scores.evalf(5)[0, 1] == Decimal("-Infinity")
    assert math.isinf(scores.to_numpy()[1, 1])


def test_precision_ceiling_is_reported() -> None:
    w = softmax_of([[0, 1]])
    with pytest.raises(PrecisionError, match="max_precision_bits"):
        w.enclose(200, limits=Limits(max_precision_bits=128))


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


def test_evalf_is_correctly_rounded_decimal() -> None:
    w = softmax_of([[0, 0]], [[5, 2]], r=2)  # seed 000 with d_k = 2, scores [5, 2] / sqrt(2)
    e = softmax_of([[0, 0]], [[F(5, 2), 1]], r=2)
    with mpmath.workdps(40):
        a, b = mpmath.exp(5 * mpmath.sqrt(2)), mpmath.exp(2 * mpmath.sqrt(2))
        assert str(w.evalf(15)[0, 0]) == mpmath.nstr(a / (a + b), 15)
        a, b = mpmath.exp(mpmath.mpf(5) / 2 * mpmath.sqrt(2)), mpmath.exp(mpmath.sqrt(2))
        assert str(e.evalf(10)[0, 0]) == mpmath.nstr(a / (a + b), 10)


def test_rational_tensor_is_read_only() -> None:
    t = RationalTensor(obj([[1, 2]]))
    with pytest.raises(ValueError):
        t.values[0, 0] = F(3)


def test_ball_from_arb_is_lazy_exact_and_read_only() -> None:
    import dataclasses

    import flint

    with flint.ctx.workprec(80):
        x = flint.arb(1) / 3
    b = Ball.from_arb(x)
    assert "lower" not in vars(b)  # bounds are built on first access
    assert b.width == 2 * b.radius and b.mid == (b.lower + b.upper) / 2
    assert b.lower < F(1, 3) < b.upper and F(1, 3) in b
    assert b == Ball(b.lower, b.upper) and hash(b) == hash(Ball(b.lower, b.upper))
    assert b.narrower_than(b.width + F(1, 10**40)) and not b.narrower_than(b.width)
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.lower = F(0)  # type: ignore[misc]
    with pytest.raises(TypeError, match="certified"):
        float(b)
    exact = Ball.from_arb(flint.arb(5) / 4)
    assert (exact.lower, exact.upper, exact.width) == (F(5, 4), F(5, 4), 0)


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
