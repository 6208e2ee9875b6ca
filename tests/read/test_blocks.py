"""Tests of symattn.read.blocks: documents cut into blocks by real parsers."""

from __future__ import annotations

import time

import pytest

from symattn.read.blocks import blocks, format_of
from symattn.read.source import Source


def kinds(text: str, fmt: str) -> list[tuple[str, str]]:
    src = Source.of(text)
    return [(b.kind, src.text[b.start : b.end].strip()) for b in blocks(src, fmt)]


@pytest.mark.parametrize(
    ("path", "text", "fmt"),
    [
        ("a.md", "", "markdown"),
        ("a.tex", "", "latex"),
        ("a.txt", "# not markdown", "text"),
        ("<text>", "\\begin{document}x\\end{document}", "latex"),
        ("<text>", "# Title\n\ntext", "markdown"),
        ("<text>", "just text", "text"),
    ],
)
def test_format_of(path: str, text: str, fmt: str) -> None:
    assert format_of(path, text) == fmt


def test_markdown_blocks() -> None:
    text = (
        "# Title\n\nSome $x = 1$ prose.\n\n$$\ny = 2\n$$\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "```python\nq = [1, 2]\n```\n"
    )
    got = kinds(text, "markdown")
    assert [k for k, _ in got] == ["heading", "prose", "math", "table", "code"]
    src = Source.of(text)
    prose = blocks(src, "markdown")[1]
    ((a, b),) = prose.math
    assert src.text[a:b] == "x = 1"


def test_markdown_fence_with_an_info_string_that_is_content() -> None:
    text = "```input = [1, 2]\n[3, 4]\n```\n"
    (b,) = blocks(Source.of(text), "markdown")
    assert b.kind == "code" and "input = [1, 2]" in Source.of(text).text[b.start : b.end]


def test_latex_blocks() -> None:
    text = (
        "\\documentclass{article}\n\\begin{document}\nProse with $a = 1$.\n\n"
        "\\[ b = 2 \\]\n\n\\begin{tabular}{cc} 1 & 2 \\\\ \\end{tabular}\n\n"
        "\\begin{verbatim}\nx = 3\n\\end{verbatim}\n% comment 4\n\\end{document}\n"
    )
    got = [k for k, _ in kinds(text, "latex")]
    assert "math" in got and "table" in got and "code" in got and "prose" in got
    assert not any("comment 4" in t for _, t in kinds(text, "latex"))


def test_latex_nested_too_deep_is_read_as_paragraphs() -> None:
    text = "{" * 200 + "x = 1" + "}" * 200 + "\n"
    assert [k for k, _ in kinds(text, "latex")] == ["prose"]


def test_plain_text_paragraphs_and_indented_lines_stay_prose() -> None:
    text = "one\n\n    q = [1, 2]\n\nthree\n"
    assert [k for k, _ in kinds(text, "text")] == ["prose", "prose", "prose"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a script saved as text: one code block
        ("# source: a script\nimport numpy as np\nQ = np.eye(2)\nprint(Q @ Q.T)\n", ["code"]),
        # one statement alone is no program
        ("Q = [1, 2]\n", ["prose"]),
        # prose beside the arrays: no program
        ("Q = [1, 2]\n\nthe weights are 0.5 and 0.5\n", ["prose", "prose"]),
        # expressions only (a printout that happens to parse) are no program
        ("[1, 2]\n[3, 4]\n", ["prose"]),
        # formulas that parse but call nothing are no program
        ("[0.5, 0.5]*[[1, 0], [0, 1]]\n\n结果=[0.5, 0.5]\n", ["prose", "prose"]),
    ],
)
def test_a_plain_text_that_is_a_python_program_is_one_code_block(
    text: str, expected: list[str]
) -> None:
    assert [k for k, _ in kinds(text, "text")] == expected


def test_positions_are_exact() -> None:
    text = "intro\n\n$$\nz = 3\n$$\n"
    src = Source.of(text)
    (_, m) = blocks(src, "markdown")
    assert src.position(src.text.index("z", m.start)) == (4, 1)


