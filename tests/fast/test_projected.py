"""Tests for symattn.fast.projected: concat(heads) @ W_O in float64 from certified heads."""

from __future__ import annotations

import numpy as np

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.exact import MatMulTensor, ReshapeTensor
from symattn.fast.problem import problem_of
from symattn.fast.projected import projected_float64


def test_projected_output_equals_the_per_entry_path() -> None:
    rng = np.random.default_rng(6)
    x = np.round(rng.uniform(-1, 1, (5, 4)), 2)
    wq, wk, wv, wo = (np.round(rng.uniform(-1, 1, (4, 4)), 2) for _ in range(4))
    wo[:, 0] = 0  # an exactly zero column: decided from tensor.rational
    out = symattn.multi_head_attention(x, wq, wk, wv, wo, num_heads=2).output
    assert isinstance(out, MatMulTensor) and isinstance(out.left, ReshapeTensor)
    heads = out.left.base
    assert isinstance(heads, MatMulTensor) and heads.attention is not None
    got = projected_float64(problem_of(heads.attention), out.left.source, out, DEFAULT_LIMITS)
    want = out.to_numpy(method="exact")
    assert np.array_equal(got, want) and not got[:, 0].any()
