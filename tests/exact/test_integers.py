"""Tests for symattn.exact.integers: exact integer products through float64 BLAS."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symattn.exact import combine_products, fractions_to_ints, int_matmul, int_slices, slice_width
from symattn.exact.integers import INT64_SAFE, max_abs, to_int64_if_small

F = Fraction


def test_fractions_to_ints_uses_one_common_denominator() -> None:
    values = np.array([[F(1, 2), F(-1, 3)], [F(5), F(0)]], dtype=object)
    ints, den = fractions_to_ints(values)
    assert den == 6 and ints.dtype == np.int64
    assert ints.tolist() == [[3, -2], [30, 0]]
    big, den = fractions_to_ints(np.array([F(2**70, 3)], dtype=object))
    assert big.dtype == object and big.tolist() == [2**70] and den == 3


def test_to_int64_if_small_and_max_abs() -> None:
    small = to_int64_if_small(np.array([1, -(2**61)], dtype=object))
    assert small.dtype == np.int64 and max_abs(small) == 2**61
    large = to_int64_if_small(np.array([INT64_SAFE], dtype=object))
    assert large.dtype == object and max_abs(large) == INT64_SAFE
    assert max_abs(np.zeros(0, dtype=np.int64)) == 0


@pytest.mark.parametrize("values", [[0], [5, -7, 2**52], [2**80 + 3, -(2**64)]])
@pytest.mark.parametrize("width", [4, 13, 26])
def test_int_slices_recombine_exactly(values: list[int], width: int) -> None:
    ints = to_int64_if_small(np.array(values, dtype=object))
    slices = int_slices(ints, width)
    assert all(s.dtype == np.float64 and np.all(np.abs(s) < 2**width) for s in slices)
    total = [
        sum(int(s[i]) << (width * k) for k, s in enumerate(slices)) for i in range(len(values))
    ]
    assert total == values


def test_slice_width_keeps_sums_of_slice_products_below_2_53() -> None:
    for terms in (1, 64, 4096, 10**6):
        w = slice_width(terms)
        assert w >= 4 and (terms * (2**w - 1) ** 2 < 2**53 or w == 4)


@pytest.mark.parametrize("small", [True, False])
def test_combine_products(small: bool) -> None:
    terms = [(np.array([[3.0, -1.0]]), 0), (np.array([[1.0, 2.0]]), 10)]
    got = combine_products(terms, small)
    assert got.dtype == (np.int64 if small else object)
    assert [int(x) for x in got[0]] == [3 + 1024, -1 + 2048]


def test_int_matmul_small_and_large() -> None:
    a = np.array([[1, 2], [3, 4]], dtype=np.int64)
    assert int_matmul(a, a).tolist() == [[7, 10], [15, 22]]
    big = np.array([[2**60, 1]], dtype=object)
    col = np.array([[2**60], [-1]], dtype=object)
    assert int_matmul(big, col).tolist() == [[2**120 - 1]]
