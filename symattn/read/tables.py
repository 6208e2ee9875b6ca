"""Tables (Markdown pipes, LaTeX ``tabular``): a heading row and rows of cells, each cell read
as a number, a vector (``[1.16, 0.23]``), a product (``0.7 × 4 = 2.8``) or words (a token).

What the columns mean is decided later (:mod:`symattn.read.roles`); here each cell keeps its
text, its span and the numbers in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.numbers import parse_number
from symattn.read.arrays import Entry, Grid, scan_arrays
from symattn.read.blocks import Block
from symattn.read.notations import PLACEHOLDER_CELL, TABLE_RULE_NAMES
from symattn.read.numerals import PERCENT, percent, words_in
from symattn.read.source import Source

__all__ = ["Cell", "Table", "read_table", "text_tables"]

#: LaTeX rules at the start of a cell (after the ``\\`` that ended the row before)
_RULES: Final = re.compile(
    r"(?:\s*\\(?:" + "|".join(sorted(TABLE_RULE_NAMES)) + r")\b(?:\{[^{}]*\})?)+\s*"
)
_MARKUP: Final = re.compile(r"[$`*_\\]|\\text\{|\\mathbf\{")


@dataclass(frozen=True)
class Cell:
    """One cell: its span, its text (markup dropped), and its numbers (a single number has
    shape (), a vector shape (n,); None when the cell holds no number)."""

    start: int
    end: int
    text: str
    grid: Grid | None


@dataclass(frozen=True)
class Table:
    """A table: the words of its heading row and its body rows."""

    start: int
    end: int
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def entries(self) -> Iterator[Entry]:
        """Every number of the table's body."""
        for row in self.rows:
            for cell in row:
                if cell.grid is not None:
                    yield from (e for e in cell.grid.entries if e.written is not None)

    def column(self, j: int) -> list[Cell | None]:
        """The cells of column ``j`` (None where a row is shorter)."""
        return [row[j] if j < len(row) else None for row in self.rows]


def _cell(src: Source, a: int, b: int, limits: Limits) -> Cell:
    text = src.text
    raw = text[a:b]
    rule = _RULES.match(raw)
    if rule is not None:
        a, raw = a + rule.end(), raw[rule.end() :]  # ``\hline a``: the rule is no word
    words = _MARKUP.sub(" ", raw).replace("}", " ").strip()
    grids = scan_arrays(text, a, b, limits)
    if (
        len(grids) == 1
        and not text[a : grids[0].start].strip(" $`\\")
        and not text[grids[0].end : b].strip(" $`\\")
    ):
        return Cell(a, b, words, grids[0])
    if words in PLACEHOLDER_CELL.words:  # ``·``: an entry not written
        at = a + raw.index(words)
        return Cell(
            a, b, words, Grid(at, at + len(words), (Entry(words, at, None),), (), notation="table")
        )
    nums = list(words_in(text, a, b))
    if len(nums) == 1:
        g = scan_single(text, nums[0].start(), nums[0].end(), limits)
        if g is not None:
            return Cell(a, b, words, g)
    if len(grids) == 1:
        return Cell(a, b, words, grids[0])
    return Cell(a, b, words, None)


def scan_single(text: str, a: int, b: int, limits: Limits) -> Grid | None:
    """One number written at ``text[a:b]`` as an array of shape () (``97.3%``, with the sign
    after it: the percentage, 0.973)."""
    try:
        w = parse_number(text[a:b], limits=limits)
    except SymattnError:
        return None
    if b < len(text) and text[b] in PERCENT:
        w = percent(w)
        return Grid(a, b + 1, (Entry(w.text, a, w),), (), notation="table")
    return Grid(a, b, (Entry(text[a:b], a, w),), (), notation="table")


def read_table(src: Source, block: Block, limits: Limits) -> Table:
    """The table of ``block`` (its first row is the heading row)."""
    rows: list[tuple[Cell, ...]] = []
    header: tuple[str, ...] = ()
    for k, row in enumerate(block.cells):
        cells = tuple(_cell(src, a, b, limits) for a, b in row)
        if all(set(c.text) <= set("-: ") or c.text in TABLE_RULE_NAMES for c in cells):
            continue  # a Markdown separator row, or a LaTeX rule
        if k == 0 and not header:
            header = tuple(c.text for c in cells)
            if all(c.grid is None for c in cells):
                continue
            header = ()
        rows.append(cells)
    return Table(block.start, block.end, header, tuple(rows))


_CELL_GAP: Final = re.compile(r"\t+|\s{2,}")


def _split_cells(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """The cells of a plain row: text between tabs or runs of two or more spaces."""
    out = []
    pos = a
    for m in _CELL_GAP.finditer(text, a, b):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < b:
        out.append((pos, b))
    return [(x, y) for x, y in out if text[x:y].strip()]


def text_tables(src: Source, start: int, end: int, limits: Limits) -> list[Table]:
    """Tables written in plain text: a heading line of words and rows below it with as many
    cells (tabs, or two or more spaces between them), at least one of which holds numbers
    (``token\tQ\tK\tV`` over ``动物\t[0.44, -0.35]\t…``)."""
    text = src.text
    lines: list[tuple[int, int]] = []
    pos = start
    while pos < end:
        eol = text.find("\n", pos, end)
        eol = end if eol < 0 else eol
        lines.append((pos, eol))
        pos = eol + 1
    out: list[Table] = []
    i = 0
    while i < len(lines):
        head = _split_cells(text, *lines[i])
        if len(head) < 2 or any(next(words_in(text, x, y), None) for x, y in head):
            i += 1
            continue
        rows: list[tuple[Cell, ...]] = []
        j = i + 1
        while j < len(lines):
            cells = _split_cells(text, *lines[j])
            if len(cells) != len(head):
                break
            got = tuple(_cell(src, x, y, limits) for x, y in cells)
            if all(c.grid is None for c in got):
                break
            rows.append(got)
            j += 1
        if rows:
            header = tuple(_MARKUP.sub(" ", text[x:y]).strip() for x, y in head)
            out.append(Table(lines[i][0], lines[j - 1][1], header, tuple(rows)))
            i = j
        else:
            i += 1
    return out
