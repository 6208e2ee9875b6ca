"""Tests for symattn.fast.fallback: open entries decided structurally, refined row by row."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.exact import Ball, float_of
from symattn.fast.fallback import (
    ExactRow,
    RowCache,
    constant_columns,
    settle_outputs,
    settle_weights,
)
from symattn.fast.problem import Problem, prepare

F = Fraction


def _problem(q, k, v, mask=None, scale=None, exact_float=False) -> Problem:
    return prepare(q, k, v, mask, False, scale, False, exact_float, DEFAULT_LIMITS)


def test_rows_group_keys_by_equal_exact_logit() -> None:
    q = np.array([[1.0, 0.0], [0.5, 0.5]])
    k = np.array([[2.0, 1.0], [2.0, -1.0], [1.0, 0.0], [0.0, 2.0]])
    p = _problem(q, k, k)
    row = ExactRow.of(RowCache(p, ()), 0)  # scores 2, 2, 1, 0
    assert row.group.tolist() == [0, 0, 1, 2] and row.sizes.tolist() == [2, 1, 1]
    masked = _problem(q, k, k, np.array([[True, False, True, True]] * 2))
    assert ExactRow.of(RowCache(masked, ()), 0).keys.tolist() == [0, 2, 3]
    # an additive mask separates equal scores (and joins different ones) exactly
    add = _problem(q, k, k, np.array([[0.0, 0.5, 1.0, 0.0]] * 2), scale=1)
    assert ExactRow.of(RowCache(add, ()), 0).group.tolist() == [0, 1, 0, 2]  # 2, 2.5, 2, 0


def test_rational_weights_are_decided_on_their_exact_values() -> None:
    q = np.zeros((2, 2))
    p = _problem(q, q, q, np.array([[True, False], [True, True]]))
    cache = RowCache(p, ())
    assert settle_weights(cache, 0, [0, 1], float_of, 80, DEFAULT_LIMITS) == {0: 1.0, 1: 0.0}
    seen: list[Ball] = []

    def decide(b: Ball) -> Decimal | None:
        seen.append(b)
        return b.round_decimals(2)

    got = settle_weights(cache, 1, [0, 1], decide, 80, DEFAULT_LIMITS)
    assert got == {0: Decimal("0.50"), 1: Decimal("0.50")} and seen == [Ball.exact(F(1, 2))] * 2


def test_outputs_rational_by_group_means_and_irrational_refined() -> None:
    q = np.array([[1.0, 0.0], [0.0, 0.0]])
    k = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    # column 0: groups {0, 1} and {2, 3} both average 1 (rational); column 1 irrational;
    # column 2 averages to exactly 0 in both groups: an exact zero
    v = np.array([[0.5, 1.0, 1.0], [1.5, 0.0, -1.0], [1.0, 2.0, 3.0], [1.0, 0.0, -3.0]])
    p = _problem(q, k, v)
    cache = RowCache(p, ())
    seen: list[Ball] = []

    def decide(b: Ball) -> float | None:
        seen.append(b)
        return float_of(b)

    got = settle_outputs(cache, 0, [0, 1, 2], decide, 80, DEFAULT_LIMITS)
    want = symattn.scaled_dot_product_attention(q, k, v).to_numpy(method="exact")
    assert [got[c] for c in range(3)] == want[0].tolist()
    assert got[0] == 1.0 and got[2] == 0.0 and str(got[2]) == "0.0"
    assert Ball.exact(F(1)) in seen and Ball.exact(F(0)) in seen
    assert settle_outputs(cache, 1, [1], float_of, 80, DEFAULT_LIMITS) == {1: 0.75}


def test_fully_masked_rows_and_constant_columns() -> None:
    q = np.ones((2, 2))
    v = np.array([[3.0, 1.0], [3.0, 2.0]])
    p = _problem(q, q, v, np.array([[False, False], [True, False]]))
    cache = RowCache(p, ())
    assert settle_outputs(cache, 0, [0, 1], float_of, 80, DEFAULT_LIMITS) == {0: 0.0, 1: 0.0}
    assert constant_columns(p, ()) == {0: F(3)}


def test_weights_agree_with_the_engine() -> None:
    q = np.array([[0.5, -1.0], [0.25, 2.0], [1.0, 0.0]])
    p = _problem(q, q, q)
    want = symattn.scaled_dot_product_attention(q, q, q).weights.to_numpy(method="exact")
    got = settle_weights(RowCache(p, ()), 1, [0, 1, 2], float_of, 80, DEFAULT_LIMITS)
    assert [got[j] for j in range(3)] == want[1].tolist()
