"""Tests of symattn.read.source: invisible characters removed, positions kept."""

from __future__ import annotations

import pytest

from symattn.read.notations import INVISIBLE
from symattn.read.source import Source, outside


@pytest.mark.parametrize("ch", sorted(INVISIBLE.chars), ids=lambda c: f"U+{ord(c):04X}")
def test_invisible_character_is_removed_and_columns_stay_true(ch: str) -> None:
    src = Source.of(f"a{ch}b\nx = 1{ch}{ch}.5 + 2\n")
    assert src.text == "ab\nx = 1.5 + 2\n"
    assert src.first_removed == (1, 2) and src.removed == 3
    two = src.text.index("2")
    assert src.position(two) == (2, 13)  # the column in the text as given


def test_nothing_removed_keeps_the_text() -> None:
    text = "plain\ntext\n"
    src = Source.of(text)
    assert src.text is text and src.first_removed is None and src.removed == 0


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_and_columns(newline: str) -> None:
    src = Source.of(f"ab{newline}cde{newline}f")
    assert src.lines == 3
    at = src.text.index("d")
    assert src.position(at) == (2, 2) and src.line_of(at) == 2
    assert src.line_text(2) == "cde" and src.line_text(3) == "f"


def test_position_is_clamped() -> None:
    src = Source.of("ab")
    assert src.position(-5) == (1, 1) and src.position(99) == (1, 3)


def test_linear_in_many_invisible_characters() -> None:
    text = ("1\u200b" * 200_000) + "\n"
    src = Source.of(text)
    assert len(src.text) == 200_001 and src.position(len(src.text) - 1) == (1, 400_001)


@pytest.mark.parametrize(
    ("a", "b", "cuts", "parts"),
    [
        (0, 10, [], [(0, 10)]),
        (0, 10, [(2, 4), (6, 7)], [(0, 2), (4, 6), (7, 10)]),
        (3, 8, [(0, 4), (7, 12)], [(4, 7)]),
        (0, 5, [(0, 5)], []),
        (5, 9, [(0, 2), (3, 4)], [(5, 9)]),
        (0, 6, [(1, 3), (2, 4)], [(0, 1), (4, 6)]),
    ],
)
def test_outside_cuts_the_spans_out(
    a: int, b: int, cuts: list[tuple[int, int]], parts: list[tuple[int, int]]
) -> None:
    assert outside(a, b, cuts)[0] == parts


def test_outside_resumes_where_the_last_range_left_off() -> None:
    cuts = [(1, 2), (5, 6), (9, 10)]
    first, k = outside(0, 4, cuts)
    assert first == [(0, 1), (2, 4)] and k == 0
    second, k = outside(4, 8, cuts, k)
    assert second == [(4, 5), (6, 8)] and k == 1


def test_markdown_in_a_template_string_has_its_backticks_unescaped() -> None:
    """A JS/TS lesson holds Markdown in a template string, every backtick escaped: a text
    whose fences are written so reads as that Markdown, positions still the author's."""
    text = "markdown: `Use \\`d_k = 2\\`:\n\\`\\`\\`\nsum: 1 + 2 = 3\n\\`\\`\\`\n`,\n"
    src = Source.of(text)
    assert src.text == "markdown: `Use `d_k = 2`:\n```\nsum: 1 + 2 = 3\n```\n`,\n"
    at = src.text.index("sum")
    assert src.position(at) == (3, 1) and text[src.original(at)] == "s"


@pytest.mark.parametrize("text", ["a \\` b", "Use \\`code\\` here\n", "    \\`\\` two\n"])
def test_an_escaped_backtick_without_an_escaped_fence_is_kept(text: str) -> None:
    """In Markdown ``\\``` is a backtick that opens no code: kept, unless fences are escaped."""
    assert Source.of(text).text == text
