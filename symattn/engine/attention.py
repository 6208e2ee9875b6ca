"""The operations of attention, computed exactly and recorded in a :class:`~symattn.trace.Trace`.

``scaled_dot_product_attention`` follows ``torch.nn.functional.scaled_dot_product_attention``:
inputs ``(..., L, E)``, ``(..., S, E)``, ``(..., S, Ev)``; boolean masks (True takes part)
or additive masks (``-inf`` allowed) broadcast to ``(..., L, S)``; ``is_causal`` is the
top-left lower triangle; the default scale is ``1/sqrt(E)``; grouped-query attention
repeats key/value heads like ``repeat_interleave``. A row whose keys are all masked gives
zeros, as torch 2.5+ does (its safe softmax); the trace records those rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine.result import AttentionResult
from symattn.engine.trace import Step, Trace
from symattn.errors import InputError, ShapeError
from symattn.exact import (
    AttentionSpec,
    ExpTensor,
    LinearSurdTensor,
    MatMulTensor,
    RationalTensor,
    ReshapeTensor,
    RowSumTensor,
    ScaledIntTensor,
    SoftmaxTensor,
    Surd,
    SurdTensor,
    int_matmul,
    sqrt_surd,
)
from symattn.fast import KERNELS
from symattn.numbers import NEG_INF, from_torch, is_torch, to_exact_array, to_fraction


@dataclass(frozen=True)
class _Options:
    exact_float: bool
    limits: Limits


# --------------------------------------------------------------------------- inputs


def _zeros(shape: tuple[int, ...]) -> np.ndarray:
    return np.full(shape, Fraction(0), dtype=object)


def _input(trace: Trace, name: str, x: Any, opts: _Options, *, min_ndim: int = 2) -> Step:
    values = to_exact_array(x, exact_float=opts.exact_float, what=name, limits=opts.limits)
    if values.ndim < min_ndim:
        raise ShapeError(
            f"{name} must have at least {min_ndim} dimensions, got shape {values.shape}"
        )
    opts.limits.check_elements(values.shape, name)
    return trace.append("input", name, (), RationalTensor(values))


def _positive_int(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 1


def _is_boolean(x: Any) -> bool:
    if isinstance(x, np.ndarray):
        return bool(x.dtype == np.bool_)
    if isinstance(x, (bool, np.bool_)):
        return True
    if isinstance(x, (list, tuple)):
        return len(x) > 0 and all(_is_boolean(v) for v in x)
    return False


def _mask_input(trace: Trace, mask: Any, opts: _Options) -> Step:
    if is_torch(mask):
        mask = from_torch(mask)
    if _is_boolean(mask):
        arr = np.array(mask, dtype=bool)
        arr.flags.writeable = False
        return trace.append("input", "attn_mask", (), arr, kind="boolean")
    values = to_exact_array(
        mask, exact_float=opts.exact_float, allow_neg_inf=True, what="attn_mask", limits=opts.limits
    )
    masked = (
        np.vectorize(lambda v: v is NEG_INF, otypes=[bool])(values)
        if values.size
        else np.zeros(values.shape, dtype=bool)
    )
    p = values.copy()
    p[masked] = Fraction(0)
    return trace.append(
        "input", "attn_mask", (), SurdTensor(p, _zeros(values.shape), 1, masked), kind="additive"
    )


def _scale_value(scale: Any, opts: _Options) -> Surd:
    if isinstance(scale, Surd):
        return scale
    return Surd(to_fraction(scale, exact_float=opts.exact_float, what="scale", limits=opts.limits))


# --------------------------------------------------------------------------- core


def _broadcast_batch(shapes: list[tuple[int, ...]], what: str) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ShapeError(
            f"batch dimensions of {what} do not broadcast: {' vs '.join(map(str, shapes))}"
        ) from None


def _attend(
    trace: Trace,
    q: Step,
    k: Step,
    v: Step,
    *,
    attn_mask: Any,
    is_causal: bool,
    scale: Any,
    enable_gqa: bool,
    opts: _Options,
    output_name: str = "output",
) -> Step:
    """Append scores, scaling, masking, softmax and ``P V``; return the output step."""
    qs, ks, vs = q.shape, k.shape, v.shape
    if qs[-1] != ks[-1]:
        raise ShapeError(
            f"query width E={qs[-1]} differs from key width {ks[-1]} (shapes {qs} and {ks})"
        )
    if ks[-2] != vs[-2]:
        raise ShapeError(f"key has {ks[-2]} rows (S) but value has {vs[-2]} (shapes {ks} and {vs})")
    if ks[:-2] != vs[:-2]:
        raise ShapeError(f"key and value batch dimensions differ: {ks[:-2]} vs {vs[:-2]}")
    if enable_gqa and len(qs) >= 3 and len(ks) >= 3 and qs[-3] != ks[-3]:
        hq, hk = qs[-3], ks[-3]
        if hk == 0 or hq % hk:
            raise ShapeError(
                f"grouped-query attention needs query heads ({hq}) divisible by key heads ({hk})"
            )
        groups = hq // hk
        ki0, vi0 = k.value.as_ints, v.value.as_ints
        k = trace.append(
            "repeat_kv",
            "K_repeated",
            (k,),
            ScaledIntTensor(np.repeat(ki0.ints, groups, axis=-3), ki0.den),
            groups=groups,
        )
        v = trace.append(
            "repeat_kv",
            "V_repeated",
            (v,),
            ScaledIntTensor(np.repeat(vi0.ints, groups, axis=-3), vi0.den),
            groups=groups,
        )
    batch = _broadcast_batch([q.shape[:-2], k.shape[:-2], v.shape[:-2]], "query, key and value")
    L, S, E = qs[-2], ks[-2], qs[-1]
    opts.limits.check_elements(batch + (L, S), "the score matrix")

    # exact integer products: Q and K over common denominators, Q K^T by exact BLAS slices
    qi, ki = q.value.as_ints, k.value.as_ints
    kt = trace.append(
        "transpose", "K^T", (k,), ScaledIntTensor(np.swapaxes(ki.ints, -1, -2), ki.den)
    )
    scores_t = ScaledIntTensor(int_matmul(qi.ints, kt.value.ints), qi.den * ki.den)
    scores = trace.append("matmul", "scores", (q, kt), scores_t)

    # scaling: a positive scale c is a division by sqrt(d) with d = 1/c^2
    if scale is None:
        d: Fraction | None = Fraction(E)
        c = None
    else:
        c = _scale_value(scale, opts)
        d = _divisor_square(c)
    unmasked = np.zeros((), dtype=bool)
    if d is not None:
        root = sqrt_surd(d)
        sqrt_step = trace.append(
            "sqrt",
            "sqrt_d_k",
            (),
            SurdTensor(np.array(root.p), np.array(root.q), root.r, np.array(False)),
            d_k=d,
            width=E,
            default=scale is None,
        )
        # x / (m sqrt(r)) = x sqrt(r) / (m r); x / p when sqrt(d) = p is rational
        coef = (
            Surd(Fraction(0), Fraction(1) / (root.q * root.r), root.r)
            if root.q
            else Surd(1 / root.p)
        )
        scaled = trace.append(
            "divide",
            "scaled_scores",
            (scores, sqrt_step),
            LinearSurdTensor(scores_t, coef, unmasked),
        )
    else:
        assert c is not None
        coef = c
        scaled = trace.append(
            "multiply",
            "scaled_scores",
            (scores,),
            LinearSurdTensor(scores_t, coef, unmasked),
            scale=c,
        )
    logits = scaled
    full = batch + (L, S)
    if is_causal and attn_mask is not None:
        raise InputError("is_causal and attn_mask cannot both be given (as in torch)")
    if is_causal:
        causal = np.tril(np.ones((L, S), dtype=bool))
        causal.flags.writeable = False
        m = trace.append("input", "causal_mask", (), causal, kind="causal")
        logits = _apply_mask(trace, scaled, m, full)
    elif attn_mask is not None:
        m = _mask_input(trace, attn_mask, opts)
        logits = _apply_mask(trace, scaled, m, full)

    vv = v.value.as_ints
    if vv.shape[:-2] != batch:
        vv = ScaledIntTensor(np.broadcast_to(vv.ints, batch + vv.shape[-2:]), vv.den)
        v = trace.append("input", "V_broadcast", (v,), vv)
    lv: LinearSurdTensor = logits.value
    spec = AttentionSpec(
        qi,
        ki,
        vv,
        coef,
        lv.masked if logits is not scaled else None,
        lv.add,
        batch,
        KERNELS,
    )
    exps = trace.append("exp", "exp_scores", (logits,), ExpTensor(lv))
    sums = trace.append("sum", "exp_sums", (exps,), RowSumTensor(exps.value))
    weights_t = SoftmaxTensor(exps.value, sums.value, attention=spec)
    masked = lv.masked
    empty = (
        tuple(tuple(int(i) for i in idx) for idx in np.argwhere(masked.all(axis=-1)))
        if masked.size
        else ()
    )
    weights = trace.append("softmax", "weights", (exps, sums), weights_t, fully_masked_rows=empty)
    return trace.append(
        "matmul", output_name, (weights, v), MatMulTensor(weights_t, vv, attention=spec)
    )


def _divisor_square(c: Surd) -> Fraction | None:
    """``d`` with ``c == 1/sqrt(d)`` when ``c > 0`` and ``c^2`` is rational, else ``None``."""
    if c.p and c.q:
        return None
    sq = c.p * c.p if c.q == 0 else c.q * c.q * c.r
    positive = c.p > 0 if c.q == 0 else c.q > 0
    return 1 / sq if positive and sq else None


def _apply_mask(trace: Trace, scaled: Step, mask: Step, full: tuple[int, ...]) -> Step:
    s: LinearSurdTensor = scaled.value
    mv = mask.value
    try:
        if isinstance(mv, np.ndarray):
            dropped = ~np.broadcast_to(mv, full)
            add = None
        else:
            dropped = np.broadcast_to(mv.masked, full)
            add = np.broadcast_to(mv.p, full)
            if not any(f != 0 for f in mv.p.reshape(-1).tolist()):
                add = None  # a mask of 0 and -inf only: a boolean mask in effect
    except ValueError:
        raise ShapeError(
            f"attn_mask of shape {mask.shape} does not broadcast to the scores' shape {full}"
        ) from None
    scores = s.scores
    if scores.shape != full:
        si = scores.as_ints  # type: ignore[attr-defined]
        scores = ScaledIntTensor(np.broadcast_to(si.ints, full), si.den)
    value = LinearSurdTensor(scores, s.coef, dropped | np.broadcast_to(s.masked, full), add)
    return trace.append("mask", "masked_scores", (scaled, mask), value, kind=mask.attrs.get("kind"))


def _labels(labels: Any, n: int, what: str) -> tuple[str, ...] | None:
    if labels is None:
        return None
    out = tuple(str(x) for x in labels)
    if len(out) != n:
        raise ShapeError(f"{what} has {len(out)} labels for {n} rows")
    return out


def _result(trace: Trace, q: Step, k: Step, query_labels: Any, key_labels: Any) -> AttentionResult:
    return AttentionResult(
        trace=trace,
        query_labels=_labels(query_labels, q.shape[-2], "query"),
        key_labels=_labels(key_labels, k.shape[-2], "key"),
    )


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
    exact_float: bool = False,
    query_labels: Any = None,
    key_labels: Any = None,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Exact ``softmax(Q K^T * scale + mask) V``, mirroring torch's function of this name.

    Floats are read through their shortest repr (``0.1`` is 1/10) unless ``exact_float``.
    ``scale`` may be a number or a :class:`~symattn.exact.Surd` such as ``inv_sqrt(2)``.
    """
    if dropout_p != 0:
        raise InputError(f"dropout_p={dropout_p!r}: an exact result has no dropout; use 0.0")
    opts = _Options(exact_float, limits)
    trace = Trace()
    q = _input(trace, "Q", query, opts)
    k = _input(trace, "K", key, opts)
    v = _input(trace, "V", value, opts)
    _attend(
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
    return _result(trace, q, k, query_labels, key_labels)


def _project(trace: Trace, x: Step, w: Step, name: str) -> Step:
    if x.shape[-1] != w.shape[-2]:
        raise ShapeError(
            f"cannot compute {name} = X W_{name}: X has width {x.shape[-1]} "
            f"but W_{name} has {w.shape[-2]} rows"
        )
    xi, wi = x.value.as_ints, w.value.as_ints
    return trace.append(
        "matmul", name, (x, w), ScaledIntTensor(int_matmul(xi.ints, wi.ints), xi.den * wi.den)
    )


def _weights_in(
    trace: Trace, x: Any, w_q: Any, w_k: Any, w_v: Any, opts: _Options
) -> tuple[Step, Step, Step]:
    xs = _input(trace, "X", x, opts)
    ws = [_input(trace, f"W_{n}", w, opts) for n, w in (("Q", w_q), ("K", w_k), ("V", w_v))]
    q, k, v = (_project(trace, xs, w, n) for w, n in zip(ws, "QKV", strict=True))
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
    exact_float: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Self-attention from embeddings: ``Q = X W_Q``, ``K = X W_K``, ``V = X W_V``, then attend."""
    opts = _Options(exact_float, limits)
    trace = Trace()
    q, k, v = _weights_in(trace, x, w_q, w_k, w_v, opts)
    _attend(
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
    return _result(trace, q, k, labels, labels)


def multi_head_attention(
    x: Any,
    w_q: Any,
    w_k: Any,
    w_v: Any,
    w_o: Any = None,
    *,
    num_heads: int,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    labels: Any = None,
    exact_float: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> AttentionResult:
    """Multi-head self-attention: project, split into heads, attend per head, concat, ``W_O``."""
    if not _positive_int(num_heads):
        raise InputError(f"num_heads must be a positive integer, got {num_heads!r}")
    opts = _Options(exact_float, limits)
    trace = Trace()
    projected = _weights_in(trace, x, w_q, w_k, w_v, opts)
    heads = []
    for p in projected:
        width = p.shape[-1]
        if width % num_heads:
            raise ShapeError(f"{p.name} has width {width}, not divisible by num_heads={num_heads}")
        pi = p.value.as_ints
        a = pi.ints
        split = np.swapaxes(a.reshape(a.shape[:-1] + (num_heads, width // num_heads)), -2, -3)
        heads.append(
            trace.append(
                "split_heads",
                f"{p.name}_heads",
                (p,),
                ScaledIntTensor(split, pi.den),
                num_heads=num_heads,
            )
        )
    out = _attend(
        trace,
        *heads,
        attn_mask=attn_mask,
        is_causal=is_causal,
        scale=scale,
        enable_gqa=False,
        opts=opts,
        output_name="head_outputs",
    )

    def concat(a: np.ndarray) -> np.ndarray:
        moved = np.swapaxes(a, -2, -3)
        return moved.reshape(moved.shape[:-2] + (moved.shape[-2] * moved.shape[-1],))

    cat_name = "concat" if w_o is not None else "output"
    cat = trace.append(
        "concat_heads", cat_name, (out,), ReshapeTensor.of(out.value, concat), num_heads=num_heads
    )
    if w_o is not None:
        wo = _input(trace, "W_O", w_o, opts)
        if wo.shape[-2] != cat.shape[-1]:
            raise ShapeError(
                f"W_O has {wo.shape[-2]} rows but the concatenated heads have width {cat.shape[-1]}"
            )
        trace.append("matmul", "output", (cat, wo), MatMulTensor(cat.value, wo.value))
    return _result(trace, projected[0], projected[1], labels, labels)
