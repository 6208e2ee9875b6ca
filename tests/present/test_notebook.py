"""Tests of symattn.present.notebook: how a result shows itself in a notebook."""

from __future__ import annotations

import time
from html.parser import HTMLParser

import numpy as np
import pytest

import symattn
from symattn.engine.result import AttentionResult
from symattn.present.notebook import (
    describe,
    summary_html,
    summary_latex,
    summary_markdown,
)


def _small() -> AttentionResult:
    return symattn.scaled_dot_product_attention(
        [[1, 2]],
        [[1, 2], [0, 1]],
        [[10, 20], [30, 40]],
        query_labels=["<q>"],
        key_labels=["a", "b"],
    )


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.attrs: list[tuple[str, str]] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs += [(k, v or "") for k, v in attrs]


def test_html_is_link_free_escaped_and_has_the_heatmap() -> None:
    html = summary_html(_small())
    parser = _Tags()
    parser.feed(html)
    assert parser.tags <= {
        "div",
        "p",
        "strong",
        "table",
        "tr",
        "th",
        "td",
        "svg",
        "g",
        "title",
        "rect",
        "text",
        "style",
    }
    assert "url(" not in html and "@import" not in html  # its style sheet loads nothing
    assert not [a for a in parser.attrs if a[0] in ("href", "src") or a[0].startswith("on")]
    assert "&lt;q&gt;" in html and "<svg" in html and "0.8930" in html


def test_markdown_and_latex_have_no_headings_or_sections() -> None:
    md = summary_markdown(_small())
    tex = summary_latex(_small())
    assert "#" not in md and r"\section" not in md and r"\section" not in tex
    assert md.startswith("**AttentionResult") and r"\begin{bmatrix} 0.8930 & 0.1070" in md
    assert tex.startswith("$$") and r"\begin{gathered}" in tex


def test_multi_head_and_batched_results_summarise() -> None:
    x = np.eye(3)
    m = symattn.multi_head_attention(x, np.eye(3, 4), np.eye(3, 4), np.eye(3, 4), num_heads=2)
    assert "A_{1}" in summary_markdown(m) and "A_{2}" in summary_markdown(m)
    assert describe(m) == "AttentionResult: 3 queries \u00d7 3 keys, 2 heads"


def test_large_results_stay_small_and_quick() -> None:
    rng = np.random.default_rng(1)
    x = rng.random((300, 4))
    r = symattn.scaled_dot_product_attention(x, x, x)
    start = time.process_time()
    html, md, text = summary_html(r), summary_markdown(r), repr(r)
    assert time.process_time() - start < 30
    assert len(html) < 60_000 and len(md) < 5_000 and len(text) < 3_000
    assert "\u2026" in html and r"\cdots" in md and "..." in text


@pytest.mark.parametrize("summary", [summary_html, summary_markdown, summary_latex])
def test_a_summary_never_raises(summary: object) -> None:
    class Broken:
        @property
        def weights(self) -> object:
            raise RuntimeError("boom")

    assert "AttentionResult" in summary(Broken())  # type: ignore[operator]
