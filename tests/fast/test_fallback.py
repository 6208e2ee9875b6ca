"""Tests for symattn.fast.fallback: the per-entry path for what the batched paths leave open."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.exact import Ball, float_of
from symattn.fast.fallback import certify_row_entries, entry_tensor, fallback, row_weights
from symattn.fast.problem import Problem, prepare

F = Fraction


def _problem(q: np.ndarray, mask: np.ndarray | None = None) -> Problem:
    return prepare(q, q, q, mask, False, None, False, False, DEFAULT_LIMITS)


def test_rational_rows_are_decided_on_their_exact_values() -> None:
    q = np.zeros((2, 2))
    p = _problem(q, np.array([[True, False], [True, True]]))
    assert certify_row_entries(row_weights(p, (), 0), [0, 1], float_of, 80, DEFAULT_LIMITS) == {
        0: 1.0,
        1: 0.0,
    }
    seen: list[Ball] = []

    def decide(b: Ball) -> Decimal | None:
        seen.append(b)
        return b.round_decimals(2)

    got = certify_row_entries(row_weights(p, (), 1), [0, 1], decide, 80, DEFAULT_LIMITS)
    assert got == {0: Decimal("0.50"), 1: Decimal("0.50")}
    assert seen == [Ball.exact(F(1, 2))] * 2


def test_entries_agree_with_the_engine() -> None:
    q = np.array([[0.5, -1.0], [0.25, 2.0], [1.0, 0.0]])
    p = _problem(q)
    want = symattn.scaled_dot_product_attention(q, q, q)
    assert fallback(p, (), 1, 0, DEFAULT_LIMITS) == want.to_numpy(method="exact")[1, 0]
    assert entry_tensor(p, (), 2, 1).exact()[0, 0] == want.output.exact()[2, 1]
    weights = certify_row_entries(row_weights(p, (), 0), [0, 1, 2], float_of, 80, DEFAULT_LIMITS)
    assert [weights[j] for j in range(3)] == want.weights.to_numpy(method="exact")[0].tolist()
