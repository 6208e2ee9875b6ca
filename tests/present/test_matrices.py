"""Tests of symattn.present.matrices: the stages of one attention as matrices."""

from __future__ import annotations

import numpy as np

from symattn import scaled_dot_product_attention
from symattn.present.matrices import HEATMAP_MAX

from .examples import doc_for, doc_of


def test_unmasked_stages_exact_then_rounded() -> None:
    part = doc_of("thinking_machines").parts[0]
    maths = [line.math for line in part.matrices]
    assert maths[0].startswith("Q K^{T} = ") and "5 & 2" in maths[0]
    assert (
        maths[1].startswith(r"\frac{Q K^{T}}{\sqrt{d_k}} \approx") and "3.5355 & 1.4142" in maths[1]
    )
    assert maths[2].startswith(r"A = \mathrm{softmax}") and "0.8930 & 0.1070" in maths[2]
    assert maths[3].startswith(r"O = A V \approx") and "12.1408 & 22.1408" in maths[3]
    assert part.mask_lines == ()


def test_masked_entries_are_minus_infinity_from_the_start() -> None:
    part = doc_of("causal_four_tokens").parts[0]
    (mask,) = part.mask_lines
    assert mask.math.startswith("M = ") and r"0 & -\infty & -\infty & -\infty" in mask.math
    maths = [line.math for line in part.matrices]
    # the raw scores first, as on unmasked pages (issue 22), then the mask applied
    assert maths[0].startswith("Q K^{T} = ") and r"-\infty" not in maths[0]
    assert maths[1].startswith(r"\frac{Q K^{T}}{\sqrt{d_k}} + M \approx")
    assert r"0.7071 & -\infty & -\infty & -\infty" in maths[1]
    assert r"1.0000 & 0 & 0 & 0" in maths[2]


def test_large_matrices_are_summarised_with_a_sentence() -> None:
    x = np.arange(40.0).reshape(20, 2) / 40
    doc = doc_for(scaled_dot_product_attention(x, x, x), queries=("1",))
    part = doc.parts[0]
    assert [m.key for m in part.matrices_intro] == ["matrices_summarised"]
    assert all(r"\vdots" in line.math for line in part.matrices)


def test_heatmap_marks_masked_cells_and_keeps_the_rounded_numbers() -> None:
    h = doc_of("causal_four_tokens").parts[0].heatmap
    assert h is not None
    assert h.masked[0] == (False, True, True, True) and h.cells[0] == ("1", "", "", "")
    assert h.shades[1][1] > h.shades[1][0] and h.rows_hidden == h.cols_hidden == 0
    x = np.ones((30, 2))
    big = doc_for(scaled_dot_product_attention(x, x, x), queries=("1",)).parts[0].heatmap
    assert big is not None and len(big.cells) == HEATMAP_MAX and big.rows_hidden == 30 - HEATMAP_MAX
