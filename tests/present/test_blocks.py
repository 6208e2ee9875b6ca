"""Tests of symattn.present.blocks: consecutive equations of a step share one left edge."""

from __future__ import annotations

import re

from symattn.present.blocks import share_edges
from symattn.present.document import build_document, meta_from_spec
from symattn.present.layout import MAX_BLOCK_ROWS, chain_eq, side
from symattn.present.model import DocOptions, Line, Note, msg
from symattn.present.render import render_latex, render_markdown
from symattn.spec import loads_spec


def _eq(lhs: str, *terms: str) -> Line:
    return Line.of(None, chain_eq(lhs, [side("=", *terms)]))


def test_consecutive_equations_become_one_aligned_block() -> None:
    lines = (_eq("o_{1,1}", "1", "2"), _eq("o_{1,2}", "3", "4"))
    (merged,) = share_edges(lines)
    assert merged.math == (
        "\\begin{aligned}\no_{1,1} &= 1 + 2 \\\\\no_{1,2} &= 3 + 4\n\\end{aligned}"
    )


def test_a_caption_a_callout_and_a_matrix_end_a_block() -> None:
    note = Note("truncated", "error", msg("errata_label_error"), ())
    a, b, c = _eq("a", "1"), _eq("b", "2"), _eq("c", "3")
    captioned = Line.of(msg("output_result"), chain_eq("d", [side("=", "4")]))
    assert [x.math for x in share_edges((a, captioned))] == [a.math, captioned.math]
    noted = Line(None, a.math, notes=(note,), eq=a.eq)
    out = share_edges((noted, b, c))
    assert len(out) == 2 and out[0] is noted and out[0].notes == (note,)
    assert "b &= 2" in out[1].math and "c &= 3" in out[1].math
    matrix = Line(None, "M = \\begin{bmatrix} 1 \\end{bmatrix}")  # no equation to align
    assert len(share_edges((a, matrix, b))) == 3


def test_a_block_that_would_be_too_wide_or_too_tall_is_split() -> None:
    wide = _eq("x_{" + "1," * 20 + "1}", "1")
    long = _eq("y", *["1.2345"] * 8)
    assert len(share_edges((wide, long))) == 2
    many = tuple(_eq(f"z_{{{k}}}", "1") for k in range(MAX_BLOCK_ROWS + 1))
    assert [m.math.count("&=") for m in share_edges(many)] == [MAX_BLOCK_ROWS, 0]


SPEC = """
schema = 1
lang = "en"
tokens = ["a", "b", "c"]
d_k = 2
[inputs]
Q = [[0.58, -2], [0, 1], [1, 1]]
K = [[1, -2], [0, 1], [1, 1]]
V = [[1, 2], [3, 4], [5, 6]]
[claims.rows.c]
exp = [0.5, 2.0281, 4.1133]
"""


def test_steps_of_a_rendered_page_share_edges_and_keep_their_callouts() -> None:
    spec = loads_spec(SPEC)
    result = spec.run()
    doc = build_document(result, meta_from_spec(spec), DocOptions(queries=("b",)))
    md = render_markdown(doc)
    out = re.search(r"### Step 5.*?\$\$\n(.*?)\n\$\$", md, re.S)
    assert out is not None and out.group(1).startswith("\\begin{aligned}")
    assert "o_{2,1} &= " in out.group(1) and "o_{2,2} &= " in out.group(1)
    assert "\\begin{aligned}\ns_{2,1} &= " in render_latex(doc)
    # the model keeps one line per equation (the JSON model, errata placement)
    (row,) = doc.parts[0].rows
    outputs = row.step("outputs")
    assert outputs is not None and len(outputs.lines) == 3
    # an erratum on the first exponential stays right after it: the block is split there
    checked = build_document(result, meta_from_spec(spec), DocOptions(queries=("c",)), check=True)
    md = render_markdown(checked)
    exps = md[md.index("### Step 3") : md.index("Their sum")]
    first, rest = exps.split("> **Note**")
    assert "e^{s_{3,1}}" in first and "e^{s_{3,2}}" not in first
    assert "e^{s_{3,2}} &= " in rest and "e^{s_{3,3}} &= " in rest
