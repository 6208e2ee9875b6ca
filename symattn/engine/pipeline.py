"""The steps every attention computation shares, appended to a :class:`~symattn.engine.trace.Trace`.

From the inputs to the scores (``Q K^T``), the scaling (a division by ``sqrt(d_k)`` or a
multiplication by a scale), the masks, ``exp``, the row sums, softmax and ``P V``. The public
entry points in :mod:`symattn.engine.attention` start wherever a problem starts (embeddings,
Q/K/V, or a score matrix) and join this pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symattn.config import Limits
from symattn.engine.result import AttentionResult
from symattn.engine.trace import Step, Trace
from symattn.errors import InputError, ShapeError
from symattn.exact import (
    AttentionSpec,
    BinaryTensor,
    ExactTensor,
    ExpTensor,
    LazyTensor,
    LinearSurdTensor,
    MatMulTensor,
    RowSumTensor,
    ScaledIntTensor,
    SoftmaxTensor,
    Surd,
    SurdTensor,
    int_matmul,
    sqrt_surd,
)
from symattn.fast import KERNELS
from symattn.numbers import from_torch, is_torch, to_fraction
from symattn.numbers.arrays import ExactArray, read_array
from symattn.numbers.interop import (
    FloatReading,
    float_reading,
    holds_floats,
    plain_array,
    reads_binary,
)


@dataclass(frozen=True)
class Options:
    """How inputs are read: binary floats by their exact values or through their shortest
    repr (per argument, see :class:`~symattn.numbers.FloatReading`), and the limits."""

    floats: FloatReading
    limits: Limits

    @classmethod
    def of(cls, read_floats: object, exact_float: object, limits: Limits) -> Options:
        """The options of an entry point's keywords (``exact_float``: the older alias)."""
        return cls(float_reading(read_floats, exact_float), limits)

    def binary(self, x: object) -> bool:
        """Whether the floats of the argument ``x`` are read as their binary values."""
        return reads_binary(x, self.floats)

    def recorded(self, x: object) -> dict[str, str]:
        """The ``floats`` attribute of an input step: how its floats were read (none: no
        floats)."""
        if not holds_floats(x):
            return {}
        reading = FloatReading.BINARY if self.binary(x) else FloatReading.SHORTEST
        return {"floats": reading.value}


# --------------------------------------------------------------------------- inputs


def exact_tensor(values: ExactArray) -> BinaryTensor | ScaledIntTensor:
    """An array read exactly as the engine keeps it: binary floats as they are, anything else
    as integers over one denominator (no ``Fraction`` per entry)."""
    if values.floats is not None:
        return BinaryTensor(values.floats)
    assert values.ints is not None
    return ScaledIntTensor(values.ints, values.den)


def input_step(trace: Trace, name: str, x: Any, opts: Options, *, min_ndim: int = 2) -> Step:
    binary = opts.binary(x)
    values = read_array(x, exact_float=binary, what=name, limits=opts.limits)
    if len(values.shape) < min_ndim:
        raise ShapeError(
            f"{name} must have at least {min_ndim} dimensions, got shape {values.shape}"
        )
    opts.limits.check_elements(values.shape, name)
    return trace.append("input", name, (), exact_tensor(values), **opts.recorded(x))


