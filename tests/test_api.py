"""Tests of symattn.api: results that write themselves out and show in notebooks."""

from __future__ import annotations

import numpy as np
import pytest

import symattn

from .conftest import require_module


def _result() -> symattn.AttentionResult:
    return symattn.scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])


def test_repr_shows_shape_and_values() -> None:
    text = repr(_result())
    assert text.startswith("AttentionResult: 1 query \u00d7 2 keys")
    assert "[[0.8929582, 0.1070418]]" in text


def test_notebook_reprs_never_raise_for_heads_or_large_results() -> None:
    x = np.eye(3)
    heads = symattn.multi_head_attention(x, np.eye(3, 4), np.eye(3, 4), np.eye(3, 4), num_heads=2)
    rng = np.random.default_rng(2)
    big = rng.random((25, 3))
    large = symattn.scaled_dot_product_attention(big, big, big)  # 625 pairs > 400
    for r in (heads, large):
        assert "<svg" in r._repr_html_()
        assert r._repr_markdown_().startswith("**AttentionResult")
        assert r._repr_latex_().startswith("$$")


def test_documents_in_every_format() -> None:
    r = _result()
    assert r.to_markdown(lang="zh").startswith("# 注意力机制的一个完整算例")
    assert r"\documentclass" not in r.to_latex(fragment=True)
    page = r.to_html()
    assert page.startswith("<!DOCTYPE html>") and "katex" in page


def test_documents_of_multi_head_results() -> None:
    x = np.eye(3)
    r = symattn.multi_head_attention(
        x, np.eye(3, 4), np.eye(3, 4), np.eye(3, 4), np.eye(4, 2), num_heads=2
    )
    text = r.to_markdown(queries=("1",))
    assert "## Head 1" in text and "## The heads together" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_batched_results_explain_each_item(lang: str) -> None:
    q = np.arange(8.0).reshape(2, 2, 2) / 8
    text = symattn.scaled_dot_product_attention(q, q, q).to_markdown(lang=lang)
    assert text.count("## ") >= 2 and ("Batch item 2" in text or "批次第 2 项" in text)


def test_heatmap_is_a_figure_and_heatmap_svg_marks_masked_cells() -> None:
    require_module("matplotlib")
    r = symattn.scaled_dot_product_attention(
        [[1, 0], [0, 1]],
        [[1, 0], [0, 1]],
        [[1, 2], [3, 4]],
        is_causal=True,
        key_labels=["<s>", "x"],
    )
    fig = r.heatmap()
    assert type(fig).__name__ == "Figure" and fig.axes
    svg = r.heatmap_svg()
    assert svg.startswith("<svg") and "&lt;s&gt;" in svg and svg.count("\u2014") == 1
