"""Tests of symattn.present.plot: the matplotlib heatmap of the weights."""

from __future__ import annotations

import pytest

from symattn import scaled_dot_product_attention
from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.present.plot import heatmap_image, plot_format

from ..conftest import require_module


def _result(names: tuple[str, str] = ("a", "b"), causal: bool = False) -> AttentionResult:
    return scaled_dot_product_attention(
        [[1, 2], [0, 1]],
        [[1, 2], [0, 1]],
        [[10, 20], [30, 40]],
        query_labels=list(names),
        key_labels=list(names),
        is_causal=causal,
    )


def test_plot_format_from_the_file_name() -> None:
    assert plot_format("w.SVG") == "svg" and plot_format("dir/w.png") == "png"
    with pytest.raises(InputError, match=".svg or .png"):
        plot_format("w.pdf")
    with pytest.raises(InputError, match="choose svg or png"):
        heatmap_image(_result(), "pdf")


def test_plot_needs_two_dimensional_weights() -> None:
    require_module("matplotlib")
    batched = scaled_dot_product_attention([[[1, 2]]], [[[1, 2]]], [[[3, 4]]])
    with pytest.raises(InputError, match="2-D weights"):
        heatmap_image(batched, "svg")


def test_plot_is_a_reproducible_svg() -> None:
    require_module("matplotlib")
    first = heatmap_image(_result(), "svg", digits=3)
    assert first == heatmap_image(_result(), "svg", digits=3)
    text = first.decode("utf-8")
    assert text.lstrip().startswith("<?xml") and "0.893" in text


@pytest.mark.parametrize("name", [r"$\frac$", "$x^$", r"\mathbf{", "$$", "a_b^c"])
def test_token_names_are_drawn_as_text_never_mathtext(name: str) -> None:
    """Issue 15 row 21: a name like ``$\\frac$`` gives no mathtext traceback."""
    require_module("matplotlib")
    png = heatmap_image(_result((name, "b")), "png")
    assert png.startswith(b"\x89PNG")


def test_masked_cells_are_drawn_as_a_dash() -> None:
    require_module("matplotlib")
    text = heatmap_image(_result(causal=True), "svg").decode("utf-8")
    assert "\u2014" in text or "2014" in text
