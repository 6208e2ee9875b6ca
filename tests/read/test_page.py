"""Tests of symattn.read.page: the reading's state and the budget of a text."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.read.arrays import scan_arrays
from symattn.read.blocks import Block, BlockKind
from symattn.read.page import Reading, heading_level, operand
from symattn.read.source import Source

from ..conftest import english
from .texts import read_text

MAX_FORMULAS = DEFAULT_LIMITS.max_formulas
MAX_MATH = DEFAULT_LIMITS.max_math_length


@pytest.mark.parametrize(
    ("text", "level"),
    [("# A", 1), ("## Query I", 2), ("\\section*{A}", 1), ("\\subsubsection{B}", 3), ("words", 3)],
)
def test_heading_level(text: str, level: int) -> None:
    assert heading_level(text) == level


@pytest.mark.parametrize(("text", "is_operand"), [("0.39 * [0, 1]", True), ("w = [0, 1]", False)])
def test_operand(text: str, is_operand: bool) -> None:
    (g,) = scan_arrays(text, 0, len(text), DEFAULT_LIMITS)
    assert operand(text, g) == is_operand


class _Counted(list[Block]):
    """A list of blocks that counts how often one is looked at."""

    seen = 0

    def __getitem__(self, k):  # type: ignore[no-untyped-def]
        _Counted.seen += 1
        return super().__getitem__(k)


def test_the_section_of_every_block_is_found_without_walking_back() -> None:
    """The query a section's heading names, asked for each of n blocks after it, looks at
    O(n) blocks, not n^2/2 (a text of thousands of paragraphs under one heading, or none)."""
    n = 3000
    text = "## Query love\n\n" + "words\n\n" * n
    blocks = _Counted([Block(BlockKind.HEADING, 0, 13)])
    blocks += [Block(BlockKind.PROSE, 15 + 7 * i, 20 + 7 * i, section=1) for i in range(n)]
    r = Reading(Source.of(text), blocks)
    _Counted.seen = 0
    assert all(r.section_query(i) == "love" for i in range(n + 1))
    assert _Counted.seen <= 3 * n


def test_the_budget_of_formulas_stops_reading_and_says_so() -> None:
    text = "".join(f"x_{i} = {i} + 1 = {i + 1}\n\n" for i in range(MAX_FORMULAS + 50))
    r = read_text(text, "text")
    assert MAX_FORMULAS <= len(r.chains) < MAX_FORMULAS + 50
    assert r.skipped and f"max_formulas={MAX_FORMULAS}" in english(r.skipped[-1].reason)
    assert "Limits(max_formulas=...)" in english(r.skipped[-1].reason)
    assert r.end < len(r.src.text)


def test_the_budget_of_formulas_is_a_limit() -> None:
    text = "".join(f"x_{i} = {i} + 1 = {i + 1}\n\n" for i in range(10))
    r = read_text(text, "text", Limits(max_formulas=3))
    assert len(r.chains) == 3
    assert "max_formulas=3" in english(r.skipped[-1].reason)
    assert len(read_text(text, "text", Limits(max_formulas=10)).chains) == 10


def test_the_budget_of_formula_characters() -> None:
    line = "$$ " + "+".join(["1"] * 9_000) + " = 9000 $$\n\n"
    r = read_text(line * (MAX_MATH // 18_000 + 3))
    assert sum(len(ln.text) for c in r.chains for ln in c.links) < MAX_MATH + 20_000
    assert r.skipped and "max_math_length=100000" in english(r.skipped[-1].reason)


def test_the_budget_of_formula_characters_is_a_limit() -> None:
    text = "".join(f"$$ x_{i} = {i} + 1 = {i + 1} $$\n\n" for i in range(10))
    r = read_text(text, "markdown", Limits(max_math_length=30))
    assert 0 < len(r.chains) < 10
    assert "max_math_length=30" in english(r.skipped[-1].reason)


def test_a_list_items_lead_in_is_the_paragraph_above_the_list() -> None:
    reading = read_text(
        "Row 1: the first query\n\n- exp ≈ 4.11\n- Sum ≈ 8.22\n- Weights ≈ [0.5, 0.5]\n"
    )
    last = len(reading.blocks) - 1
    assert reading.lead_in(last).startswith("Row 1")
    assert reading.lead_in(0) == ""  # the paragraph itself is no item


def test_a_paragraph_after_prose_has_no_lead_in() -> None:
    reading = read_text("Row 1: the first query\n\nWeights ≈ [0.5, 0.5]\n")
    assert reading.lead_in(len(reading.blocks) - 1) == ""
