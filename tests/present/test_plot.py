"""Tests of symattn.present.plot: the heatmap of the weights."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn import scaled_dot_product_attention
from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.present.plot import plot_weights

from ..conftest import require_module


def _result() -> AttentionResult:
    return scaled_dot_product_attention(
        [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]], query_labels=["q"], key_labels=["a", "b"]
    )


def test_plot_needs_svg_or_png(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=".svg or .png"):
        plot_weights(_result(), tmp_path / "w.pdf")


def test_plot_needs_two_dimensional_weights(tmp_path: Path) -> None:
    require_module("matplotlib")
    batched = scaled_dot_product_attention([[[1, 2]]], [[[1, 2]]], [[[3, 4]]])
    with pytest.raises(InputError, match="2-D weights"):
        plot_weights(batched, tmp_path / "w.svg")


def test_plot_writes_a_reproducible_svg(tmp_path: Path) -> None:
    require_module("matplotlib")
    first = plot_weights(_result(), tmp_path / "a" / "w.svg", digits=3)
    second = plot_weights(_result(), tmp_path / "b" / "w.svg", digits=3)
    text = first.read_text(encoding="utf-8")
    assert text == second.read_text(encoding="utf-8")
    assert "0.893" in text and "0.107" in text
