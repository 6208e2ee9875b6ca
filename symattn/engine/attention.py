"""The operations of attention, computed exactly and recorded in a :class:`~symattn.trace.Trace`.

``scaled_dot_product_attention`` follows ``torch.nn.functional.scaled_dot_product_attention``:
inputs ``(..., L, E)``, ``(..., S, E)``, ``(..., S, Ev)``; boolean masks (True takes part)
or additive masks (``-inf`` allowed) broadcast to ``(..., L, S)``; ``is_causal`` is the
top-left lower triangle; the default scale is ``1/sqrt(E)``; grouped-query attention
repeats key/value heads like ``repeat_interleave``. A row whose keys are all masked gives
zeros, as torch 2.5+ does (its safe softmax); the trace records those rows.

Every entry point takes ``read_floats`` (``"auto"``, ``"binary"``, ``"shortest"``; see
:func:`scaled_dot_product_attention`) and its older alias ``exact_float``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine.pipeline import (
    Options,
    attend,
    broadcast_batch,
    given_scaled,
    input_step,
    positive_fraction,
    positive_int,
    project,
    result_of,
    scale_scores,
    softmax_output,
)
from symattn.engine.result import AttentionResult
from symattn.engine.trace import Step, Trace
from symattn.errors import InputError, ShapeError
from symattn.exact import MatMulTensor, ReshapeTensor, ScaledIntTensor
from symattn.numbers.interop import FloatReading

# --------------------------------------------------------------------------- public API


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
    read_floats: str | FloatReading | None = None,
    exact_float: bool | None = None,
    query_labels: Any = None,
    key_labels: Any = None,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Exact ``softmax(Q K^T * scale + mask) V``, mirroring torch's function of this name.

    ``read_floats`` says how binary floats are read: ``"auto"`` (the default) reads numpy
    float arrays and scalars and torch tensors as their exact binary values (what a kernel
    computed on) and Python floats, strings and lists through their shortest repr (``0.1``
    is 1/10), per argument; ``"binary"`` or ``"shortest"`` reads every argument so
    (``exact_float=True``/``False``: the older spelling). Each input step of the trace
    records the reading it used (``floats``). ``scale`` may be a number or a
    :class:`~symattn.exact.Surd` such as ``inv_sqrt(2)``.
    """
    if dropout_p != 0:
        raise InputError(f"dropout_p={dropout_p!r}: an exact result has no dropout; use 0.0")
    opts = Options.of(read_floats, exact_float, limits)
    trace = Trace()
    q = input_step(trace, "Q", query, opts)
    k = input_step(trace, "K", key, opts)
    v = input_step(trace, "V", value, opts)
    attend(
        trace,
        q,
        k,
        v,
        attn_mask=attn_mask,
        is_causal=is_causal,
        scale=scale,
        enable_gqa=enable_gqa,
        opts=opts,
    )
    return result_of(trace, q.shape[-2], k.shape[-2], query_labels, key_labels)


