"""Tests for symattn.fast.outputs: every output entry decided at once, as the Arb path does."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.exact import Ball, Narrow, Places, Significant, float_of
from symattn.fast.outputs import certify_outputs
from symattn.fast.problem import prepare

from .reference import assert_same_decimals

# every test twice: the fused kernels (numba) and the numpy path (tests/fast/conftest.py)
pytestmark = pytest.mark.usefixtures("both_paths")


def _inputs(kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict, bool]:
    rng = np.random.default_rng(17)
    if kind == "two_decimals":
        q, k, v = (np.round(rng.uniform(-2, 2, (n, 3)), 2) for n in (5, 6, 6))
        v[:, 1] = 0.25  # a constant column: rational outputs
        return q, k, v, {"is_causal": True}, False
    if kind == "zeros":  # exact zeros and equal group means
        q = np.array([[1.0, 0.0], [0.0, 0.0], [0.5, 2.0]])
        k = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
        v = np.array([[0.5, 0.0, 1.0], [1.5, 0.0, -1.0], [1.0, 0.0, 3.0], [1.0, 0.0, -3.0]])
        return q, k, v, {}, True
    q, k, v = (rng.standard_normal((n, 4)) for n in (5, 7, 7))
    mask = rng.random((5, 7)) < 0.7
    mask[1] = False
    return q * 9, k, v, {"attn_mask": mask}, True


@pytest.mark.parametrize(
    "decide",
    [Significant(15), Significant(2), Places(3), Places(14), Narrow(12), Narrow(40), float_of],
    ids=str,
)
@pytest.mark.parametrize("kind", ["two_decimals", "zeros", "masked"])
def test_outputs_decided_like_the_arb_path(kind: str, decide: object) -> None:
    q, k, v, kw, ef = _inputs(kind)
    p = prepare(
        q, k, v, kw.get("attn_mask"), kw.get("is_causal", False), None, False, ef, DEFAULT_LIMITS
    )
    got = certify_outputs(p, decide, 64, DEFAULT_LIMITS)
    exact = symattn.scaled_dot_product_attention(q, k, v, exact_float=ef, **kw).output
    if isinstance(decide, Narrow):
        fine = exact.enclose(decide.digits + 30, method="exact")
        for ball, ref in zip(got.reshape(-1), fine.reshape(-1), strict=True):
            assert ball.width < Fraction(1, 10**decide.digits)
            assert ball.lower <= ref.upper and ref.lower <= ball.upper
        return
    if decide is float_of:
        want = exact.to_numpy(method="exact")
        assert np.array(got, dtype=float).tolist() == want.tolist()
        return
    assert_same_decimals(got, exact, decide)


def test_every_row_masked_or_zero() -> None:
    q = np.ones((3, 2))
    mask = np.zeros((3, 3), dtype=bool)
    p = prepare(q, q, q, mask, False, None, False, True, DEFAULT_LIMITS)
    for decide in (Significant(15), Places(3), Narrow(10)):
        got = certify_outputs(p, decide, 64, DEFAULT_LIMITS)
        assert all(x == decide(Ball.exact(Fraction(0))) for x in got.reshape(-1))
    zero_v = prepare(q, q, np.zeros((3, 2)), None, False, None, False, True, DEFAULT_LIMITS)
    assert [
        str(x) for x in certify_outputs(zero_v, Significant(4), 64, DEFAULT_LIMITS).reshape(-1)
    ] == ["0"] * 6
