"""The fast float64 path agrees with the pure Arb path on correctly rounded output."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.exact import inv_sqrt
from symattn.fast.kernels import (
    Sliced,
    _exp_tables,
    _from_float,
    _from_fractions,
    _prepare,
    _run,
    attention_enclose,
    attention_float64,
)


def _arb(q, k, v, **kw):  # the reference: the pure Arb path of symattn.exact
    return symattn.scaled_dot_product_attention(q, k, v, exact_float=True, **kw).to_numpy(
        method="exact"
    )


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_random_inputs_agree(seed: int, dtype: type) -> None:
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((5, 3)).astype(dtype) for _ in range(3))
    assert _same(attention_float64(q, k, v), _arb(q, k, v))


@pytest.mark.parametrize("seed", range(3))
def test_two_decimal_inputs_shortest_repr(seed: int) -> None:
    rng = np.random.default_rng(seed)
    q, k, v = (np.round(rng.uniform(-1, 1, (6, 4)), 2) for _ in range(3))
    want = symattn.scaled_dot_product_attention(q, k, v).to_numpy(method="exact")
    assert _same(attention_float64(q, k, v, exact_float=False), want)


def _fallbacks(q, k, v, **kw) -> int:
    p = _prepare(
        q,
        k,
        v,
        kw.get("attn_mask"),
        kw.get("is_causal", False),
        kw.get("scale"),
        False,
        True,
        DEFAULT_LIMITS,
    )
    return _run(p, None, DEFAULT_LIMITS, 256)[1]


@pytest.mark.parametrize("n", [8, 40])
def test_fast_path_decides_random_entries_itself(n: int) -> None:
    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, 8)) for _ in range(3))
    assert _fallbacks(q, k, v) == 0
    assert _fallbacks(q, k, v, is_causal=True) == 0


def test_fraction_inputs() -> None:
    q = [[Fraction(1, 3), Fraction(2, 7)], [Fraction(-5, 11), Fraction(1)]]
    k = [[Fraction(1, 10), 2], [3, Fraction(-1, 9)], [0, 1]]
    v = [[1, 2], [3, Fraction(1, 3)], [Fraction(-7, 5), 0]]
    want = symattn.scaled_dot_product_attention(q, k, v).to_numpy(method="exact")
    assert _same(attention_float64(q, k, v, exact_float=False), want)


@pytest.mark.parametrize("big", [1000.0, -1000.0, 300.5])
def test_large_score_ranges(big: float) -> None:
    q = np.array([[big], [1.0], [-big]])
    k = np.array([[1.0], [-1.0], [0.5], [0.999]])
    v = np.array([[1.0, -2.0], [3.0, 0.25], [-1.5, 7.0], [2.0, 2.0]])
    out = attention_float64(q, k, v, scale=1)
    assert _same(out, _arb(q, k, v, scale=1))


def test_exact_ties_are_decided_exactly() -> None:
    # equal scores: the output is the mean of V, here exactly halfway between two doubles
    a = 1.0
    b = float(np.nextafter(1.0, 2.0))
    q = np.zeros((1, 2))
    k = np.zeros((2, 2))
    v = np.array([[a], [b]])
    out = attention_float64(q, k, v)
    assert _fallbacks(q, k, v) == 1  # the bound cannot decide a tie: the exact path does
    assert out[0, 0] == a  # ties to even: 1.0 has the even mantissa
    assert _same(out, _arb(q, k, v))


def test_near_tie_above_midpoint_rounds_up() -> None:
    a = 1.0
    b = float(np.nextafter(1.0, 2.0))
    q = np.array([[1.0, 0.0]])
    k = np.array([[0.0, 0.0], [0.0, 0.0], [2.0**-40, 0.0]])
    # two keys average exactly to the midpoint; the third lifts it by about 2**-80
    mid = (Fraction(a) + Fraction(b)) / 2
    v = np.array([[a], [b], [float(mid + Fraction(1, 2**52))]])
    out = attention_float64(q, k, v, scale=1)
    assert _same(out, _arb(q, k, v, scale=1))


def test_fully_masked_rows_are_zero() -> None:
    rng = np.random.default_rng(7)
    q, k, v = (rng.standard_normal((3, 4)) for _ in range(3))
    mask = np.array([[True, False, True], [False, False, False], [True, True, True]])
    out = attention_float64(q, k, v, attn_mask=mask)
    assert np.all(out[1] == 0)
    assert _same(out, _arb(q, k, v, attn_mask=mask))


def test_additive_mask_with_values_and_neg_inf() -> None:
    rng = np.random.default_rng(8)
    q, k, v = (rng.standard_normal((3, 2)) for _ in range(3))
    mask = np.array([[0.0, -np.inf, 0.5], [-1.25, 0.0, 3.0], [-np.inf, -np.inf, -np.inf]])
    out = attention_float64(q, k, v, attn_mask=mask)
    assert _same(out, _arb(q, k, v, attn_mask=mask))


@pytest.mark.parametrize("causal", [False, True])
def test_gqa_and_batch_shapes(causal: bool) -> None:
    rng = np.random.default_rng(9)
    q = rng.standard_normal((2, 4, 3, 2)).astype(np.float32)
    k = rng.standard_normal((2, 2, 3, 2)).astype(np.float32)
    v = rng.standard_normal((2, 2, 3, 5)).astype(np.float32)
    out = attention_float64(q, k, v, is_causal=causal, enable_gqa=True)
    assert out.shape == (2, 4, 3, 5)
    assert _same(out, _arb(q, k, v, is_causal=causal, enable_gqa=True))


@pytest.mark.parametrize("scale", [0.5, -0.75, 0, inv_sqrt(3)])
def test_scales(scale: object) -> None:
    rng = np.random.default_rng(10)
    q, k, v = (rng.standard_normal((4, 3)) for _ in range(3))
    assert _same(attention_float64(q, k, v, scale=scale), _arb(q, k, v, scale=scale))


def test_wide_exponent_range_inputs_need_several_slices() -> None:
    q = np.array([[1e-12, 3e3], [3.0, -2.5e-8]])
    k = np.array([[1e-5, 2e-4], [1.0, 1e-20], [0.0, 1e-9]])
    v = np.array([[1e-20, 1.0], [1e20, 2.0], [-3.0, 5e-30]])
    assert len(_from_float(v, 20).slices) > 1
    assert _same(attention_float64(q, k, v), _arb(q, k, v))


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
    assert _same(attention_float64(q, k, v, attn_mask=mask), _arb(q, k, v, attn_mask=mask))


@pytest.mark.parametrize(
    "values",
    [[[1.5, -2.25], [0.0, 3.0]], [[2.0**-60, 1.0], [-(2.0**70), 0.5]], [[0.0, 0.0]]],
)
def test_slices_are_exact(values: list[list[float]]) -> None:
    a = np.array(values)
    s = _from_float(a, 10)
    assert all(np.all(np.abs(x) < 2**10) for x in s.slices)
    got = s.fractions(slice(None))
    assert [[Fraction(x) for x in row] for row in values] == got.tolist()
    f = _from_fractions(np.array([[Fraction(1, 3), Fraction(-2, 5)]], dtype=object), 6)
    assert isinstance(f, Sliced)
    assert f.fractions(slice(None)).tolist() == [[Fraction(1, 3), Fraction(-2, 5)]]


def test_huge_exponent_spread_is_read_exactly() -> None:
    a = np.array([[5e-324, 1e300]])
    s = _from_float(a, 20)
    assert s.fractions(slice(None)).tolist() == [[Fraction(5e-324), Fraction(1e300)]]


def test_exp_tables_are_certified() -> None:
    t = _exp_tables()
    assert t.err < 2.0**-104
    assert t.hi[0][0] == 1.0 and t.lo[0][0] == 0.0
    assert abs(t.hi[0][1] - np.exp(-(2.0**-16))) < 1e-15
    assert abs(t.hi[1][1] - np.exp(-(2.0**-4))) < 1e-15


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    q = np.ones((5, 2))
    attention_float64(q, q, q, block_rows=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


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
    import flint

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


@pytest.mark.parametrize("big", [1e10, 1e20])
def test_huge_logits_fall_back_correctly(big: float) -> None:
    q = np.array([[big, 1.0], [1.0, -1.0]])
    k = np.array([[1.0, 3.0], [1.0, 1.0 + 2.0**-40], [1.0 - 2.0**-30, 0.0]])
    v = np.array([[1.0, 0.5], [2.0, -1.0], [4.0, 0.0]])
    assert _same(attention_float64(q, k, v, scale=1), _arb(q, k, v, scale=1))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(-1e15, 1e15, allow_nan=False), min_size=1, max_size=6),
    st.integers(0, 8),
)
def test_short_decimals_read_like_shortest_repr(xs: list[float], places: int) -> None:
    from symattn.fast.kernels import _short_decimals
    from symattn.numbers import to_exact_array

    a = np.round(np.array(xs), places)
    s = _short_decimals(a, 20)
    want = to_exact_array(a).tolist()
    if s is not None:
        assert s.fractions(slice(None)).tolist() == want
    assert _from_fractions(to_exact_array(a), 20).fractions(slice(None)).tolist() == want


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, Fraction(1, 1000), Fraction(-1, 3), Fraction(7, 2)]),
)
def test_integer_scores_direct_tables_agree_with_arb(
    L: int, S: int, seed: int, scale: Fraction | None
) -> None:
    from symattn.fast.kernels import _direct_tables, _gamma

    rng = np.random.default_rng(seed)
    q = rng.integers(-9, 10, (L, 3)).astype(np.float64)
    k = rng.integers(-9, 10, (S, 3)).astype(np.float64)
    v = rng.integers(-5, 6, (S, 2)).astype(np.float64) / 4
    mask = rng.random((L, S)) < 0.7
    p = _prepare(q, k, v, mask, False, scale, False, True, DEFAULT_LIMITS)
    assert _direct_tables(p, _gamma(p)) is not None or float(_gamma(p)[0]) == 0
    assert _same(
        attention_float64(q, k, v, attn_mask=mask, scale=scale),
        _arb(q, k, v, attn_mask=mask, scale=scale),
    )


@pytest.mark.parametrize("digits", [1, 2, 3, 20])
def test_decimals_match_the_exact_engine(digits: int) -> None:
    from symattn.fast.kernels import attention_decimals

    # includes an exact tie (mean of 0.25 and 0.5 = 0.375 at 2 digits) and a zero output
    q = np.array([[0.0, 0.0], [1.0, -0.5], [2.0, 0.25]])
    k = np.array([[0.0, 0.0], [0.0, 0.0], [1.5, 0.5]])
    v = np.array([[0.25, 0.0], [0.5, 0.0], [0.5, 0.0]])
    mask = np.array([[True, True, False], [True, True, True], [True, False, True]])
    want = symattn.scaled_dot_product_attention(
        q, k, v, attn_mask=mask, exact_float=True
    ).output.evalf(digits, method="exact")
    got = attention_decimals(q, k, v, attn_mask=mask, digits=digits)
    assert got.tolist() == want.tolist()


# --------------------------------------------------------------------------- weights


def _row_reference(p, b: tuple[int, ...], i: int) -> list[float]:
    """One row of weights by the Arb fallback alone (independent of the fast path)."""
    from symattn.exact import float_of
    from symattn.fast.kernels import _certify_row_entries, _row_weights

    S = p.k.shape[-2]
    got = _certify_row_entries(_row_weights(p, b, i), list(range(S)), float_of, 80, DEFAULT_LIMITS)
    return [got[j] for j in range(S)]


@pytest.mark.parametrize(("n", "causal"), [(48, False), (48, True), (130, False)])
def test_weights_fast_path_decides_random_entries_itself(n: int, causal: bool) -> None:
    from symattn.fast.kernels import _weights_run

    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, 8)) for _ in range(3))
    p = _prepare(q, k, v, None, causal, None, False, True, DEFAULT_LIMITS)
    w, fallbacks = _weights_run(p, DEFAULT_LIMITS, 32)
    assert fallbacks == 0
    for i in (0, n // 2, n - 1):
        assert w[i].tolist() == _row_reference(p, (), i)


@pytest.mark.parametrize("scale", [40, Fraction(-7, 3), inv_sqrt(2)])
def test_weights_with_tiny_and_zeroed_entries_fall_back_correctly(scale: object) -> None:
    from symattn.fast.kernels import _weights_run

    rng = np.random.default_rng(5)
    q, k, v = (np.round(rng.uniform(-2, 2, (12, 3)), 2) for _ in range(3))
    mask = rng.random((12, 12)) < 0.8
    mask[3] = False
    p = _prepare(q, k, v, mask, False, scale, False, False, DEFAULT_LIMITS)
    w, _ = _weights_run(p, DEFAULT_LIMITS, 5)
    assert w[3].tolist() == [0.0] * 12
    for i in range(12):
        assert w[i].tolist() == _row_reference(p, (), i)
    if scale == 40:  # weights far below 2**-115 relative to the row maximum are still rounded
        assert 0 < w[w > 0].min() < 1e-40
