"""Tests of symattn.read.reading: what the blocks of a text hold."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from symattn.config import Limits
from symattn.read import reading
from symattn.read.blocks import Block
from symattn.read.census import Census
from symattn.read.messages import not_checked
from symattn.read.reading import Reading, read
from symattn.read.ruler import Rule
from symattn.read.source import Source

from ..conftest import english
from .texts import read_text


def test_prose_math_tables_and_code_are_each_read() -> None:
    text = (
        "Let $x = 1 + 1 = 2$.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "```python\nQ = [[1, 0]]\nprint(Q)\n```\n\n```\n[[1 0]]\n```\n"
    )
    r = read_text(text)
    assert [c.text for c in r.chains] == ["x = 1 + 1 = 2"]
    assert len(r.tables) == 1
    assert [p.how for p in r.grids] == ["code", "text"] or {p.how for p in r.grids} >= {"code"}
    assert r.outputs and r.printed  # the last block is what the code printed


def test_inline_pieces_joined_with_a_token_name() -> None:
    r = read_text("$k_1$ (Thinking) $= [1, 2]$\n")
    assert [c.text for c in r.chains] == ["k_1 (Thinking) = [1, 2]"]


def test_array_named_by_the_words_before_inline_math() -> None:
    r = read_text("当前注意力权重： $[0.82, 0.18]$\n")
    (p,) = r.grids
    assert p.grid.label == "当前注意力权重"


def test_a_matrix_in_inline_math_is_the_right_side_of_the_prose_before_it() -> None:
    text = (
        "Q = $\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}$，K 同。\n\n"
        "Scaled = Scores / √2 ≈ $\\begin{pmatrix} 0.707 & 0 \\\\ 0 & 0.707 \\end{pmatrix}$。\n"
    )
    r = read_text(text)
    texts = [c.text for c in r.chains]
    assert texts[0].startswith("Q = ") and "pmatrix" in texts[0]
    assert texts[1].startswith("Scaled = Scores / √2 ≈ ") and "0.707" in texts[1]
    assert len(texts) == 2  # (the prose is not read again as a formula of its own)
    assert r.chains[1].links[0].where.at(0) == text.index("Scaled")  # (its place in the source)


def test_only_the_last_clause_of_the_prose_is_the_left_side() -> None:
    r = read_text("假设输入为 X，Q = $\\begin{pmatrix} 1 & 0 \\end{pmatrix}$。\n")
    assert [c.text for c in r.chains] == ["Q = \\begin{pmatrix} 1 & 0 \\end{pmatrix}"]


@pytest.mark.parametrize(
    "text",
    [
        "其中 $\\begin{pmatrix} 1 & 0 \\end{pmatrix}$ 是输入。\n",  # (no relation before it)
        # (not one matrix alone: two of them, or a formula of its own)
        "P = $\\begin{pmatrix} 1 \\end{pmatrix} \\begin{pmatrix} 2 \\end{pmatrix}$\n",
        "so = $x + \\begin{pmatrix} 1 & 0 \\end{pmatrix}$\n",
    ],
)
def test_prose_is_no_left_side_of_other_inline_math(text: str) -> None:
    r = read_text(text)
    assert not any(c.text.startswith(("其中", "P =", "so =")) for c in r.chains)


def test_latex_environments_in_markdown_prose_are_math() -> None:
    r = read_text("\\begin{aligned} s &= 1 + 2 = 3 \\end{aligned}\n")
    assert [c.text for c in r.chains] == ["s = 1 + 2 = 3"]


def test_context_reaches_back_to_the_heading() -> None:
    text = "## Attention weights\n\nSome words.\n\n```\n[0.5, 0.5]\n```\n"
    r = read_text(text)
    block = len(r.blocks) - 1
    assert "Attention weights" in r.context(block, r.blocks[block].start)


def test_a_block_over_the_limit_is_not_read() -> None:
    r = read_text("x = 1 + 1 = 2\n", "text", Limits(max_file_bytes=4))
    assert r.chains == []


def _census_of(text: str, limits: Limits) -> tuple[Reading, Census]:
    src = Source.of(text)
    census = Census.of(src)
    return read(src, "markdown", census, limits), census


@pytest.mark.parametrize("fmt", ["markdown", "latex", "text"])
def test_the_reading_budget_parses_no_further_and_says_so(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``max_read_length``: a text past it is parsed up to the end of the line the budget
    ends in; the rest is said to be not read, naming the limit, and its numbers are counted
    with that reason."""
    text = "".join(f"Paragraph {i}: the weight is 0.5, the score 3.\n\n" for i in range(500))
    limits = Limits(max_read_length=1000)
    parsed: list[int] = []
    original = reading.iter_blocks

    def recording(src: Source, fmt: str, end: int = -1) -> Iterator[Block]:
        parsed.append(end)
        return original(src, fmt, end)

    monkeypatch.setattr(reading, "iter_blocks", recording)
    src = Source.of(text)
    census = Census.of(src)
    r = read(src, fmt, census, limits)
    assert parsed == [text.index("\n", 1000) + 1] and r.end == parsed[0]
    assert all(b.end <= r.end for b in r.blocks)
    (skipped,) = r.skipped
    assert "max_read_length=1000" in english(skipped.reason) and skipped.line == 45
    assert skipped.reason.params["what"] == not_checked("rest-text")
    assert skipped.text.startswith("Paragraph 22:")
    cov = census.coverage()
    (beyond,) = [n for reason, n in cov.not_read if reason == skipped.reason]
    assert beyond == 3 * text[r.end :].count("Paragraph")  # (i, 0.5 and 3 on each line after)


