"""Tests of symattn.read.symbolic.values: exact arrays and their operations."""

from __future__ import annotations

import operator
from fractions import Fraction

import pytest

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.read.symbolic import values as v

F = Fraction
L = DEFAULT_LIMITS


def m(rows: list[list[int]]) -> v.Array:
    return v.nested([[F(x) for x in r] for r in rows], L)


def test_broadcasting_a_column_against_a_matrix() -> None:
    col = m([[1], [2]])
    got = v.broadcast(col, m([[1, 1, 1], [1, 1, 1]]), operator.mul, L)
    assert got.shape == (2, 3) and list(got.data) == [1, 1, 1, 2, 2, 2]


def test_shapes_that_do_not_broadcast() -> None:
    with pytest.raises(v.NotFollowed):
        v.broadcast(m([[1, 2]]), m([[1, 2, 3]]), operator.add, L)


def test_sum_keeps_its_axis_when_asked() -> None:
    got = v.reduce(m([[1, 2], [3, 4]]), -1, True, sum, L)
    assert got.shape == (2, 1) and list(got.data) == [3, 7]


def test_index_with_a_new_axis() -> None:
    got = v.index(m([[1, 2], [3, 4]]), [0, slice(None), None], L)
    assert got.shape == (2, 1) and list(got.data) == [1, 2]


def test_sizes_are_checked_by_the_limits() -> None:
    with pytest.raises(v.NotFollowed):
        v.full((10, 10), F(0), Limits(max_elements=50))


def test_a_rational_square_root_only() -> None:
    assert v.sqrt_exact(F(9, 4)) == F(3, 2)
    assert v.sqrt_exact(F(2)) is None
