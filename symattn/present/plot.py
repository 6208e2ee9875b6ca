"""An attention-weight heatmap through matplotlib (the optional ``plot`` extra).

The numbers in the cells are rounded as a document rounds them; colours use float64. Token
names are drawn as plain text (``text.parse_math`` off: a name like ``$\\frac$`` is text, not
mathtext). The image is returned as bytes; the command line writes it atomically.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.present.certified import ROUNDING
from symattn.present.labels import visible
from symattn.present.numbers import fixed
from symattn.present.view import surds

#: matplotlib settings of every heatmap
STYLE: Mapping[str, Any] = MappingProxyType(
    {
        "svg.hashsalt": "symattn",  # reproducible SVG ids
        "font.sans-serif": ["Noto Sans CJK SC", "Noto Sans CJK JP", "DejaVu Sans"],
        "text.parse_math": False,  # token names are text, never mathtext
        "text.usetex": False,
    }
)
#: file types the heatmap can be drawn as
PLOT_SUFFIXES = (".svg", ".png")


def plot_format(path: str) -> str:
    """``svg`` or ``png`` from a file name; an error for any other."""
    lower = path.lower()
    for suffix in PLOT_SUFFIXES:
        if lower.endswith(suffix):
            return suffix[1:]
    raise InputError(f"--plot {path}: the file must end in .svg or .png")


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(
            "the heatmap needs matplotlib, which is not installed; install it with "
            "pip install 'symattn[plot]' (or pip install matplotlib)"
        ) from None
    return plt


def heatmap_figure(
    result: AttentionResult,
    index: tuple[int, ...] = (),
    *,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    digits: int = 4,
    limits: Limits = DEFAULT_LIMITS,
) -> Any:
    """A matplotlib Figure of the weights of one attention (``index`` picks a batch item or
    a head when the weights have more than two axes); masked cells greyed with a dash."""
    plt = _pyplot()
    import matplotlib

    weights = result.weights
    index = tuple(int(i) for i in index)
    if weights.ndim - len(index) != 2:
        raise InputError(
            f"the weights have shape {weights.shape}: give index= with {weights.ndim - 2} "
            "entries (a batch item or a head) to draw one attention"
        )
    full = weights.to_numpy(limits=limits)  # correctly rounded float64, for colours only
    masked_all = np.broadcast_to(
        np.asarray(surds(result.masked_scores).masked, dtype=bool), full.shape
    )
    values, masked = full[index], masked_all[index]
    shown = weights.round(digits, mode=ROUNDING, limits=limits)[index]
    L, S = values.shape
    ql = [visible(str(n)) for n in (query_labels or result.query_labels or range(1, L + 1))]
    kl = [visible(str(n)) for n in (key_labels or result.key_labels or range(1, S + 1))]
    with plt.rc_context(dict(STYLE)):
        fig, ax = plt.subplots(figsize=(1.2 + 0.9 * S, 1.0 + 0.7 * L))
        cmap = matplotlib.colormaps["Blues"].with_extremes(bad="#c9ced6")
        im = ax.imshow(np.ma.masked_array(values, masked), vmin=0.0, vmax=1.0, cmap=cmap)
        ax.set_xticks(range(S), labels=kl)
        ax.set_yticks(range(L), labels=ql)
        for i in range(L):
            for j in range(S):
                colour = "white" if values[i, j] > 0.6 else "black"
                text = "\u2014" if masked[i, j] else fixed(shown[i, j], digits)
                ax.text(j, i, text, ha="center", va="center", color=colour)
        fig.colorbar(im, ax=ax)
        fig.tight_layout()
    return fig


def heatmap_image(
    result: AttentionResult,
    fmt: str,
    *,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    digits: int = 4,
    limits: Limits = DEFAULT_LIMITS,
) -> bytes:
    """A heatmap of the (2-D) attention weights as ``svg`` or ``png`` bytes."""
    if fmt not in ("svg", "png"):
        raise InputError(f"heatmap format {fmt!r}: choose svg or png")
    plt = _pyplot()
    weights = result.weights
    if weights.ndim != 2:
        raise InputError(f"--plot draws 2-D weights; these have shape {weights.shape}")
    fig = heatmap_figure(
        result, query_labels=query_labels, key_labels=key_labels, digits=digits, limits=limits
    )
    try:
        buffer = io.BytesIO()
        with plt.rc_context(dict(STYLE)):
            fig.savefig(buffer, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
    finally:
        plt.close(fig)
    return buffer.getvalue()