def test_a_budget_spent_inside_a_block_says_where() -> None:
    """A code block of 300 arrays with a budget of 100: reading stops at the 101st
    statement, and the rest of the block (and of the text) is said to be not read from
    there, naming the limit (not "code that computes nothing")."""
    code = "".join(f"x{i} = [{i}, 0.5]\n" for i in range(300))
    text = "```python\n" + code + "```\n"
    r, census = _census_of(text, Limits(max_formulas=100))
    (skipped,) = r.skipped
    assert "max_formulas=100" in english(skipped.reason)
    assert r.cut == text.index("x100 =") and skipped.line == 102
    assert len(r.statements) == 100  # (parsed as asked for: no further)
    assert [n for m, n in census.coverage().not_read if m == skipped.reason] == [2 * 200]


def test_the_reading_rules_are_one_ordered_list() -> None:
    names = reading.READERS.names()
    assert names.index("inline-math") < names.index("latex-in-prose") < names.index("text-lines")
    assert {"display-math", "table", "code"} <= set(names)
    # every kind of block has a rule that reads it
    for kind in ("prose", "heading", "math", "table", "code"):
        assert any(r.reads(kind) for r in reading.READERS.rules), kind


def test_a_rule_added_after_another_reads_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def note(s: reading.BlockState) -> bool:
        seen.append(s.text[s.b.start : s.b.end].strip())
        return False

    extra = reading.READERS.after("text-tables", Rule("note", note, frozenset({"prose"})))
    monkeypatch.setattr(reading, "READERS", extra)
    read_text("Some prose, 1 + 1 = 2.\n")
    assert seen == ["Some prose, 1 + 1 = 2."]


def test_the_label_of_an_inline_array_starts_after_the_array_before_it() -> None:
    # (fresh en74: the words before the first array name it, not the second)
    r = read_text('The output for "math" (Row 3: $[3.507, 4.506]$) is near the Value ($[5, 6]$).\n')
    first, second = (p.grid.label for p in r.grids)
    assert "output" in first and "output" not in second and "Value" in second


def test_display_math_that_starts_with_a_relation_continues_the_block_before() -> None:
    r = read_text("$$[0.5(1) + 0.5(3)]$$\n$$= [0.5 + 1.5]$$\n$$= [2]$$\n\n$$x = 1$$\n")
    assert [c.text for c in r.chains] == ["[0.5(1) + 0.5(3)] = [0.5 + 1.5] = [2]", "x = 1"]


def test_display_math_after_prose_starts_a_chain_of_its_own() -> None:
    r = read_text("$$a = 1$$\n\nso\n\n$$= 2$$\n$$b = 3$$\n")
    assert [c.text for c in r.chains] == ["a = 1", "= 2", "b = 3"]
