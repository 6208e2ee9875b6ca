"""Tests for symattn.fast.weights: the weights decided in float64, batched."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.exact import inv_sqrt
from symattn.fast.problem import prepare
from symattn.fast.weights import weights_run
from tests.fast.reference import arb_weights


@pytest.mark.parametrize(("n", "causal"), [(48, False), (48, True), (130, False)])
def test_weights_fast_path_decides_random_entries_itself(n: int, causal: bool) -> None:

    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, 8)) for _ in range(3))
    p = prepare(q, k, v, None, causal, None, False, True, DEFAULT_LIMITS)
    w, fallbacks = weights_run(p, DEFAULT_LIMITS, 32)
    assert fallbacks == 0
    want = arb_weights(
        q[[0, n // 2, n - 1]],
        k,
        v,
        attn_mask=None if not causal else np.tril(np.ones((n, n), bool))[[0, n // 2, n - 1]],
    )
    assert w[[0, n // 2, n - 1]].tolist() == want.tolist()


@pytest.mark.parametrize("scale", [40, Fraction(-7, 3), inv_sqrt(2)])
def test_weights_with_tiny_and_zeroed_entries_fall_back_correctly(scale: object) -> None:

    rng = np.random.default_rng(5)
    q, k, v = (np.round(rng.uniform(-2, 2, (12, 3)), 2) for _ in range(3))
    mask = rng.random((12, 12)) < 0.8
    mask[3] = False
    p = prepare(q, k, v, mask, False, scale, False, False, DEFAULT_LIMITS)
    w, _ = weights_run(p, DEFAULT_LIMITS, 5)
    assert w[3].tolist() == [0.0] * 12
    want = arb_weights(q, k, v, attn_mask=mask, scale=scale, exact_float=False)
    assert w.tolist() == want.tolist()
    if scale == 40:  # weights far below 2**-115 relative to the row maximum are still rounded
        assert 0 < w[w > 0].min() < 1e-40
