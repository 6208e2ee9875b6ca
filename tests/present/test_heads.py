"""Tests of symattn.present.heads: multi-head attention, each head and then W^O."""

from __future__ import annotations

import numpy as np

from symattn import multi_head_attention

from .examples import all_lines, doc_for, doc_of, rows


def test_two_heads_each_with_its_part_and_the_heads_combined() -> None:
    doc = doc_of("two_heads")
    inputs, h1, h2 = doc.parts
    assert inputs.heading is None and inputs.projection_lines and not inputs.rows
    assert [m.key for m in inputs.intro][-1] == "intro_heads"
    assert [p.heading.key for p in (h1, h2) if p.heading] == ["h_head", "h_head"]
    assert h1.depth == h2.depth == 1
    assert h1.data[0].math.startswith("Q^{(1)} = ") and h2.data[0].math.startswith("Q^{(2)} = ")
    assert [m.key for m in h1.intro] == ["head_columns"]
    assert [r.token for r in rows(doc)] == ["cat", "cat"]
    assert doc.combine is not None
    concat, out = doc.combine.lines
    assert concat.math.startswith(r"H = \mathrm{Concat}(O^{(1)}, O^{(2)}) \approx")
    assert out.math.startswith(r"Y = H W^{O} \approx")
    (row,) = doc.combine.rows
    assert row.token == "cat" and row.lines[0].math.startswith(r"\begin{aligned}")


def test_symbols_of_each_head_carry_the_head() -> None:
    doc = doc_of("two_heads")
    h2 = doc.parts[2]
    text = "\n".join(line.math for r in h2.rows for st in r.steps for line in st.lines)
    assert "q^{(2)}_{2} \\cdot k^{(2)}_{1}" in text and "w^{(2)}_{2,1}" in text
    assert "Z^{(2)}_{2}" in text


def test_without_w_o_the_output_is_the_concatenation() -> None:
    x = np.eye(3)
    r = multi_head_attention(x, np.eye(3, 4), np.eye(3, 4), np.eye(3, 4), num_heads=2)
    doc = doc_for(r, queries=("1",))
    assert doc.combine is not None and doc.combine.rows == ()
    assert [m.key for m in doc.combine.intro] == ["combine_no_wo"]
    assert len(list(all_lines(doc))) > 10
