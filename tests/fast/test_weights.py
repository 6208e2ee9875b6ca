"""Tests for symattn.fast.weights: every weight decided from a double-double with a proved
bound (float64, digits, places, balls), checked against the per-entry Arb path."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.exact import Narrow, Places, Significant, inv_sqrt
from symattn.fast import jit
from symattn.fast.problem import prepare
from symattn.fast.weights import certify_weights, weights_run
from tests.fast.reference import arb_weights, assert_same_decimals


def _kind(name: str, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict, bool]:
    """Small inputs of one kind: ``(q, k, v, keywords, exact_float)``."""
    rng = np.random.default_rng(seed)
    L, S, E = 5, 7, 3

    def normal(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    if name == "two_decimals":
        q, k, v = (np.round(rng.uniform(-2, 2, (n, E)), 2) for n in (L, S, S))
        return q, k, v, {}, False
    if name == "float32":
        return *(normal(n, E).astype(np.float32) for n in (L, S, S)), {}, True
    if name == "wide":  # weights down to exp(-2000) and beyond the double range
        return normal(L, E) * 60, normal(S, E) * 20, normal(S, E), {"scale": 1}, True
    if name == "masks":
        mask = rng.random((L, S)) < 0.6
        mask[2] = False  # a fully masked row
        return normal(L, E), normal(S, E), normal(S, E), {"attn_mask": mask}, True
    if name == "additive":
        add = np.where(rng.random((L, S)) < 0.3, -np.inf, np.round(rng.normal(size=(L, S)), 1))
        return normal(L, E), normal(S, E), normal(S, E), {"attn_mask": add}, False
    if name == "equal":  # rows of equal scores: rational weights 1/m
        q = np.zeros((L, E))
        q[0] = 1.0
        return q, np.ones((S, E)), normal(S, E), {"is_causal": True}, True
    raise AssertionError(name)


KINDS = ["two_decimals", "float32", "wide", "masks", "additive", "equal"]


def _problem(q, k, v, kw, exact_float):
    return prepare(
        q,
        k,
        v,
        kw.get("attn_mask"),
        kw.get("is_causal", False),
        kw.get("scale"),
        False,
        exact_float,
        DEFAULT_LIMITS,
    )


def _exact(q, k, v, kw, exact_float):
    return symattn.scaled_dot_product_attention(q, k, v, exact_float=exact_float, **kw).weights


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", KINDS)
def test_float64_weights_equal_the_arb_path(kind: str, seed: int) -> None:
    q, k, v, kw, ef = _kind(kind, seed)
    w, _ = weights_run(_problem(q, k, v, kw, ef), DEFAULT_LIMITS, 3)
    want = arb_weights(q, k, v, exact_float=ef, **kw)
    assert w.tolist() == want.tolist()


@pytest.mark.parametrize(
    "decide",
    [Significant(15), Significant(3), Places(4), Places(12), Narrow(12), Narrow(50)],
    ids=str,
)
@pytest.mark.parametrize("kind", KINDS)
def test_decisions_equal_the_arb_path(kind: str, decide: object) -> None:
    q, k, v, kw, ef = _kind(kind, 1)
    got = certify_weights(_problem(q, k, v, kw, ef), decide, 64, DEFAULT_LIMITS)
    exact = _exact(q, k, v, kw, ef)
    if isinstance(decide, Narrow):  # narrow, and meeting a far narrower certified ball
        fine = exact.enclose(decide.digits + 30, method="exact")
        for ball, ref in zip(got.reshape(-1), fine.reshape(-1), strict=True):
            assert ball.width < Fraction(1, 10**decide.digits)
            assert ball.lower <= ref.upper and ref.lower <= ball.upper
        return
    assert_same_decimals(got, exact, decide)


@pytest.mark.parametrize("mode", ["numba", "numpy"])  # compiled digit products, or numpy's
@pytest.mark.parametrize("kind", KINDS)
def test_enclose_50_meets_the_arb_path_on_both_paths(kind: str, mode: str) -> None:
    q, k, v, kw, ef = _kind(kind, 2)
    with jit.use(mode):
        got = certify_weights(_problem(q, k, v, kw, ef), Narrow(50), 64, DEFAULT_LIMITS)
    fine = _exact(q, k, v, kw, ef).enclose(80, method="exact")
    for ball, ref in zip(got.reshape(-1), fine.reshape(-1), strict=True):
        assert ball.width < Fraction(1, 10**50)
        assert ball.lower <= ref.upper and ref.lower <= ball.upper


def test_weights_far_below_the_double_range_are_rounded() -> None:
    # a weight of about exp(-200000) ~ 2**-288539: 15 digits, and 0.0 as a double
    q = np.array([[1000.0]])
    k = np.array([[0.0], [-200.0]])
    p = prepare(q, k, k, None, False, 1, False, True, DEFAULT_LIMITS)
    w, _ = weights_run(p, DEFAULT_LIMITS, 8)
    assert w.tolist() == [[1.0, 0.0]]
    got = certify_weights(p, Significant(15), 64, DEFAULT_LIMITS)
    with mpmath.workdps(60):
        tiny = mpmath.exp(-200000)
        want = mpmath.nstr(tiny / (1 + tiny), 15, min_fixed=1, max_fixed=0)
    mantissa, exponent = want.split("e")
    assert got[0, 1] == Decimal(mantissa) * Decimal(10) ** int(exponent)
    assert got[0, 1].adjusted() == -86859 and len(got[0, 1].as_tuple().digits) == 15
    assert str(got[0, 0]) == "1.00000000000000"
    exact = symattn.scaled_dot_product_attention(q, k, k, scale=1, exact_float=True).weights
    assert got.tolist() == exact.evalf(15, method="exact").tolist()


def test_subnormal_weights_are_correctly_rounded() -> None:
    # exp(-744.5) / (1 + ...) is a subnormal double: decided on the subnormal grid
    q = np.array([[1.0]])
    k = np.array([[0.0], [-744.5], [-745.5], [-700.0]])
    p = prepare(q, k, k, None, False, 1, False, True, DEFAULT_LIMITS)
    w, fallbacks = weights_run(p, DEFAULT_LIMITS, 8)
    assert fallbacks == 0
    assert w.tolist() == arb_weights(q, k, k, scale=1).tolist()
    assert 0 < w[0, 1] < 2.0**-1022 and w[0, 2] == 0.0


@pytest.mark.parametrize(("n", "causal"), [(48, False), (48, True), (130, False)])
def test_random_weights_need_no_fallback(n: int, causal: bool) -> None:
    rng = np.random.default_rng(n)
    q, k, v = (rng.standard_normal((n, 8)) for _ in range(3))
    p = prepare(q, k, v, None, causal, None, False, True, DEFAULT_LIMITS)
    w, fallbacks = weights_run(p, DEFAULT_LIMITS, 32)
    assert fallbacks == 0
    rows = [0, n // 2, n - 1]
    mask = None if not causal else np.tril(np.ones((n, n), bool))[rows]
    assert w[rows].tolist() == arb_weights(q[rows], k, v, attn_mask=mask).tolist()


@pytest.mark.parametrize("scale", [40, Fraction(-7, 3), inv_sqrt(2)])
def test_weights_with_tiny_and_masked_entries(scale: object) -> None:
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