def attention_from_scores(
    scores: Any,
    value: Any,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    *,
    d_k: Any = None,
    scaled: bool = False,
    read_floats: str | FloatReading | None = None,
    exact_float: bool | None = None,
    query_labels: Any = None,
    key_labels: Any = None,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Attention from a given score matrix ``(..., L, S)`` and the values ``(..., S, Ev)``.

    For worked examples that start after ``Q K^T``. The scores are divided by ``sqrt(d_k)``,
    or multiplied by ``scale`` (``scale=1``: no scaling); one of the two must be given, since
    without Q and K the width of the keys is unknown. With ``scaled=True`` the given matrix
    already holds the scaled scores (the exponents of ``e``) and neither may be given.
    """
    opts = Options.of(read_floats, exact_float, limits)
    trace = Trace()
    if scaled and (d_k is not None or scale is not None):
        raise InputError("scaled=True: the scores are already scaled; give no d_k or scale")
    if not scaled and (d_k is None) == (scale is None):
        raise InputError(
            "scores without Q and K need exactly one of d_k (divide by sqrt(d_k)) "
            "and scale (multiply; scale=1 for none)"
        )
    given = (
        given_scaled(trace, scores, opts) if scaled else input_step(trace, "scores", scores, opts)
    )
    v = input_step(trace, "V", value, opts)
    if given.shape[-1] != v.shape[-2]:
        raise ShapeError(
            f"the scores have {given.shape[-1]} columns (keys) but V has {v.shape[-2]} rows"
        )
    batch = broadcast_batch([given.shape[:-2], v.shape[:-2]], "the scores and V")
    opts.limits.check_elements(batch + given.shape[-2:], "the score matrix")
    if scaled:
        logits = given
    else:
        divisor = None if d_k is None else positive_fraction(d_k, "d_k", opts)
        logits = scale_scores(trace, given, divisor, scale, width=None, opts=opts)
    softmax_output(
        trace, logits, v, batch, attn_mask=attn_mask, is_causal=is_causal, opts=opts, qk=None
    )
    return result_of(trace, given.shape[-2], given.shape[-1], query_labels, key_labels)


def _projections(
    trace: Trace, x_q: Any, x: Any, w_q: Any, w_k: Any, w_v: Any, opts: Options
) -> tuple[Step, Step, Step]:
    """``Q = X_q W_Q``, ``K = X W_K``, ``V = X W_V`` (``X_q`` is ``X`` for self-attention)."""
    xs = input_step(trace, "X", x, opts)
    xq = xs if x_q is None else input_step(trace, "X_q", x_q, opts)
    ws = [input_step(trace, f"W_{n}", w, opts) for n, w in (("Q", w_q), ("K", w_k), ("V", w_v))]
    q = project(trace, xq, ws[0], "Q")
    k = project(trace, xs, ws[1], "K")
    v = project(trace, xs, ws[2], "V")
    return q, k, v


def self_attention(
    x: Any,
    w_q: Any,
    w_k: Any,
    w_v: Any,
    *,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    labels: Any = None,
    read_floats: str | FloatReading | None = None,
    exact_float: bool | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Self-attention from embeddings: ``Q = X W_Q``, ``K = X W_K``, ``V = X W_V``, then attend."""
    opts = Options.of(read_floats, exact_float, limits)
    trace = Trace()
    q, k, v = _projections(trace, None, x, w_q, w_k, w_v, opts)
    attend(
        trace,
        q,
        k,
        v,
        attn_mask=attn_mask,
        is_causal=is_causal,
        scale=scale,
        enable_gqa=False,
        opts=opts,
    )
    return result_of(trace, q.shape[-2], k.shape[-2], labels, labels)


def cross_attention(
    x_q: Any,
    x: Any,
    w_q: Any,
    w_k: Any,
    w_v: Any,
    *,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    query_labels: Any = None,
    key_labels: Any = None,
    read_floats: str | FloatReading | None = None,
    exact_float: bool | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Cross-attention: queries from one sequence (``Q = X_q W_Q``), keys and values from
    another (``K = X W_K``, ``V = X W_V``), as in an encoder-decoder's second attention."""
    opts = Options.of(read_floats, exact_float, limits)
    trace = Trace()
    q, k, v = _projections(trace, x_q, x, w_q, w_k, w_v, opts)
    attend(
        trace,
        q,
        k,
        v,
        attn_mask=attn_mask,
        is_causal=is_causal,
        scale=scale,
        enable_gqa=False,
        opts=opts,
    )
    return result_of(trace, q.shape[-2], k.shape[-2], query_labels, key_labels)


def _split_heads(trace: Trace, p: Step, num_heads: int) -> Step:
    width = p.shape[-1]
    if width % num_heads:
        raise ShapeError(f"{p.name} has width {width}, not divisible by num_heads={num_heads}")
    pi = p.value.as_ints
    a = pi.ints
    split = np.swapaxes(a.reshape(a.shape[:-1] + (num_heads, width // num_heads)), -2, -3)
    return trace.append(
        "split_heads", f"{p.name}_heads", (p,), ScaledIntTensor(split, pi.den), num_heads=num_heads
    )


def _concat(a: np.ndarray) -> np.ndarray:
    moved = np.swapaxes(a, -2, -3)
    return moved.reshape(moved.shape[:-2] + (moved.shape[-2] * moved.shape[-1],))


def multi_head_attention(
    x: Any,
    w_q: Any,
    w_k: Any,
    w_v: Any,
    w_o: Any = None,
    *,
    num_heads: int,
    x_q: Any = None,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    labels: Any = None,
    query_labels: Any = None,
    read_floats: str | FloatReading | None = None,
    exact_float: bool | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Multi-head attention: project, split into heads, attend per head, concat, ``W_O``.

    Self-attention of ``x``; with ``x_q`` the queries come from ``x_q`` (cross-attention),
    labelled by ``query_labels`` (default ``labels``).
    """
    if not positive_int(num_heads):
        raise InputError(f"num_heads must be a positive integer, got {num_heads!r}")
    opts = Options.of(read_floats, exact_float, limits)
    trace = Trace()
    projected = _projections(trace, x_q, x, w_q, w_k, w_v, opts)
    heads = [_split_heads(trace, p, num_heads) for p in projected]
    out = attend(
        trace,
        *heads,
        attn_mask=attn_mask,
        is_causal=is_causal,
        scale=scale,
        enable_gqa=False,
        opts=opts,
        output_name="head_outputs",
    )
    cat_name = "concat" if w_o is not None else "output"
    cat = trace.append(
        "concat_heads", cat_name, (out,), ReshapeTensor.of(out.value, _concat), num_heads=num_heads
    )
    if w_o is not None:
        wo = input_step(trace, "W_O", w_o, opts)
        if wo.shape[-2] != cat.shape[-1]:
            raise ShapeError(
                f"W_O has {wo.shape[-2]} rows but the concatenated heads have width {cat.shape[-1]}"
            )
        trace.append("matmul", "output", (cat, wo), MatMulTensor(cat.value, wo.value))
    rows, cols = projected[0].shape[-2], projected[1].shape[-2]
    return result_of(trace, rows, cols, labels if query_labels is None else query_labels, labels)
