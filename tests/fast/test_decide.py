"""Tests for symattn.fast.decide: a double-double is accepted only when its bound rounds to it."""

from __future__ import annotations

import numpy as np

from symattn.fast.decide import rho, within_half_ulp
from symattn.fast.tables import TABLES


def test_within_half_ulp() -> None:
    h = np.array([1.5, 1.5, 1.5, 1.5])
    half = 2.0**-53  # half the gap between 1.5 and either neighbour
    low = np.array([0.0, 0.4 * half, 0.0, -0.2 * half])
    bound = np.array([0.5 * half, 0.5 * half, 1.1 * half, 0.0])
    assert within_half_ulp(h, low, bound).tolist() == [True, True, False, True]
    assert not within_half_ulp(np.array([1.0]), np.array([0.0]), np.array([np.inf]))[0]
    # below a power of two the gap halves: 2**-54 fits above 1.0 but not below it
    assert not within_half_ulp(np.array([1.0]), np.array([0.0]), np.array([2.0**-54]))[0]


def test_rho_is_a_few_table_errors_and_refuses_large_logit_errors() -> None:
    r = rho(np.array([0.0, 2.0**-40, 2.0**-10, np.inf]), TABLES)
    assert r[0] < 2.0**-80 and 2.0**-40 < r[1] < 2.0**-39
    assert np.isinf(r[2]) and np.isinf(r[3])
