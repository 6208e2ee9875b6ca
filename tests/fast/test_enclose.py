"""Tests for symattn.fast.enclose: certified balls of every output entry."""

from __future__ import annotations

import flint
import numpy as np
import pytest

import symattn
from symattn.fast import attention_enclose


@pytest.mark.parametrize(
    "exact_float", [True, False]
)  # binary: Arb matrices; decimals: fixed-point slices
@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"is_causal": True},
        {"attn_mask": np.array([[0.0, -np.inf, 0.5]] * 3)},
        {"scale": -0.5},
        {"attn_mask": np.array([[True, False, True], [False] * 3, [True] * 3])},
    ],
)
def test_enclosures_contain_the_exact_values(kw: dict, exact_float: bool) -> None:

    rng = np.random.default_rng(11)
    q, k, v = (np.round(rng.uniform(-2, 2, (3, 2)), 2) for _ in range(3))
    got = attention_enclose(q, k, v, digits=30, exact_float=exact_float, **kw)
    want = symattn.scaled_dot_product_attention(
        q, k, v, exact_float=exact_float, **kw
    ).output.enclose(45, method="exact")
    with flint.ctx.workprec(400):
        for ball, exact in zip(got.reshape(-1), want.reshape(-1), strict=True):
            assert ball.rad() < flint.arb(10) ** -30
            lo = flint.arb(flint.fmpq(exact.lower.numerator, exact.lower.denominator))
            hi = flint.arb(flint.fmpq(exact.upper.numerator, exact.upper.denominator))
            assert ball.overlaps(lo.union(hi))
            assert (ball - lo).abs_upper() < flint.arb(10) ** -29


def test_enclosures_of_fully_masked_rows_are_zero() -> None:
    q = np.ones((2, 2))
    mask = np.array([[False, False], [True, False]])
    got = attention_enclose(q, q, q, attn_mask=mask, digits=20)
    assert got[0, 0].is_zero() and got[0, 1].is_zero()


def test_empty_heads_give_empty_or_zero_outputs() -> None:
    # no keys: safe softmax gives zeros (as attention_float64 does); no queries: no rows
    no_keys = attention_enclose(np.ones((2, 2)), np.ones((0, 2)), np.ones((0, 3)), digits=10)
    assert no_keys.shape == (2, 3) and all(x.is_zero() for x in no_keys.reshape(-1))
    no_queries = attention_enclose(np.ones((0, 2)), np.ones((2, 2)), np.ones((2, 3)), digits=10)
    assert no_queries.shape == (0, 3)
