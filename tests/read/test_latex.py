"""Tests of symattn.read.latex: LaTeX cut into blocks with pylatexenc."""

from __future__ import annotations

from symattn.read.latex import latex_blocks, math_nodes, too_deep
from symattn.read.source import Source


def test_preamble_is_not_read() -> None:
    text = "\\newcommand{\\x}{1 = 2}\n\\begin{document}\n$y = 3$\n\\end{document}\n"
    got = list(latex_blocks(Source.of(text)))
    assert all(a >= text.index("\\begin{document}") for _, a, _, _, _, _ in got)


def test_inline_math_spans_in_a_paragraph() -> None:
    text = "A $x = 1$ and \\(y = 2\\).\n"
    ((kind, a, b, math, _, _),) = list(latex_blocks(Source.of(text)))
    assert kind == "prose"
    assert [text[x:y] for x, y in math] == ["x = 1", "y = 2"]


def test_table_cells() -> None:
    text = "\\begin{tabular}{cc}\n a & b \\\\\n 1 & 2 \\\\\n\\end{tabular}\n"
    ((kind, _, _, _, cells, _),) = list(latex_blocks(Source.of(text)))
    assert kind == "table"
    assert [[text[x:y].strip() for x, y in row] for row in cells if row] == [["a", "b"], ["1", "2"]]


def test_too_deep() -> None:
    assert too_deep("{" * 100, 60) and not too_deep("{{x}}", 60)


def test_math_nodes_have_offsets() -> None:
    text = "a $b$ c \\[d\\] \\begin{verbatim}e\\end{verbatim} % f"
    got = [(kind, text[a:b]) for kind, a, b, _, _, _ in math_nodes(text)]
    assert got == [("inline", "b"), ("display", "d"), ("code", "e"), ("comment", "% f")]


def test_math_nodes_offsets_are_shifted_by_start() -> None:
    ((_, a, b, _, outer_a, outer_b),) = math_nodes("$x$", 10)
    assert (a, b, outer_a, outer_b) == (11, 12, 10, 13)
