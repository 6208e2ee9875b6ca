"""Tests for symattn.fast.fixedpoint: exact fixed-point weights of integer scores, the outputs
``N / R`` built on them, and their error bounds, checked against Arb at 400 bits."""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np
import pytest

from symattn.exact import Surd
from symattn.fast import jit
from symattn.fast.fixedpoint import (
    FixedExps,
    fixed_balls,
    fixed_exps,
    fixed_outputs,
    fixed_row_sums,
)

FACTORS = {
    "rational": Surd(Fraction(1, 8)),
    "negative": Surd(Fraction(-3, 16)),
    "surd": Surd(Fraction(0), Fraction(1, 8), 2),  # sqrt(2) / 8, as 1/sqrt(d) gives
}


def _case(masked: bool, seed: int = 3) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    rng = np.random.default_rng(seed)
    scores = rng.integers(-60, 60, (5, 9)).astype(np.int64)
    mask = None
    if masked:
        mask = rng.random((5, 9)) < 0.4
        mask[0, 1:] = True  # one key left in a row
        mask[1] = True  # a fully masked row
    vint = rng.integers(-1000, 1000, (9, 4)).astype(np.int64)
    return scores, mask, vint


def _weights(fx: FixedExps) -> list[list[int]]:
    """Every weight ``W`` as a Python integer, from its slices."""
    per_delta = [
        sum(int(c) << (fx.width * s) for s, c in enumerate(row)) for row in fx.table.tolist()
    ]
    return [[per_delta[k] for k in row] for row in np.asarray(fx.inv).tolist()]


def _true_weights(
    factor: Surd, scores: np.ndarray, mask: np.ndarray | None, bits: int
) -> list[list[flint.arb | None]]:
    """``2**bits exp(-|gamma| (max_row - sign score))`` per active entry (call at 400 bits)."""
    g = factor.arb()
    sign = 1 if g > 0 else -1
    out: list[list[flint.arb | None]] = []
    for i, row in enumerate(scores.tolist()):
        act = [mask is None or not mask[i, j] for j in range(len(row))]
        top = max((sign * s for s, a in zip(row, act, strict=True) if a), default=0)
        out.append(
            [
                flint.arb(2) ** bits * (-(abs(g) * (top - sign * s))).exp() if a else None
                for s, a in zip(row, act, strict=True)
            ]
        )
    return out


@pytest.mark.parametrize("mode", ["numba", "numpy"])  # compiled table products, or Python ints
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("factor", FACTORS.values(), ids=FACTORS.keys())
def test_every_weight_is_within_its_error_bound(factor: Surd, masked: bool, mode: str) -> None:
    scores, mask, _ = _case(masked)
    with jit.use(mode):
        fx = fixed_exps(factor, scores, mask, 200)
    assert fx is not None and fx.bits >= 200
    got = _weights(fx)
    sums = fixed_row_sums(fx)
    with flint.ctx.workprec(400):
        want = _true_weights(factor, scores, mask, fx.bits)
        for i, (grow, wrow) in enumerate(zip(got, want, strict=True)):
            active = [w for g, w in zip(grow, wrow, strict=True) if w is not None]
            for g, w in zip(grow, wrow, strict=True):
                if w is not None:
                    assert (w - g).abs_upper() <= fx.err
            # R = sum of the active weights, exactly
            assert int(sums[i]) == sum(g for g, w in zip(grow, wrow, strict=True) if w is not None)
            assert len(active) == (9 if mask is None else int((~mask[i]).sum()))


@pytest.mark.parametrize("mode", ["numba", "numpy"])
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("factor", FACTORS.values(), ids=FACTORS.keys())
def test_outputs_and_their_balls_contain_the_exact_values(
    factor: Surd, masked: bool, mode: str
) -> None:
    scores, mask, vint = _case(masked, seed=7)
    unit = Fraction(1, 1024)
    with jit.use(mode):
        fo = fixed_outputs(factor, scores, vint, mask, 200)
    assert fo is not None
    balls = fixed_balls(fo, unit, 264)
    with flint.ctx.workprec(400):
        w = _true_weights(factor, scores, mask, fo.bits)
        u = flint.arb(flint.fmpq(unit.numerator, unit.denominator))
        for i in range(scores.shape[0]):
            act = [j for j in range(scores.shape[1]) if w[i][j] is not None]
            r_true = sum((w[i][j] for j in act), flint.arb(0))
            assert (r_true - int(fo.den[i])).abs_upper() <= fo.err * int(fo.n_active[i])
            for c in range(vint.shape[1]):
                n_true = sum((w[i][j] * int(vint[j, c]) for j in act), flint.arb(0))
                assert (n_true - int(fo.num[i, c])).abs_upper() <= fo.err * int(fo.colabs[c])
                if not act:
                    assert balls[i, c].is_zero()
                    continue
                exact = n_true * u / r_true
                assert balls[i, c].overlaps(exact)
                assert balls[i, c].rad() < flint.arb(2) ** -150


def test_out_of_reach_gives_none() -> None:
    scores, _, vint = _case(False)
    assert fixed_exps(Surd(Fraction(0)), scores, None, 100) is None  # a zero factor
    wide = np.array([[0, 1 << 30], [5, -(1 << 30)]], dtype=np.int64)  # few scores, wide range
    assert fixed_exps(Surd(Fraction(1, 8)), wide, None, 100) is None
    huge = np.full((9, 4), 1 << 40, dtype=np.int64)  # V too wide for exact slice products
    assert fixed_outputs(Surd(Fraction(1, 8)), scores, huge, None, 100) is None
    assert fixed_exps(Surd(Fraction(1, 8)), scores[:0], None, 100) is None  # no rows
