"""The public functions: the engine's attention operations, returning results that also
write themselves out as worked examples (Markdown, LaTeX) and show in notebooks.

The engine knows nothing of documents; this module, at the top of the layers, joins the
two: :class:`AttentionResult` here is the engine's result plus the presentation methods.
"""

from __future__ import annotations

from typing import Any

from symattn import engine
from symattn.config import DEFAULT_LIMITS, Limits
from symattn.judge import check
from symattn.present.assets import katex_assets
from symattn.present.document import DocMeta, DocOptions, build_document
from symattn.present.notebook import (
    result_heatmap_svg,
    summary_html,
    summary_latex,
    summary_markdown,
)
from symattn.present.plot import heatmap_figure
from symattn.present.render import render_html, render_latex, render_markdown
from symattn.read import audit

__all__ = [
    "AttentionResult",
    "attention_from_scores",
    "audit",
    "check",
    "cross_attention",
    "multi_head_attention",
    "scaled_dot_product_attention",
    "self_attention",
]


class AttentionResult(engine.AttentionResult):
    """Every stage of one attention computation, exactly, and its worked example.

    In a notebook it shows a bounded summary (the weights as a table and a heatmap, and the
    output); ``repr`` prints the weights and the output as numpy prints arrays. The whole
    worked example is :meth:`to_markdown`, :meth:`to_latex` or :meth:`to_html`.
    """

    @classmethod
    def of(cls, result: engine.AttentionResult) -> AttentionResult:
        """The same result with the presentation methods."""
        return cls(
            trace=result.trace, query_labels=result.query_labels, key_labels=result.key_labels
        )

    def _document(self, lang: str, **kw: Any) -> Any:
        meta = DocMeta(lang=lang, title=kw.pop("title", ""))
        return build_document(self, meta, DocOptions(**kw))

    def to_markdown(self, lang: str = "en", **kw: Any) -> str:
        """The worked example as Markdown (options as in ``DocOptions`` of present.document)."""
        templates = kw.pop("templates", None)
        return render_markdown(self._document(lang, **kw), templates=templates)

    def to_latex(self, lang: str = "en", **kw: Any) -> str:
        """The worked example as a LaTeX document (``fragment=True`` for the body only)."""
        templates = kw.pop("templates", None)
        fragment = kw.pop("fragment", False)
        return render_latex(self._document(lang, **kw), fragment, templates=templates)

    def to_html(self, lang: str = "en", **kw: Any) -> str:
        """The worked example as one self-contained HTML page (needs KaTeX: see
        :mod:`symattn.present.assets`)."""
        templates = kw.pop("templates", None)
        return render_html(self._document(lang, **kw), templates=templates, assets=katex_assets())

    def heatmap(self, index: tuple[int, ...] = (), **kw: Any) -> Any:
        """The weights as a matplotlib Figure (masked cells greyed and marked); ``index``
        picks a batch item or head. Needs matplotlib (``pip install symattn[plot]``)."""
        return heatmap_figure(self, index, **kw)

    def heatmap_svg(self, index: tuple[int, ...] = ()) -> str:
        """The weights as a self-contained SVG heatmap (masked cells greyed, with a dash)."""
        return result_heatmap_svg(self, index)

    def _repr_html_(self) -> str:
        return summary_html(self)

    def _repr_markdown_(self) -> str:
        return summary_markdown(self)

    def _repr_latex_(self) -> str:
        return summary_latex(self)


def scaled_dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: Any = None,
    enable_gqa: bool = False,
    *,
    read_floats: str | None = None,
    exact_float: bool | None = None,
    query_labels: Any = None,
    key_labels: Any = None,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Exact ``softmax(Q K^T * scale + mask) V``, mirroring torch's function of this name.

    ``read_floats="auto"`` (the default) reads numpy float arrays and torch tensors as their
    exact binary values and Python floats, strings and lists through their shortest repr
    (``0.1`` is 1/10), per argument; ``"binary"`` or ``"shortest"`` chooses for every
    argument (``exact_float=True``/``False`` is the older spelling). ``scale`` may be a number or a
    :class:`~symattn.exact.Surd` such as ``inv_sqrt(2)``.
    """
    return AttentionResult.of(
        engine.scaled_dot_product_attention(
            query,
            key,
            value,
            attn_mask,
            dropout_p,
            is_causal,
            scale,
            enable_gqa,
            read_floats=read_floats,
            exact_float=exact_float,
            query_labels=query_labels,
            key_labels=key_labels,
            limits=limits,
        )
    )


def self_attention(x: Any, w_q: Any, w_k: Any, w_v: Any, **kw: Any) -> AttentionResult:
    """Self-attention from embeddings: ``Q = X W_Q``, ``K = X W_K``, ``V = X W_V``, then attention.

    Keywords as in :func:`symattn.engine.self_attention` (``attn_mask``, ``is_causal``,
    ``scale``, ``labels``, ``read_floats``, ``limits``).
    """
    return AttentionResult.of(engine.self_attention(x, w_q, w_k, w_v, **kw))


def multi_head_attention(
    x: Any, w_q: Any, w_k: Any, w_v: Any, w_o: Any = None, *, num_heads: int, **kw: Any
) -> AttentionResult:
    """Multi-head self-attention: project, split into heads, attend per head, concat, ``W_O``.

    Keywords as in :func:`symattn.engine.multi_head_attention`.
    """
    return AttentionResult.of(
        engine.multi_head_attention(x, w_q, w_k, w_v, w_o, num_heads=num_heads, **kw)
    )


def cross_attention(x_q: Any, x: Any, w_q: Any, w_k: Any, w_v: Any, **kw: Any) -> AttentionResult:
    """Cross-attention: ``Q = X_q W_Q`` from one sequence, ``K = X W_K``, ``V = X W_V`` from
    another.

    Keywords as in :func:`symattn.engine.cross_attention`.
    """
    return AttentionResult.of(engine.cross_attention(x_q, x, w_q, w_k, w_v, **kw))


def attention_from_scores(scores: Any, value: Any, **kw: Any) -> AttentionResult:
    """Attention from a given score matrix (``d_k=`` or ``scale=``), or from the scaled scores
    (``scaled=True``). Keywords as in :func:`symattn.engine.attention_from_scores`.
    """
    return AttentionResult.of(engine.attention_from_scores(scores, value, **kw))
