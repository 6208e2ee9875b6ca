"""Tests of symattn.read.layout: vectors on consecutive lines stacked into matrices, and
matrices written side by side."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.read.arrays import scan_arrays
from symattn.read.layout import side_by_side, stack_rows

from .texts import read_text, understood


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


def test_vectors_listed_after_one_label_are_the_rows_of_one_matrix() -> None:
    text = (
        "The query is q = [1, 0]. Keys are [1, 0], [0, 1] and values are [1, 2], [3, 4]. "
        "We use d_k = 2.\n\nThe weights are [0.67, 0.33].\n"
    )
    u = understood(text)
    assert [(f.role, f.dims, f.given) for f in u.facts if f.role in ("q", "k", "v")] == [
        ("q", (2,), True),
        ("k", (2, 2), True),
        ("v", (2, 2), True),
    ]
    assert len(u.problems) == 1


def test_listed_rows_zh() -> None:
    u = understood("键分别为 [1, 0]、[0, 1]\n")
    assert [(f.role, f.dims) for f in u.facts] == [("k", (2, 2))]


@pytest.mark.parametrize(
    "text",
    [
        "q = [1, 0], k = [0, 1]\n",  # (each has its own name)
        "Scores are [1, 0] → [0.7, 0.3]\n",  # (an arrow is no separator)
        "Keys are [1, 0], [0, 1, 2]\n",  # (rows of different lengths)
    ],
)
def test_vectors_with_their_own_names_or_other_lengths_are_not_joined(text: str) -> None:
    r = read_text(text)
    assert all(p.grid.notation != "listed-rows" for p in r.grids)


def test_a_matrix_to_the_right_of_its_expression_is_read_from_its_column() -> None:
    text = (
        "Output ≈ [[0.5×[10,20] + 0.5×[30,40]],  = [[20.0, 30.0],\n"
        "          [0.3×[10,20] + 0.7×[30,40]]]    [24.0, 34.0]]\n"
    )
    grids, covered = side_by_side(text, 0, len(text), DEFAULT_LIMITS)
    (g,) = grids
    assert g.dims == (2, 2) and g.label == "Output"
    assert [e.text for e in g.entries] == ["20.0", "30.0", "24.0", "34.0"]
    assert [text[a:b].strip() for a, b in covered] == ["= [[20.0, 30.0],", "[24.0, 34.0]]"]


@pytest.mark.parametrize(
    "text",
    [
        "S = [[1, 2],  = [[3, 4]]\n",  # (closed on its line: read as it is)
        "x = 1  = [[3, 4],\n\nlater [5, 6]]\n",  # (no line under it at its column)
    ],
)
def test_no_result_column_without_a_matrix_continued_under_it(text: str) -> None:
    grids, _ = side_by_side(text, 0, len(text), DEFAULT_LIMITS)
    assert grids == []
