"""Tests of symattn.read.notations.text: every row against its examples, and what the readers
do with it."""

from __future__ import annotations

import pytest

from symattn.read.notations import text as table

from ..texts import read_text, understood
from .rows import Row, check_row, rows_of

ROWS = rows_of(table)


@pytest.mark.parametrize(("name", "row"), ROWS, ids=[n for n, _ in ROWS])
def test_row_recognises_its_examples(name: str, row: Row) -> None:
    check_row(row)


def test_every_row_is_tested() -> None:
    assert {n for n, _ in ROWS} >= {"INVISIBLE", "LIST_MARKER", "RESULT_LABEL", "NEW_DEFINITION"}


@pytest.mark.parametrize("env", sorted(table.MATH_ENVIRONMENTS.words))
def test_math_environment_holds_math(env: str) -> None:
    r = read_text(f"\\begin{{{env}}}\nx = 1 + 1 = 2\n\\end{{{env}}}\n", "latex")
    assert [c.text for c in r.chains] == ["x = 1 + 1 = 2"]


@pytest.mark.parametrize("env", sorted(table.TABLE_ENVIRONMENTS.words))
def test_table_environment_is_a_table(env: str) -> None:
    r = read_text(f"\\begin{{{env}}}{{cc}}\n a & b \\\\\n 1 & 2 \\\\\n\\end{{{env}}}\n", "latex")
    assert len(r.tables) == 1


@pytest.mark.parametrize("env", sorted(table.CODE_ENVIRONMENTS.words))
def test_code_environment_is_code(env: str) -> None:
    r = read_text(f"\\begin{{{env}}}\nx = [1, 2]\n\\end{{{env}}}\n", "latex")
    assert [b.kind for b in r.blocks] == ["code"]


def test_result_label_joins_the_arithmetic_above() -> None:
    r = read_text("[0.5, 0.5]*[[1, 0], [0, 1]]\n\n结果=[0.5, 0.5]\n", "text")
    assert [c.text for c in r.chains] == ["[0.5, 0.5]*[[1, 0], [0, 1]] = [0.5, 0.5]"]


@pytest.mark.parametrize("rule", sorted(table.TABLE_RULE_NAMES))
def test_table_rule_does_not_end_a_table(rule: str) -> None:
    text = f"\\begin{{tabular}}{{cc}}\n a & b \\\\ \\{rule}\n 1 & 2 \\\\\n 3 & 4 \\\\\n\\end{{tabular}}\n"
    r = read_text(text, "latex")
    ((_, t),) = r.tables
    assert [e.text for e in t.entries()] == ["1", "2", "3", "4"]


def test_list_marker_is_no_number_but_arithmetic_is() -> None:
    r = read_text("1. x = 2\n\n1.15/1.414≈0.813\n", "text")
    assert [c.text for c in r.chains] == ["x = 2", "1.15/1.414 ≈ 0.813"]


@pytest.mark.parametrize(
    "shape",
    ["shape: [2, 2]", "(2 × 2)", "（2×2）", "_{2\\times 2}"],
    ids=["shape", "x", "zh", "tex"],
)
def test_shape_note_names_the_array_not_its_values(shape: str) -> None:
    line = (
        f"$$Q{shape} = \\begin{{bmatrix}} 1 & 0 \\\\ 0 & 1 \\end{{bmatrix}}$$\n"
        if shape.startswith("_")
        else f"Q {shape} = [[1, 0], [0, 1]]\n"
    )
    u = understood(line)
    assert [(f.role, f.dims, f.name) for f in u.facts] == [("q", (2, 2), "Q")]


def test_index_note_after_a_row_is_not_read_as_data() -> None:
    u = understood("$$k = \\begin{bmatrix} 1 & 0 \\end{bmatrix} \\quad ← token 2 的 key$$\n")
    (f,) = [f for f in u.facts if f.role == "k"]
    assert [s.written.text for s in f.spots] == ["1", "0"]


def test_note_start_ends_the_value_but_an_operator_does_not() -> None:
    assert [c.text for c in read_text("$$w = [0.5, 0.5] ✅$$\n").chains] == ["w = [0.5, 0.5] ✅"]
    u = understood("$$w = [0.5, 0.5] ✅$$\n")
    assert [(f.role, f.dims) for f in u.facts] == [("weights", (2,))]
    u = understood("$$w = [0.5, 0.5] + x$$\n")
    assert [f.role for f in u.facts if f.dims == (2,)] == []


@pytest.mark.parametrize("info", sorted(table.TEXT_FENCES.words))
def test_text_fence_prints_nothing(info: str) -> None:
    r = read_text(f"```{info}\nI\nlove\n```\n\n```\n0.1\n0.3\n```\n")
    assert r.printed == set()
    assert not any(c in table.TEXT_FENCES.words for c in table.TEXT_FENCES.counterexamples)
