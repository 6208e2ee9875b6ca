"""Tests of symattn.read.formulas: rows of LaTeX math and lines of text that hold formulas."""

from __future__ import annotations

import pytest

from symattn.read.formulas import math_rows, starts_with_relation, text_lines
from symattn.read.mapped import Mapped


def rows(text: str) -> list[str]:
    return [" ".join(m.text.split()) for m in math_rows(text, 0, len(text))]


def test_aligned_rows_are_split_but_matrix_rows_are_not() -> None:
    text = "\\begin{aligned} a &= \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix} \\\\ b &= 2 \\end{aligned}"
    got = rows(text)
    assert len(got) == 2
    assert "\\begin{bmatrix}" in got[0] and "3 & 4" in got[0]
    assert got[1] == "b = 2"


def test_row_positions_point_into_the_source() -> None:
    text = "x = 1 \\\\ y = 2"
    second = list(math_rows(text, 0, len(text)))[1]
    i = second.text.index("y")
    assert text[second.at(i)] == "y"


def test_labels_and_tags_are_not_math() -> None:
    assert rows("x = 1 \\label{eq:1} \\tag{3}") == ["x = 1"]


def test_unbalanced_braces_do_not_break_rows() -> None:
    assert rows("{x = 1 \\\\ y = 2") == ["x = 1", "y = 2"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("• e = 2.718\n", ["e = 2.718"]),
        ("1. x = 2\n", ["x = 2"]),
        ("- **w** = 0.5\n", ["w = 0.5"]),
        ("总和 = 12.18 + 2.71\n= 14.89\n", ["总和 = 12.18 + 2.71 = 14.89"]),
        ("no formula here\n", []),
    ],
)
def test_text_lines(text: str, expected: list[str]) -> None:
    got = [" ".join(m.text.split()) for m in text_lines(text, 0, len(text), markdown=True)]
    assert [g for g in got if "=" in g] == expected


def test_a_row_that_starts_with_a_relation_has_no_left_side() -> None:
    assert starts_with_relation(Mapped.of("= [3.406, 4.406]", 0, 16))
    assert starts_with_relation(Mapped.of(r" \quad \approx 0.5", 0, 18))
    assert not starts_with_relation(Mapped.of("+ 0.5 = 1", 0, 9))
    assert not starts_with_relation(Mapped.of("x = 1", 0, 5))


def test_a_comment_line_of_code_is_read_without_its_marker() -> None:
    text = "    #   softmax([8, -4, -4]) ≈ [0.996, 0.002, 0.002]\nx = 1  # a note = 2\n"
    got = [m.text for m in text_lines(text, 0, len(text), code=True)]
    assert got[0] == "softmax([8, -4, -4]) ≈ [0.996, 0.002, 0.002]"
    assert [m.text for m in text_lines(text, 0, len(text))] == []  # (in prose: code)