def positive_int(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 1


def _is_boolean(x: Any) -> bool:
    if isinstance(x, np.ndarray):
        return bool(x.dtype == np.bool_)
    if isinstance(x, (bool, np.bool_)):
        return True
    if isinstance(x, (list, tuple)):
        return len(x) > 0 and all(_is_boolean(v) for v in x)
    return False


def _mask_input(trace: Trace, mask: Any, opts: Options) -> Step:
    binary, given = opts.binary(mask), mask
    if is_torch(mask):
        mask = from_torch(mask)
    mask = plain_array(mask, "attn_mask")
    if _is_boolean(mask):
        arr = np.array(mask, dtype=bool)
        arr.flags.writeable = False
        return trace.append("input", "attn_mask", (), arr, kind="boolean")
    values = read_array(
        mask, exact_float=binary, allow_neg_inf=True, what="attn_mask", limits=opts.limits
    )
    masked = values.neg_inf if values.neg_inf is not None else np.zeros(values.shape, bool)
    # minus infinity holds 0 in ``values``: the mask is ``add`` where not ``masked``
    value = LinearSurdTensor(exact_tensor(values), Surd(Fraction(1)), masked)
    return trace.append("input", "attn_mask", (), value, kind="additive", **opts.recorded(given))


def positive_fraction(x: Any, what: str, opts: Options) -> Fraction:
    """``x`` read exactly; an error unless it is positive."""
    f = to_fraction(x, exact_float=opts.binary(x), what=what, limits=opts.limits)
    if f <= 0:
        raise InputError(f"{what} must be positive, got {f}")
    return f


def given_scaled(trace: Trace, scaled: Any, opts: Options) -> Step:
    """Scaled scores given directly (a text that starts there): the exponents of ``e``."""
    binary = opts.binary(scaled)
    values = read_array(scaled, exact_float=binary, what="scaled_scores", limits=opts.limits)
    if len(values.shape) < 2:
        raise ShapeError(f"scaled_scores must have at least 2 dimensions, got shape {values.shape}")
    opts.limits.check_elements(values.shape, "scaled_scores")
    one = Surd(Fraction(1))
    value = LinearSurdTensor(exact_tensor(values), one, np.zeros((), dtype=bool))
    return trace.append("input", "scaled_scores", (), value, scale=one, **opts.recorded(scaled))


def _scale_value(scale: Any, opts: Options) -> Surd:
    if isinstance(scale, Surd):
        return scale
    binary = opts.binary(scale)
    return Surd(to_fraction(scale, exact_float=binary, what="scale", limits=opts.limits))


# --------------------------------------------------------------------------- core


def broadcast_batch(shapes: list[tuple[int, ...]], what: str) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ShapeError(
            f"batch dimensions of {what} do not broadcast: {' vs '.join(map(str, shapes))}"
        ) from None


def attend(
    trace: Trace,
    q: Step,
    k: Step,
    v: Step,
    *,
    attn_mask: Any,
    is_causal: bool,
    scale: Any,
    enable_gqa: bool,
    opts: Options,
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
        k, v = _repeat_kv(trace, q, k, v)
    batch = broadcast_batch([q.shape[:-2], k.shape[:-2], v.shape[:-2]], "query, key and value")
    L, S, E = qs[-2], ks[-2], qs[-1]
    ks = k.shape
    opts.limits.check_elements(batch + (L, S), "the score matrix")

    # exact integer products (Q and K over common denominators, Q K^T by exact BLAS slices),
    # built only when something reads them: the batched paths work from Q and K themselves
    qv, kv = q.value, k.value

    def transpose() -> ScaledIntTensor:
        ki = kv.as_ints
        return ScaledIntTensor(np.swapaxes(ki.ints, -1, -2), ki.den)

    kt = trace.append("transpose", "K^T", (k,), LazyTensor(ks[:-2] + (E, S), transpose))
    ktv = kt.value

    def product() -> ScaledIntTensor:
        qi, kti = qv.as_ints, ktv.as_ints
        return ScaledIntTensor(int_matmul(qi.ints, kti.ints), qi.den * kti.den)

    score_shape = tuple(np.broadcast_shapes(qs[:-2], ks[:-2])) + (L, S)
    scores = trace.append("matmul", "scores", (q, kt), LazyTensor(score_shape, product))
    divisor = Fraction(E) if scale is None else None
    scaled = scale_scores(trace, scores, divisor, scale, width=E, opts=opts)
    return softmax_output(
        trace,
        scaled,
        v,
        batch,
        attn_mask=attn_mask,
        is_causal=is_causal,
        opts=opts,
        qk=(qv, kv),
        output_name=output_name,
    )


def _repeat_kv(trace: Trace, q: Step, k: Step, v: Step) -> tuple[Step, Step]:
    """Key and value heads repeated for grouped-query attention (like ``repeat_interleave``)."""
    hq, hk = q.shape[-3], k.shape[-3]
    if hk == 0 or hq % hk:
        raise ShapeError(
            f"grouped-query attention needs query heads ({hq}) divisible by key heads ({hk})"
        )
    groups = hq // hk
    out = []
    for step, name in ((k, "K_repeated"), (v, "V_repeated")):
        out.append(
            trace.append("repeat_kv", name, (step,), _repeat(step.value, groups), groups=groups)
        )
    return out[0], out[1]


def _repeat(t: Any, groups: int) -> BinaryTensor | ScaledIntTensor:
    """Heads of an exact input repeated ``groups`` times along axis -3."""
    if isinstance(t, BinaryTensor):
        return BinaryTensor(np.repeat(t.floats, groups, axis=-3))
    ints = t.as_ints
    return ScaledIntTensor(np.repeat(ints.ints, groups, axis=-3), ints.den)


def _broadcast(t: Any, shape: tuple[int, ...]) -> BinaryTensor | ScaledIntTensor:
    """An exact input broadcast to ``shape``."""
    if isinstance(t, BinaryTensor):
        return BinaryTensor(np.broadcast_to(t.floats, shape))
    ints = t.as_ints
    return ScaledIntTensor(np.broadcast_to(ints.ints, shape), ints.den)


def scale_scores(
    trace: Trace,
    scores: Step,
    divisor: Fraction | None,
    scale: Any,
    *,
    width: int | None,
    opts: Options,
) -> Step:
    """The scaled scores: ``scores / sqrt(divisor)``, or ``scores * scale``.

    A positive scale ``c`` whose square is rational is a division by ``sqrt(d)``, ``d = 1/c^2``
    (recorded as the ``sqrt_d_k`` step); any other scale is a plain multiplication.
    """
    scores_t = scores.value
    unmasked = np.zeros((), dtype=bool)
    c = None if scale is None else _scale_value(scale, opts)
    d = divisor if c is None else _divisor_square(c)
    if d is not None:
        root = sqrt_surd(d)
        sqrt_step = trace.append(
            "sqrt",
            "sqrt_d_k",
            (),
            SurdTensor(np.array(root.p), np.array(root.q), root.r, np.array(False)),
            d_k=d,
            width=width,
            default=scale is None and width is not None and d == width,
        )
        # x / (m sqrt(r)) = x sqrt(r) / (m r); x / p when sqrt(d) = p is rational
        coef = (
            Surd(Fraction(0), Fraction(1) / (root.q * root.r), root.r)
            if root.q
            else Surd(1 / root.p)
        )
        return trace.append(
            "divide",
            "scaled_scores",
            (scores, sqrt_step),
            LinearSurdTensor(scores_t, coef, unmasked),
        )
    if c is None:
        raise InputError("the scores need a divisor or a scale")
    return trace.append(
        "multiply",
        "scaled_scores",
        (scores,),
        LinearSurdTensor(scores_t, c, unmasked),
        scale=c,
    )


def softmax_output(
    trace: Trace,
    scaled: Step,
    v: Step,
    batch: tuple[int, ...],
    *,
    attn_mask: Any,
    is_causal: bool,
    opts: Options,
    qk: tuple[ExactTensor, ExactTensor] | None,
    output_name: str = "output",
) -> Step:
    """Append masking, ``exp``, the row sums, softmax and ``P V``; return the output step.

    ``qk`` (the integer Q and K) lets the batched certified paths recompute the problem;
    without it (a text that starts from the scores) only the per-entry paths run.
    """
    L, S = scaled.shape[-2], scaled.shape[-1]
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

    vv = v.value if isinstance(v.value, BinaryTensor) else v.value.as_ints
    if vv.shape[:-2] != batch:
        vv = _broadcast(vv, batch + vv.shape[-2:])
        v = trace.append("input", "V_broadcast", (v,), vv)
    lv: LinearSurdTensor = logits.value
    spec = None
    if qk is not None:
        spec = AttentionSpec(
            qk[0],
            qk[1],
            vv,
            lv.coef,
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
    add: ExactTensor | None = None
    try:
        if isinstance(mv, np.ndarray):
            dropped = ~np.broadcast_to(mv, full)
        else:
            dropped = np.broadcast_to(mv.masked, full)
            np.broadcast_shapes(mv.shape, full)
            add = mv.scores if _nonzero(mv.scores) else None  # 0 and -inf only: boolean
    except ValueError:
        raise ShapeError(
            f"attn_mask of shape {mask.shape} does not broadcast to the scores' shape {full}"
        ) from None
    scores = s.scores
    if scores.shape != full:
        base = scores

        def broadcast() -> ScaledIntTensor:
            si = base.as_ints  # type: ignore[attr-defined]  # scores are rational
            return ScaledIntTensor(np.broadcast_to(si.ints, full), si.den)

        scores = LazyTensor(full, broadcast)
    value = LinearSurdTensor(scores, s.coef, dropped | np.broadcast_to(s.masked, full), add)
    return trace.append("mask", "masked_scores", (scaled, mask), value, kind=mask.attrs.get("kind"))


def _nonzero(t: ExactTensor) -> bool:
    """Whether an exact input holds an entry other than 0."""
    if isinstance(t, BinaryTensor):
        return bool(t.floats.any())
    return bool(t.as_ints.ints.any())  # type: ignore[attr-defined]  # rational inputs


def _labels(labels: Any, n: int, what: str) -> tuple[str, ...] | None:
    if labels is None:
        return None
    out = tuple(str(x) for x in labels)
    if len(out) != n:
        raise ShapeError(f"{what} has {len(out)} labels for {n} rows")
    return out


def result_of(
    trace: Trace, rows: int, cols: int, query_labels: Any, key_labels: Any
) -> AttentionResult:
    """The result of ``trace``, with labels checked against ``rows`` queries and ``cols`` keys."""
    return AttentionResult(
        trace=trace,
        query_labels=_labels(query_labels, rows, "query"),
        key_labels=_labels(key_labels, cols, "key"),
    )


def project(trace: Trace, x: Step, w: Step, name: str) -> Step:
    """``name = X W_name``, exactly (integer products over a common denominator)."""
    if x.shape[-1] != w.shape[-2]:
        raise ShapeError(
            f"cannot compute {name} = {x.name} W_{name}: {x.name} has width {x.shape[-1]} "
            f"but W_{name} has {w.shape[-2]} rows"
        )
    xi, wi = x.value.as_ints, w.value.as_ints
    return trace.append(
        "matmul", name, (x, w), ScaledIntTensor(int_matmul(xi.ints, wi.ints), xi.den * wi.den)
    )
