"""Tests for symattn.fast.exps: unnormalised weights and their exact fixed-point slices."""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS
from symattn.fast.decide import rho
from symattn.fast.exps import iter_exps, weight_slices
from symattn.fast.problem import exact_scores, gamma, prepare
from symattn.fast.tables import TABLES

F = Fraction


def test_weight_slices_cut_exactly() -> None:
    eh = np.array([1.0, 0.7, 1.9999, 0.0])
    el = eh * 2.0**-60
    el[1] = -(2.0**-57)
    for aw, na in ((26, 4), (23, 4), (19, 5)):
        slices = weight_slices(eh, el, aw, na)
        for i in range(4):
            total = sum(F(float(a[i])) * F(2) ** -(aw * s + aw - 1) for s, a in enumerate(slices))
            rest = F(float(eh[i])) + F(float(el[i])) - total
            assert 0 <= rest < F(2) ** -(aw * na - 1)
            assert all(abs(a[i]) < 2**aw for a in slices)


def test_exps_are_within_their_bound() -> None:
    rng = np.random.default_rng(4)
    q, k, v = (rng.standard_normal((4, 3)) for _ in range(3))
    mask = np.array([[True, True, False, True]] * 4)
    p = prepare(q, k, v, mask, False, None, False, True, DEFAULT_LIMITS)
    chunks = list(iter_exps(p, (), slice(0, 4), gamma(p), TABLES))
    assert len(chunks) == 1
    x = chunks[0][1]
    assert x.active is not None and x.n_active.tolist() == [3] * 4
    assert np.all(x.eh[:, 2] == 0) and not x.zeroed().any()
    bound = rho(x.row_t_err, x.tables)
    scores, factor = exact_scores(p, ())
    with flint.ctx.workprec(200):
        g = factor.arb()
        for i in range(4):
            # e = exp(t - m) for the row's floating shift m, which cancels: compare ratios
            active = [j for j in range(4) if mask[i, j]]
            first = active[0]
            e0 = flint.arb(float(x.eh[i, first])) + flint.arb(float(x.el[i, first]))
            for j in active[1:]:
                exact = (g * (int(scores[i, j]) - int(scores[i, first]))).exp()
                e = flint.arb(float(x.eh[i, j])) + flint.arb(float(x.el[i, j]))
                assert abs(e / e0 - exact) <= exact * (2.01 * float(bound[i]))


def test_masked_and_far_logits_give_exact_zeros() -> None:
    q = np.array([[50.0], [1.0]])
    k = np.array([[1.0], [-1.0], [0.5]])
    mask = np.array([[True, True, False], [False, False, False]])
    p = prepare(q, k, k, mask, False, 1, False, True, DEFAULT_LIMITS)
    x = next(iter_exps(p, (), slice(0, 2), gamma(p), TABLES))[1]
    assert x.eh[0, 2] == 0.0 and x.eh[0, 1] == 0.0  # masked; exp(-100): zeroed
    assert x.zeroed()[0].tolist() == [False, True, False]
    assert x.n_active.tolist() == [2, 0] and not x.eh[1].any()
