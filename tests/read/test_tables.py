"""Tests of symattn.read.tables: Markdown, LaTeX and plain-text tables."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.read.audit import audit
from symattn.read.source import Source
from symattn.read.tables import text_tables

from .texts import read_text


def test_markdown_table() -> None:
    r = read_text(
        "| token | Q | K |\n|---|---|---|\n| I | [1, 0] | 0.5 |\n| love | [0, 1] | **0.25** |\n"
    )
    ((_, t),) = r.tables
    assert t.header == ("token", "Q", "K")
    assert [e.text for e in t.entries()] == ["1", "0", "0.5", "0", "1", "0.25"]
    cell = t.column(1)[0]
    assert cell is not None and cell.grid is not None and cell.grid.dims == (2,)


def test_latex_table_rules_are_skipped() -> None:
    r = read_text(
        "\\begin{tabular}{cc}\\hline a & b \\\\ \\hline 1 & 2 \\\\ \\end{tabular}\n", "latex"
    )
    ((_, t),) = r.tables
    assert t.header == ("a", "b") and [e.text for e in t.entries()] == ["1", "2"]


def test_plain_text_table() -> None:
    text = "token\tQ\tK\n动物\t[0.44, -0.35]\t[0.1, 0.2]\n马路\t[1, 2]\t[3, 4]\n"
    (t,) = text_tables(Source.of(text), 0, len(text), DEFAULT_LIMITS)
    assert t.header == ("token", "Q", "K") and len(t.rows) == 2


def test_heading_with_numbers_is_no_table_heading() -> None:
    text = "1  2  3\n4  5  6\n"
    assert text_tables(Source.of(text), 0, len(text), DEFAULT_LIMITS) == []


@pytest.mark.parametrize("mark", ["·", "—", "…", "-"])
def test_a_placeholder_cell_is_an_entry_not_written(mark: str) -> None:
    text = f"| | I | am |\n|---|---|---|\n| I | 0.67 | 0.33 |\n| am | {mark} | 0.67 |\n"
    r = read_text(text)
    ((_, table),) = r.tables
    column = [c.grid for c in table.column(1) if c is not None]
    assert len(column) == 2 and all(g is not None for g in column)
    (cell,) = column[1].entries if column[1] is not None else ()
    assert cell.text == mark and cell.written is None and cell.elided


def test_a_word_cell_is_no_placeholder() -> None:
    r = read_text("| a | b |\n|---|---|\n| x | 0.5 |\n")
    ((_, table),) = r.tables
    assert [c.grid for c in table.column(0) if c is not None] == [None]


def test_a_cell_written_as_a_percentage_is_its_fraction() -> None:
    """``97.3%`` in a cell is 0.973 (zh60's table of 录取概率): judged as weights, not 97.3."""
    from_cells = audit(
        "| 考生 | 原始分数 | softmax后的概率 |\n|---|---|---|\n"
        "| A | 8 | 97.3% |\n| B | 4 | 1.8% |\n| C | 3 | 0.7% |\n| D | 2 | 0.2% |\n"
    )
    assert from_cells.checked == 4 and not from_cells.findings
