"""Tests of symattn.read.reading: what the blocks of a text hold."""

from __future__ import annotations

from symattn.config import Limits

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
