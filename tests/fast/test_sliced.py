"""Tests for symattn.fast.sliced: inputs read exactly as sliced integer matrices."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.fast.sliced import Exact, Sliced, from_float, from_ints


def _values(s: Sliced) -> list[list[Fraction]]:
    """The exact values the slices hold (line exponents applied; cut lines as cut)."""
    total = [[Fraction(0)] * s.shape[-1] for _ in range(s.shape[-2])]
    for k, a in enumerate(s.slices):
        for i in range(s.shape[-2]):
            for j in range(s.shape[-1]):
                total[i][j] += Fraction(int(a[i, j])) * 2 ** (s.width * k)
    for i in range(s.shape[-2]):
        for j in range(s.shape[-1]):
            e = 0 if s.exps is None else int(np.broadcast_to(s.exps, s.shape)[i, j])
            total[i][j] *= s.unit * Fraction(2) ** e
    return total


@pytest.mark.parametrize("axis", [-1, -2])
@pytest.mark.parametrize(
    "values",
    [
        [[1.5, -2.25], [0.0, 3.0]],
        [[2.0**-60, 1.0], [-(2.0**70), 0.5]],
        [[0.0, 0.0], [0.0, 0.0]],
        [[2.0**-500, 1.0], [2.0**400, -3.0]],
    ],
)
def test_slices_are_exact(values: list[list[float]], axis: int) -> None:
    a = np.array(values)
    s = from_float(a, 10, axis)
    assert all(np.all(np.abs(x) < 2**10) for x in s.slices)
    assert s.exact and _values(s) == [[Fraction(x) for x in row] for row in values]
    assert Exact(floats=a).fractions(slice(None)).tolist() == _values(s)


def test_a_line_beyond_the_double_range_is_cut_but_its_source_is_exact() -> None:
    a = np.array([[5e-324, 1.0], [1e300, -3.0]])
    s = from_float(a, 10, -1)
    assert s.trunc is not None and s.trunc[:, 0].tolist() == [True, True]
    got = _values(s)
    assert got[0][1] == 1 and got[1][0] == Fraction(1e300) and got[0][0] == 0
    assert Exact(floats=a).fractions(slice(None)).tolist() == [
        [Fraction(x) for x in r] for r in a.tolist()
    ]


def test_lines_share_one_top_and_the_bottom_slice_is_sparse() -> None:
    a = np.array([[1.0, 2.0**-40], [3.0, 1.0], [1.0, 0.5]])
    s = from_float(a, 20, -1)
    assert s.exps is not None and s.exps.shape == (3, 1)
    assert [int(np.count_nonzero(x[:, :].any(axis=1))) for x in s.slices][0] == 1


def test_lines_beyond_max_bits_are_cut_toward_zero() -> None:
    a = np.array([[1.0 + 2.0**-50, 2.0**-60], [1.0, 0.5]])
    s = from_float(a, 10, -1, max_bits=20)
    assert s.trunc is not None and s.trunc[:, 0].tolist() == [True, False]
    got = _values(s)
    for row, want in zip(got, a.tolist(), strict=True):
        for x, y in zip(row, want, strict=True):
            assert 0 <= Fraction(y) - x < Fraction(2) ** -19  # below one unit of the line
    assert got[1] == [Fraction(1), Fraction(1, 2)]


def test_ints_are_sliced_and_big_ones_cut() -> None:
    ints = np.array([[3, -(2**100) - 1], [5, 7]], dtype=object)
    s = from_ints(ints, Fraction(1, 10), 16, -1, max_bits=64)
    assert s.trunc is not None and s.trunc[:, 0].tolist() == [True, False]
    assert _values(s)[1] == [Fraction(1, 2), Fraction(7, 10)]
    assert Exact(ints=ints, unit=Fraction(1, 10)).at((0, 1))[0] == -(2**100) - 1


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(-1e30, 1e30, allow_nan=False, width=64), min_size=3, max_size=3),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from([-1, -2]),
)
def test_any_floats_are_read_exactly(rows: list[list[float]], axis: int) -> None:
    a = np.array(rows)
    s = from_float(a, 22, axis)
    want = [[Fraction(x) for x in row] for row in rows]
    got = _values(s)
    cut = np.zeros(a.shape, bool) if s.trunc is None else np.broadcast_to(s.trunc, a.shape)
    exps = np.zeros(a.shape, int) if s.exps is None else np.broadcast_to(s.exps, a.shape)
    for i, row in enumerate(want):
        for j, x in enumerate(row):
            if cut[i, j]:  # toward zero, by less than one unit of the line
                assert 0 <= abs(x) - abs(got[i][j]) < s.unit * Fraction(2) ** int(exps[i, j])
            else:
                assert got[i][j] == x
    ints, unit = Exact(floats=a).at((slice(None), slice(None)), small=True)
    assert [[Fraction(int(i)) * unit for i in row] for row in ints.tolist()] == want
