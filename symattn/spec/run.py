"""Running a spec through the exact engine (the engine knows nothing of specs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from symattn import engine
from symattn.engine import AttentionResult
from symattn.errors import InputError, SpecError

if TYPE_CHECKING:  # the model calls this module; only the type goes the other way
    from symattn.spec.model import Spec


def run_spec(spec: Spec) -> AttentionResult:
    """Compute attention for ``spec``: Q, K, V directly, or X with one head or several."""
    if not spec.computable:
        raise SpecError(
            f"{spec.path}: cannot compute: the source does not give {', '.join(spec.absent)}"
            " (listed under 'missing')"
        )
    scale = spec.effective_scale()
    i = spec.inputs
    start = spec.start.name
    try:
        if start == "scores":
            return engine.attention_from_scores(
                i["scores"],
                i["V"],
                attn_mask=spec.mask,
                is_causal=spec.causal,
                scale=spec.scale,
                d_k=spec.d_k if spec.scale is None else None,
                query_labels=spec.query_tokens,
                key_labels=spec.tokens,
            )
        if start == "scaled":
            return engine.attention_from_scores(
                i["scaled"],
                i["V"],
                attn_mask=spec.mask,
                is_causal=spec.causal,
                scaled=True,
                query_labels=spec.query_tokens,
                key_labels=spec.tokens,
            )
        if start == "qkv":
            return engine.scaled_dot_product_attention(
                i["Q"],
                i["K"],
                i["V"],
                attn_mask=spec.mask,
                is_causal=spec.causal,
                scale=scale,
                query_labels=spec.query_tokens,
                key_labels=spec.tokens,
            )
        if spec.cross and spec.num_heads == 1 and "W_O" not in i:
            return engine.cross_attention(
                i["X_q"],
                i["X"],
                i["W_Q"],
                i["W_K"],
                i["W_V"],
                attn_mask=spec.mask,
                is_causal=spec.causal,
                scale=scale,
                query_labels=spec.query_tokens,
                key_labels=spec.tokens,
            )
        if spec.num_heads == 1 and "W_O" not in i:
            return engine.self_attention(
                i["X"],
                i["W_Q"],
                i["W_K"],
                i["W_V"],
                attn_mask=spec.mask,
                is_causal=spec.causal,
                scale=scale,
                labels=spec.tokens,
            )
        return engine.multi_head_attention(
            i["X"],
            i["W_Q"],
            i["W_K"],
            i["W_V"],
            i.get("W_O"),
            num_heads=spec.num_heads,
            x_q=i.get("X_q"),
            attn_mask=spec.mask,
            is_causal=spec.causal,
            scale=scale,
            labels=spec.tokens,
            query_labels=spec.query_tokens if spec.cross else None,
        )
    except InputError as exc:
        if str(exc).startswith(f"{spec.path}:"):
            raise
        raise type(exc)(f"{spec.path}: {exc}") from exc
