"""Tests for symattn.fast.tables: certified exp tables, and per-call tables for integer scores."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.config import DEFAULT_LIMITS
from symattn.fast import attention_float64
from symattn.fast.problem import gamma, prepare
from symattn.fast.tables import direct_tables, exp_neg, exp_tables
from tests.fast.reference import arb_reference, same


def test_exp_tables_are_certified() -> None:
    t = exp_tables()
    assert t.err < 2.0**-104
    assert t.hi[0][0] == 1.0 and t.lo[0][0] == 0.0
    assert abs(t.hi[0][1] - np.exp(-(2.0**-16))) < 1e-15
    assert abs(t.hi[1][1] - np.exp(-(2.0**-4))) < 1e-15


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

    rng = np.random.default_rng(seed)
    q = rng.integers(-9, 10, (L, 3)).astype(np.float64)
    k = rng.integers(-9, 10, (S, 3)).astype(np.float64)
    v = rng.integers(-5, 6, (S, 2)).astype(np.float64) / 4
    mask = rng.random((L, S)) < 0.7
    p = prepare(q, k, v, mask, False, scale, False, True, DEFAULT_LIMITS)
    assert direct_tables(p, gamma(p)) is not None or float(gamma(p)[0]) == 0
    assert same(
        attention_float64(q, k, v, attn_mask=mask, scale=scale),
        arb_reference(q, k, v, attn_mask=mask, scale=scale),
    )


def test_exp_neg_of_a_nan_logit_does_not_index_out_of_range() -> None:
    # scores beyond the double range give inf - inf = NaN logits (their row is undecided)
    nan = np.array([np.nan, -1.0])
    eh, el = exp_neg(nan, np.zeros(2), exp_tables())
    assert np.isnan(eh[0]) and abs(eh[1] - np.exp(-1.0)) < 1e-15


def test_scores_beyond_the_double_range_fall_back() -> None:
    q = np.array([[1e150, 1.0], [1.0, 2.0]])
    k = np.array([[1e160, 1.0], [1.0, 3.0], [-2e160, -1.0]])
    v = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    assert same(attention_float64(q, k, v, scale=1), arb_reference(q, k, v, scale=1))
