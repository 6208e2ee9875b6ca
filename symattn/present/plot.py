"""An attention-weight heatmap through matplotlib (the optional ``plot`` extra).

The numbers in the cells are rounded as a document rounds them; colours use float64. Token
names are drawn as plain text (``text.parse_math`` off: a name like ``$\\frac$`` is text, not
mathtext). The image is returned as bytes; the command line writes it atomically.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.present.certified import ROUNDING
from symattn.present.numbers import fixed
from symattn.present.view import surds

#: file types the heatmap can be drawn as
PLOT_SUFFIXES = (".svg", ".png")


def plot_format(path: str) -> str:
    """``svg`` or ``png`` from a file name; an error for any other."""
    lower = path.lower()
    for suffix in PLOT_SUFFIXES:
        if lower.endswith(suffix):
            return suffix[1:]
    raise InputError(f"--plot {path}: the file must end in .svg or .png")


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
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(
            "--plot needs matplotlib, which is not installed; install it with "
            "pip install 'symattn[plot]' (or pip install matplotlib)"
        ) from None
    weights = result.weights
    if weights.ndim != 2:
        raise InputError(f"--plot draws 2-D weights; these have shape {weights.shape}")
    values = weights.to_numpy(limits=limits)  # correctly rounded float64, for colours only
    masked = np.broadcast_to(
        np.asarray(surds(result.masked_scores).masked, dtype=bool), values.shape
    )
    shown = weights.round(digits, mode=ROUNDING, limits=limits)
    L, S = values.shape
    ql = list(query_labels or result.query_labels or [str(i + 1) for i in range(L)])
    kl = list(key_labels or result.key_labels or [str(j + 1) for j in range(S)])
    style: dict[str, Any] = {
        "svg.hashsalt": "symattn",  # reproducible SVG ids
        "font.sans-serif": ["Noto Sans CJK SC", "Noto Sans CJK JP", "DejaVu Sans"],
        "text.parse_math": False,  # token names are text, never mathtext
        "text.usetex": False,
    }
    with plt.rc_context(style):  # type: ignore[arg-type]  # keys checked by matplotlib
        fig, ax = plt.subplots(figsize=(1.2 + 0.9 * S, 1.0 + 0.7 * L))
        try:
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
            buffer = io.BytesIO()
            fig.savefig(buffer, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
        finally:
            plt.close(fig)
    return buffer.getvalue()
