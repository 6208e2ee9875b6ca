"""Tests of symattn.read.latex: LaTeX cut into blocks with pylatexenc."""

from __future__ import annotations

import pytest

from symattn.read import latex
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


def _walked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lengths of the pieces given to the walker (recorded as they are walked)."""
    sizes: list[int] = []
    original = latex.math_nodes

    def recording(text: str, start: int = 0) -> list[latex.Node]:
        sizes.append(len(text))
        return original(text, start)

    monkeypatch.setattr(latex, "math_nodes", recording)
    return sizes


def test_a_long_document_is_walked_in_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: the walker costs more per character the longer its input; a long document
    is walked in segments of bounded size (a size ratio, not a timing), every formula found."""
    para = "The weight $w = 0.5$ holds, and \\[ a = 1 + 1 = 2 \\]\n\n"
    n = 20 * latex.SEGMENT // len(para)
    walked = _walked(monkeypatch)
    found = list(latex_blocks(Source.of(para * n)))
    assert max(walked) <= latex.SEGMENT + len(para) and sum(walked) == len(para * n)
    assert sum(len(b[3]) for b in found if b[0] == "prose") == n  # every inline formula
    assert sum(1 for b in found if b[0] == "math") == n


def test_prose_without_math_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    walked = _walked(monkeypatch)
    text = "Plain words about attention.\n\n" * (5 * latex.SEGMENT // 30)
    found = list(latex_blocks(Source.of(text)))
    assert walked == [] and {b[0] for b in found} == {"prose"}


@pytest.mark.parametrize(
    ("opening", "closing"),
    [("\\[", "\\]"), ("\\textbf{", "}"), ("\\begin{proof}", "\\end{proof}"), ("$$", "$$")],
)
def test_no_segment_ends_inside_a_group_or_display_math(opening: str, closing: str) -> None:
    """A blank line inside braces, an environment or display math is no place to cut."""
    filler = "Words.\n\n" * (latex.SEGMENT // 8 - 2)
    text = filler + opening + " x \n\n y " + closing + "\n\n" + filler
    starts = [a for a, _ in latex.segments(text, 0, len(text))]
    at, end = text.index(opening), text.index(closing, text.index(opening) + len(opening))
    assert len(starts) > 1 and not any(at < s <= end for s in starts)


@pytest.mark.parametrize(
    "hostile",
    [
        "\\begin{align}\n" + "a_1 &= 1 + 1 \\\\\n\n" * 40_000,  # an environment left open
        "{" + "x\n\n" * 200_000,  # a brace left open
        "x" * 400_000,  # one line, no blank line
    ],
    ids=["open-environment", "open-brace", "one-line"],
)
def test_what_is_left_open_is_still_cut(hostile: str) -> None:
    pieces = list(latex.segments(hostile, 0, len(hostile)))
    assert max(b - a for a, b in pieces) <= latex.SEGMENT_MAX + latex.SEGMENT
    assert pieces[0][0] == 0 and pieces[-1][1] == len(hostile)
    assert all(b == c for (_, b), (c, _) in zip(pieces, pieces[1:], strict=False))
