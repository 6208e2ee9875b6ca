"""Tests of symattn.present.heatmap: the inline SVG heatmap."""

from __future__ import annotations

from html.parser import HTMLParser

from symattn.present.heatmap import MAX_LABEL, STYLE, heatmap_svg
from symattn.present.model import Heatmap


def _heatmap(names: tuple[str, str]) -> Heatmap:
    return Heatmap(
        names,
        names,
        (("1", ""), ("0.3000", "0.7000")),
        ((1.0, 0.0), (0.3, 0.7)),
        ((False, True), (False, False)),
    )


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs |= {k for k, _ in attrs}


def test_svg_has_cells_labels_and_greyed_masked_cells() -> None:
    svg = heatmap_svg(_heatmap(("a", "b")), "masked")
    assert svg.startswith('<svg class="heatmap"') and svg.endswith("</svg>")
    cell, masked, strong = (f'style="{STYLE[k]}"' for k in ("cell", "masked", "strong"))
    assert svg.count(cell) == 3 and svg.count(masked) == 1
    assert "0.7000" in svg and "masked" in svg and strong in svg
    assert 'class="hm' not in svg  # every style is inline: a notebook has no page style sheet


def test_names_are_escaped_and_cut_and_nothing_links_or_runs() -> None:
    hostile = "<script>alert(1)</script>" + "x" * 30
    svg = heatmap_svg(_heatmap((hostile, 'a" onload="x')), "masked")
    parser = _Tags()
    parser.feed(svg)
    assert parser.tags <= {"svg", "g", "title", "rect", "text"}
    assert not {a for a in parser.attrs if a.startswith("on") or a in ("href", "src")}
    assert "&lt;script&gt;" in svg and "\u2026" in svg and MAX_LABEL < len(hostile)
