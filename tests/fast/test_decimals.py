"""Tests for symattn.fast.decimals: correctly rounded decimals of the output."""

from __future__ import annotations

import numpy as np
import pytest

import symattn
from symattn.fast import attention_decimals

# every test twice: the fused kernels (numba) and the numpy path (tests/fast/conftest.py)
pytestmark = pytest.mark.usefixtures("both_paths")


@pytest.mark.parametrize("digits", [1, 2, 3, 20])
def test_decimals_match_the_exact_engine(digits: int) -> None:

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
