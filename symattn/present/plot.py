"""An attention-weight heatmap through matplotlib (the optional ``plot`` extra).

The numbers in the cells are rounded as a document rounds them; colours use float64.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.present.certified import ROUNDING
from symattn.present.numbers import fixed

#: file types the heatmap can be written as
PLOT_SUFFIXES = (".svg", ".png")


def plot_weights(
    result: AttentionResult,
    path: str | Path,
    *,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    digits: int = 4,
    limits: Limits = DEFAULT_LIMITS,
) -> Path:
    """Write a heatmap of the (2-D) attention weights to ``path`` (``.svg`` or ``.png``)."""
    out = Path(path)
    if out.suffix.lower() not in PLOT_SUFFIXES:
        raise InputError(f"--plot {path}: the file must end in .svg or .png")
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
    shown = weights.round(digits, mode=ROUNDING, limits=limits)
    L, S = values.shape
    ql = list(query_labels or result.query_labels or [str(i + 1) for i in range(L)])
    kl = list(key_labels or result.key_labels or [str(j + 1) for j in range(S)])
    plt.rcParams["svg.hashsalt"] = "symattn"  # reproducible SVG ids
    plt.rcParams["font.sans-serif"] = ["Noto Sans CJK SC", "Noto Sans CJK JP", "DejaVu Sans"]
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * S, 1.0 + 0.7 * L))
    try:
        im = ax.imshow(values, vmin=0.0, vmax=1.0, cmap="Blues")
        ax.set_xticks(range(S), labels=kl)
        ax.set_yticks(range(L), labels=ql)
        for i in range(L):
            for j in range(S):
                colour = "white" if values[i, j] > 0.6 else "black"
                ax.text(j, i, fixed(shown[i, j], digits), ha="center", va="center", color=colour)
        fig.colorbar(im, ax=ax)
        fig.tight_layout()
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, metadata={"Date": None} if out.suffix.lower() == ".svg" else None)
    finally:
        plt.close(fig)
    return out
