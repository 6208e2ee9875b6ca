"""Tests of symattn.read.layout: vectors on consecutive lines stacked into matrices, and
matrices written side by side."""

from __future__ import annotations

from symattn.config import DEFAULT_LIMITS
from symattn.read.arrays import scan_arrays
from symattn.read.layout import side_by_side, stack_rows


def stacked(text: str) -> list[tuple[tuple[int, ...] | None, tuple[str, ...]]]:
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    grids = scan_arrays(text, 0, len(text), DEFAULT_LIMITS)
    return [(g.dims, g.notes) for g in stack_rows(text, grids, starts)]


def test_named_rows_are_one_matrix() -> None:
    assert stacked("I: [1, 0]\nlove: [0, 1]\n") == [((2, 2), ("I", "love"))]


def test_different_widths_stay_apart() -> None:
    assert [d for d, _ in stacked("[1, 0]\n[0, 1, 2]\n")] == [(2,), (3,)]


def test_a_new_label_starts_a_new_array() -> None:
    got = stacked("Raw scores: [1, 2]\nAttention weights: [0.3, 0.7]\n")
    assert [d for d, _ in got] == [(2,), (2,)]


def test_side_by_side() -> None:
    text = "Q = [[1, 0],    K = [[1, 1],\n     [0, 1]]         [0, 1]]\n"
    grids, covered = side_by_side(text, 0, len(text), DEFAULT_LIMITS)
    assert sorted((g.label, g.dims) for g in grids) == [("K", (2, 2)), ("Q", (2, 2))]
    assert covered
    for g in grids:
        for e in g.entries:
            assert text[e.at] == e.text[0]
