"""Tests for symattn.fast.scores: the scores of a block as double-doubles with a bound."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.fast.problem import prepare
from symattn.fast.scores import PER_LEVEL, chunk_scores, score_levels, score_width


def test_score_width_leaves_room_for_a_level() -> None:
    for terms in (1, 2, 64, 128, 1000):
        w = score_width(terms)
        assert PER_LEVEL * terms * (2**w - 1) ** 2 < 2**53


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_block_scores_are_within_their_bound(dtype: type) -> None:
    rng = np.random.default_rng(3)
    q = (rng.standard_normal((6, 5)) * np.logspace(-8, 3, 5)).astype(dtype)
    k = rng.standard_normal((7, 5)).astype(dtype)
    p = prepare(q, k, k[:, :2], None, False, None, False, True, DEFAULT_LIMITS)
    lv = score_levels(p.q, p.k, (), slice(0, 6))
    sh, sl = chunk_scores(lv, slice(0, 6))
    unit = p.q.unit * p.k.unit * Fraction(2) ** (p.q.top_exp + p.k.top_exp)
    for i in range(6):
        for j in range(7):
            exact = sum(
                Fraction(float(x)) * Fraction(float(y)) for x, y in zip(q[i], k[j], strict=True)
            )
            got = (Fraction(float(sh[i, j])) + Fraction(float(sl[i, j]))) * unit
            assert abs(got - exact) <= Fraction(float(lv.err[i])) * unit


def test_integer_scores_are_exact() -> None:
    q = np.array([[1.0, 2.0], [3.0, -4.0]])
    p = prepare(q, q, q, None, False, None, False, True, DEFAULT_LIMITS)
    lv = score_levels(p.q, p.k, (), slice(0, 2))
    assert lv.integer and not lv.err.any()
    assert chunk_scores(lv, slice(0, 2))[0].tolist() == (q @ q.T).tolist()


@pytest.mark.parametrize("tiny", [0, 3])
def test_levels_are_the_exact_sums_of_the_slice_products(tiny: int) -> None:
    # float64 rows need 3 dense slices (and a compact 4th where an entry is tiny): the
    # levels come from 6 products for 9 pairs, each level still the exact sum of its pairs
    rng = np.random.default_rng(11)
    q, k = rng.standard_normal((80, 64)), rng.standard_normal((200, 64))
    q[:tiny, 0] = q[:tiny, 0] * 1e-6
    k[:tiny, 1] = k[:tiny, 1] * 1e-6
    p = prepare(q, k, k[:, :3], None, False, None, False, True, DEFAULT_LIMITS)
    lv = score_levels(p.q, p.k, (), slice(0, 80))
    qs = [a.astype(np.int64) for a in p.q.slices]
    ks = [a.astype(np.int64) for a in p.k.slices]
    assert len(lv.terms) < sum(1 for i in qs for j in ks)  # fewer products than pairs
    for at, level in enumerate(lv.levels):
        L = at + lv.base
        want = sum(qs[i] @ ks[L - i].T for i in range(len(qs)) if 0 <= L - i < len(ks))
        assert np.array_equal(level, want.astype(np.float64))
        assert np.all(np.abs(want) < 2**53)