def test_latex_delimiters_in_markdown() -> None:
    # held-out en40: notes that write \[ … \] right under a line of prose, and \( … \)
    text = "Assume:\n\\[\nX = 1 + 1\n\\]\n- **Heads:** \\(h = 2\\) and $d = 4$.\n"
    src = Source.of(text)
    got = list(blocks(src, "markdown"))
    assert [b.kind for b in got] == ["prose", "math", "prose"]
    assert src.text[got[1].start : got[1].end].strip() == "X = 1 + 1"
    assert [src.text[a:b] for a, b in got[2].math] == ["h = 2", "d = 4"]
    one_line = list(blocks(Source.of("\\[ y = 2 \\]\n"), "markdown"))
    assert [b.kind for b in one_line] == ["math"]
    # unclosed, or closed only after a blank line: prose, as with $$
    for text in ("\\[\nx = 1\n", "\\[\nx = 1\n\nx = 2\n\\]\n", "a \\(b\n"):
        assert "math" not in [b.kind for b in blocks(Source.of(text), "markdown")]
        assert not any(b.math for b in blocks(Source.of(text), "markdown"))


@pytest.mark.parametrize(
    ("text", "math"),
    [
        # a list item's continuation line is indented in the source, not in the content
        ("- Output $a =\n  (1, 2)$.\n", "a =\n  (1, 2)"),
        ("1. Row $s = (1,\n   2)$ and $t = 3$\n", "s = (1,\n   2)"),
        # a block quote's lines start with ``>``
        ("> quote $x =\n> 1$ y\n", "x =\n> 1"),
        ("plain $x =\ny$ end\n", "x =\ny"),
    ],
)
def test_inline_math_spanning_lines_of_a_container(text: str, math: str) -> None:
    src = Source.of(text)
    (b,) = blocks(src, "markdown")
    assert src.text[b.math[0][0] : b.math[0][1]] == math


def test_an_unclosed_paren_delimiter_is_looked_for_once() -> None:
    # a paragraph of \( without \): linear (each one would otherwise search to the end)
    text = "\\(" * 20_000 + "x\n"
    start = time.process_time()
    got = list(blocks(Source.of(text), "markdown"))
    assert time.process_time() - start < 2.0
    assert [b.kind for b in got] == ["prose"] and not got[0].math


def test_an_html_block_gives_its_tables_and_its_runs_of_text() -> None:
    text = (
        "<div>\n  <p>点积<b>分数</b>：<br>s = 0.66<br>t = 1.06</p>\n"
        "  <table>\n    <tr><th>词</th><th>Q</th></tr>\n"
        "    <tr><td>我</td><td>[1.0, 0.2]</td></tr>\n  </table>\n"
        "  <script>var x = [1, 2];</script>\n</div>\n"
    )
    src = Source.of(text)
    got = [(b.kind, text[b.start : b.end]) for b in blocks(src, "markdown")]
    assert [g for g in got if g[0] == "prose"] == [
        ("prose", "点积"),
        ("prose", "分数"),
        ("prose", "："),
        ("prose", "s = 0.66"),
        ("prose", "t = 1.06"),
    ]
    (table,) = [b for b in blocks(src, "markdown") if b.kind == "table"]
    assert [[text[a:b] for a, b in row] for row in table.cells] == [
        ["词", "Q"],
        ["我", "[1.0, 0.2]"],
    ]


def test_an_indented_block_of_markup_is_html_not_code() -> None:
    # a page's source pasted indented (a saved page, exported notes): its table is read
    text = (
        "        <h2>Scores</h2>\n\n"
        "        <table>\n          <tr><th>I</th><td>2.876</td></tr>\n        </table>\n"
    )
    got = blocks(Source.of(text), "markdown")
    assert "code" not in [b.kind for b in got]
    (table,) = [b for b in got if b.kind == "table"]
    assert [[text[a:b] for a, b in row] for row in table.cells] == [["I", "2.876"]]


@pytest.mark.parametrize(
    "code",
    [
        "    x = 1 < 2\n    y = [3, 4]\n",  # code that compares
        "    <not closed\n    a = 1\n",  # a stray angle bracket
        "    print('<b>')\n",  # markup inside code is code
    ],
)
def test_an_indented_block_of_code_stays_code(code: str) -> None:
    assert [b.kind for b in blocks(Source.of(code), "markdown")] == ["code"]


@pytest.mark.parametrize("info", ["math", "latex", "tex"])
def test_a_fence_of_math_is_display_math(info: str) -> None:
    text = f"```{info}\n\\begin{{align*}}\n& = \\frac{{1 + 4}}{{2}} \\\\\n& = 2.5\n\\end{{align*}}\n```\n"
    (b,) = blocks(Source.of(text), "markdown")
    assert b.kind == "math" and "\\begin{align*}" in text[b.start : b.end]


def test_a_latex_fence_with_a_document_is_code() -> None:
    text = "```latex\n\\documentclass{article}\n\\begin{document}\nx\n\\end{document}\n```\n"
    assert [b.kind for b in blocks(Source.of(text), "markdown")] == ["code"]
