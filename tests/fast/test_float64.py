"""The fast float64 path agrees with the pure Arb path on correctly rounded output."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symattn
from symattn.exact import inv_sqrt
from symattn.fast import attention_float64
from symattn.fast.sliced import from_float
from tests.fast.reference import (
    arb_reference,
    correctly_rounded,
    fallbacks,
    flint_outputs,
    random_inputs,
    same,
)

# every test twice: the fused kernels (numba) and the numpy path (tests/fast/conftest.py)
pytestmark = pytest.mark.usefixtures("both_paths")


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_random_inputs_agree(seed: int, dtype: type) -> None:
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((5, 3)).astype(dtype) for _ in range(3))
    assert same(attention_float64(q, k, v), arb_reference(q, k, v))


@pytest.mark.parametrize("seed", range(3))
def test_two_decimal_inputs_shortest_repr(seed: int) -> None:
    rng = np.random.default_rng(seed)
    q, k, v = (np.round(rng.uniform(-1, 1, (6, 4)), 2) for _ in range(3))
    want = symattn.scaled_dot_product_attention(q, k, v, read_floats="shortest").to_numpy(
        method="exact"
    )
    assert same(attention_float64(q, k, v, exact_float=False), want)


@pytest.mark.parametrize("n", [8, 40])
def test_fast_path_decides_random_entries_itself(n: int) -> None:
    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, 8)) for _ in range(3))
    assert fallbacks(q, k, v) == 0
    assert fallbacks(q, k, v, is_causal=True) == 0


def test_fraction_inputs() -> None:
    q = [[Fraction(1, 3), Fraction(2, 7)], [Fraction(-5, 11), Fraction(1)]]
    k = [[Fraction(1, 10), 2], [3, Fraction(-1, 9)], [0, 1]]
    v = [[1, 2], [3, Fraction(1, 3)], [Fraction(-7, 5), 0]]
    want = symattn.scaled_dot_product_attention(q, k, v).to_numpy(method="exact")
    assert same(attention_float64(q, k, v, exact_float=False), want)


@pytest.mark.parametrize("big", [1000.0, -1000.0, 300.5])
def test_large_score_ranges(big: float) -> None:
    q = np.array([[big], [1.0], [-big]])
    k = np.array([[1.0], [-1.0], [0.5], [0.999]])
    v = np.array([[1.0, -2.0], [3.0, 0.25], [-1.5, 7.0], [2.0, 2.0]])
    out = attention_float64(q, k, v, scale=1)
    assert same(out, arb_reference(q, k, v, scale=1))


def test_exact_ties_are_decided_exactly() -> None:
    # equal scores: the output is the mean of V, here exactly halfway between two doubles
    a = 1.0
    b = float(np.nextafter(1.0, 2.0))
    q = np.zeros((1, 2))
    k = np.zeros((2, 2))
    v = np.array([[a], [b]])
    out = attention_float64(q, k, v)
    assert fallbacks(q, k, v) == 1  # the bound cannot decide a tie: the exact path does
    assert out[0, 0] == a  # ties to even: 1.0 has the even mantissa
    assert same(out, arb_reference(q, k, v))


def test_near_tie_above_midpoint_rounds_up() -> None:
    a = 1.0
    b = float(np.nextafter(1.0, 2.0))
    q = np.array([[1.0, 0.0]])
    k = np.array([[0.0, 0.0], [0.0, 0.0], [2.0**-40, 0.0]])
    # two keys average exactly to the midpoint; the third lifts it by about 2**-80
    mid = (Fraction(a) + Fraction(b)) / 2
    v = np.array([[a], [b], [float(mid + Fraction(1, 2**52))]])
    out = attention_float64(q, k, v, scale=1)
    assert same(out, arb_reference(q, k, v, scale=1))


def test_fully_masked_rows_are_zero() -> None:
    rng = np.random.default_rng(7)
    q, k, v = (rng.standard_normal((3, 4)) for _ in range(3))
    mask = np.array([[True, False, True], [False, False, False], [True, True, True]])
    out = attention_float64(q, k, v, attn_mask=mask)
    assert np.all(out[1] == 0)
    assert same(out, arb_reference(q, k, v, attn_mask=mask))


def test_additive_mask_with_values_and_neg_inf() -> None:
    rng = np.random.default_rng(8)
    q, k, v = (rng.standard_normal((3, 2)) for _ in range(3))
    mask = np.array([[0.0, -np.inf, 0.5], [-1.25, 0.0, 3.0], [-np.inf, -np.inf, -np.inf]])
    out = attention_float64(q, k, v, attn_mask=mask)
    assert same(out, arb_reference(q, k, v, attn_mask=mask))


@pytest.mark.parametrize("causal", [False, True])
def test_gqa_and_batch_shapes(causal: bool) -> None:
    rng = np.random.default_rng(9)
    q = rng.standard_normal((2, 4, 3, 2)).astype(np.float32)
    k = rng.standard_normal((2, 2, 3, 2)).astype(np.float32)
    v = rng.standard_normal((2, 2, 3, 5)).astype(np.float32)
    out = attention_float64(q, k, v, is_causal=causal, enable_gqa=True)
    assert out.shape == (2, 4, 3, 5)
    assert same(out, arb_reference(q, k, v, is_causal=causal, enable_gqa=True))


@pytest.mark.parametrize("scale", [0.5, -0.75, 0, inv_sqrt(3)])
def test_scales(scale: object) -> None:
    rng = np.random.default_rng(10)
    q, k, v = (rng.standard_normal((4, 3)) for _ in range(3))
    assert same(attention_float64(q, k, v, scale=scale), arb_reference(q, k, v, scale=scale))


def test_wide_exponent_range_inputs_need_several_slices() -> None:
    q = np.array([[1e-12, 3e3], [3.0, -2.5e-8]])
    k = np.array([[1e-5, 2e-4], [1.0, 1e-20], [0.0, 1e-9]])
    v = np.array([[1e-20, 1.0], [1e20, 2.0], [-3.0, 5e-30]])
    assert len(from_float(v, 20).slices) > 1
    assert same(attention_float64(q, k, v), arb_reference(q, k, v))


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(1, 5),
    st.integers(1, 3),
    st.integers(0, 2**32 - 1),
    st.sampled_from([1.0, 10.0, 200.0]),
)
def test_hypothesis_agrees_with_arb(L: int, S: int, E: int, seed: int, spread: float) -> None:
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((L, E)) * spread
    k = rng.standard_normal((S, E))
    v = rng.integers(-3, 4, (S, 2)).astype(np.float64)
    mask = rng.random((L, S)) < 0.8
    assert same(attention_float64(q, k, v, attn_mask=mask), arb_reference(q, k, v, attn_mask=mask))


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    q = np.ones((5, 2))
    attention_float64(q, q, q, block_rows=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("big", [1e10, 1e20])
def test_huge_logits_fall_back_correctly(big: float) -> None:
    q = np.array([[big, 1.0], [1.0, -1.0]])
    k = np.array([[1.0, 3.0], [1.0, 1.0 + 2.0**-40], [1.0 - 2.0**-30, 0.0]])
    v = np.array([[1.0, 0.5], [2.0, -1.0], [4.0, 0.0]])
    assert same(attention_float64(q, k, v, scale=1), arb_reference(q, k, v, scale=1))


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(
        ["float16", "float32", "float64", "bfloat16", "decimals", "wide", "zero_columns"]
    ),
    st.sampled_from(["none", "causal", "boolean", "additive"]),
    st.integers(1, 6),
    st.integers(1, 9),
    st.integers(1, 5),
    st.integers(0, 2**32 - 1),
)
def test_random_outputs_against_an_independent_flint_reference(
    kind: str, mask_kind: str, L: int, S: int, E: int, seed: int
) -> None:
    # every output correctly rounded, checked against plain python-flint at 300 bits
    rng = np.random.default_rng(seed)
    q, k, v, mask = random_inputs(rng, kind, mask_kind, L, S, E, v_extra=1)
    decimal = kind == "decimals"
    causal = mask_kind == "causal"
    got = attention_float64(q, k, v, attn_mask=mask, is_causal=causal, exact_float=not decimal)
    want = flint_outputs(q, k, v, mask=mask, causal=causal, decimal=decimal)
    assert correctly_rounded(got, want)
