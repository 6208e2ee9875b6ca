"""Tests for symattn.fast.sliced: inputs read exactly as sliced integer matrices."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.fast.sliced import Sliced, from_float, from_fractions, short_decimals
from symattn.numbers import to_exact_array


@pytest.mark.parametrize(
    "values",
    [[[1.5, -2.25], [0.0, 3.0]], [[2.0**-60, 1.0], [-(2.0**70), 0.5]], [[0.0, 0.0]]],
)
def test_slices_are_exact(values: list[list[float]]) -> None:
    a = np.array(values)
    s = from_float(a, 10)
    assert all(np.all(np.abs(x) < 2**10) for x in s.slices)
    got = s.fractions(slice(None))
    assert [[Fraction(x) for x in row] for row in values] == got.tolist()
    f = from_fractions(np.array([[Fraction(1, 3), Fraction(-2, 5)]], dtype=object), 6)
    assert isinstance(f, Sliced)
    assert f.fractions(slice(None)).tolist() == [[Fraction(1, 3), Fraction(-2, 5)]]


def test_huge_exponent_spread_is_read_exactly() -> None:
    a = np.array([[5e-324, 1e300]])
    s = from_float(a, 20)
    assert s.fractions(slice(None)).tolist() == [[Fraction(5e-324), Fraction(1e300)]]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(-1e15, 1e15, allow_nan=False), min_size=1, max_size=6),
    st.integers(0, 8),
)
def test_short_decimals_read_like_shortest_repr(xs: list[float], places: int) -> None:

    a = np.round(np.array(xs), places)
    s = short_decimals(a, 20)
    want = to_exact_array(a).tolist()
    if s is not None:
        assert s.fractions(slice(None)).tolist() == want
    assert from_fractions(to_exact_array(a), 20).fractions(slice(None)).tolist() == want
