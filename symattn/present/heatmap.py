"""The weights of one attention as an inline SVG heatmap (for HTML pages and notebooks).

The SVG carries its own styles (inline ``style`` attributes, no class): colours come from the
page's CSS variables (``--heat``, ``--heat-strong``, ``--masked``, ``--muted``) when it has
them, so its light and dark themes apply, and from fallbacks in the variables otherwise (a
notebook); text is ``currentColor``. Each cell shows the weight as the document rounds it, a
masked cell is greyed with a dash. Token names are shown visibly
(:func:`~symattn.present.labels.visible`) and XML-escaped, cut to :data:`MAX_LABEL`
characters (the full name is the cell's tooltip).
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

from symattn.present.labels import visible
from symattn.present.model import Heatmap

#: pixels: a cell, the font size, a character's width (Latin, and wide CJK)
CELL_W = 64
CELL_H = 30
FONT = 13
CHAR = 8.2
WIDE = 13.5
#: the longest label drawn (longer ones end in an ellipsis)
MAX_LABEL = 14
#: above this shade the number is written in the strong (light) text colour
STRONG = 0.55
#: the inline style of each kind of shape (a page's variable, else the fallback)
STYLE: Mapping[str, str] = MappingProxyType(
    {
        "bg": "fill: var(--bg, transparent)",
        "cell": "fill: var(--heat, #0b5cad)",
        "masked": "fill: var(--masked, #c9ced6)",
        "label": "fill: var(--fg, currentColor)",
        "num": "fill: var(--fg, currentColor)",
        "strong": "fill: var(--heat-strong, #ffffff)",
        "dash": "fill: var(--muted, #57606a)",
    }
)


def _label(name: str) -> str:
    name = visible(name)
    return name if len(name) <= MAX_LABEL else name[: MAX_LABEL - 1] + "\u2026"


def _text_width(text: str) -> float:
    return sum(WIDE if unicodedata.east_asian_width(c) in ("W", "F") else CHAR for c in text)


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def heatmap_svg(h: Heatmap, masked_word: str) -> str:
    """The SVG of ``h`` (no script, no link, no external reference)."""
    qs = [_label(n) for n in h.query_labels]
    ks = [_label(n) for n in h.key_labels]
    left = 14 + max((_text_width(q) for q in qs), default=0)
    top = 12 + max((_text_width(k) for k in ks), default=0) * 0.72  # labels at -45 degrees
    width = int(left + CELL_W * len(ks) + 24)
    height = int(top + CELL_H * len(qs) + 8)
    out = [
        f'<svg class="heatmap" role="img" style="max-width: 100%; height: auto; display: block" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'font-size="{FONT}" font-family="system-ui, sans-serif">'
    ]
    for j, k in enumerate(ks):
        x = left + CELL_W * j + CELL_W / 2
        out.append(
            f'<text style="{STYLE["label"]}" x="{x:.1f}" y="{top - 6:.1f}" '
            f'transform="rotate(-45 {x:.1f} {top - 6:.1f})">{_esc(k)}</text>'
        )
    for i, q in enumerate(qs):
        y = top + CELL_H * i
        out.append(
            f'<text style="{STYLE["label"]}" x="{left - 6:.1f}" y="{y + CELL_H / 2 + 4:.1f}" '
            f'text-anchor="end">{_esc(q)}</text>'
        )
        for j in range(len(ks)):
            x = left + CELL_W * j
            title = f"{visible(h.query_labels[i])} \u2192 {visible(h.key_labels[j])}"
            if h.masked[i][j]:
                out.append(
                    f"<g><title>{_esc(title)}: {_esc(masked_word)}</title>"
                    f'<rect style="{STYLE["masked"]}" x="{x:.1f}" y="{y:.1f}" width="{CELL_W}" '
                    f'height="{CELL_H}"/>'
                    f'<text style="{STYLE["dash"]}" x="{x + CELL_W / 2:.1f}" '
                    f'y="{y + CELL_H / 2 + 4:.1f}" '
                    f'text-anchor="middle">\u2014</text></g>'
                )
                continue
            shade = min(max(h.shades[i][j], 0.0), 1.0)
            ink = STYLE["strong"] if shade > STRONG else STYLE["num"]
            out.append(
                f"<g><title>{_esc(title)}: {_esc(h.cells[i][j])}</title>"
                f'<rect style="{STYLE["bg"]}" x="{x:.1f}" y="{y:.1f}" width="{CELL_W}" '
                f'height="{CELL_H}"/>'
                f'<rect style="{STYLE["cell"]}" x="{x:.1f}" y="{y:.1f}" width="{CELL_W}" '
                f'height="{CELL_H}" fill-opacity="{0.06 + 0.94 * shade:.3f}"/>'
                f'<text style="{ink}" x="{x + CELL_W / 2:.1f}" y="{y + CELL_H / 2 + 4:.1f}" '
                f'text-anchor="middle">{_esc(h.cells[i][j])}</text></g>'
            )
    out.append("</svg>")
    return "".join(out)
