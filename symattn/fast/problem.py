"""One attention problem as the batched kernels take it: sliced exact Q, K, V, the exact
scale, the mask, and the batch shape; read from torch-style arguments (:func:`prepare`) or
from what the engine recorded (:func:`problem_of`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from symattn.config import Limits
from symattn.errors import InputError, ShapeError
from symattn.exact import AttentionSpec, Surd, int_matmul, inv_sqrt
from symattn.fast.doubles import arb_dd, dd_div
from symattn.fast.scores import PER_LEVEL, score_width
from symattn.fast.sliced import Exact, Sliced, float_bits, from_float, from_ints
from symattn.numbers import from_torch, is_torch, to_fraction
from symattn.numbers.arrays import ExactArray, read_array
from symattn.numbers.interop import FloatReading, float_reading, plain_array, reads_binary

__all__ = [
    "DROP_BITS",
    "WEIGHT_BITS",
    "Addend",
    "Problem",
    "Progress",
    "Unsupported",
    "exact_add",
    "exact_scores",
    "exact_values",
    "gamma",
    "pv_pairs",
    "pv_plan",
    "prepare",
    "problem_of",
    "sliced_input",
]

#: ``progress(done, total)``, called after each block of work
Progress = Callable[[int, int], None]

#: fixed-point bits of the weights in ``P V`` (their truncation is below ``2**-WEIGHT_BITS``)
WEIGHT_BITS = 84
#: bits a line of V keeps (more are cut, with a bound)
V_MAX_BITS = 104
#: a slice product of ``P V`` below ``2**-DROP_BITS`` of the largest is not computed (bounded)
DROP_BITS = 84


def pv_pairs(aw: int, na: int, vw: int, nv: int) -> list[tuple[int, int]]:
    """The slice products ``(s, t)`` of ``P V`` worth computing: weight slice ``s`` (``s = 0``
    the highest) times V slice ``t`` (``t = nv - 1`` the highest), within ``DROP_BITS``."""
    return [(s, t) for s in range(na) for t in range(nv) if aw * s + vw * (nv - 1 - t) < DROP_BITS]


def pv_plan(keys: int, vbits: int) -> tuple[int, int, int]:
    """``(aw, na, vw)``: ``na`` weight slices of ``aw`` bits and V slices of ``vw`` bits such
    that a weight slice times a V slice, summed over ``keys``, stays below ``2**53``, with
    ``na * aw - 1 >= WEIGHT_BITS``, and the fewest slice products for V of ``vbits`` bits."""
    budget = 53 - (max(keys, 1) - 1).bit_length()
    best: tuple[int, int, int, int] | None = None
    for vw in range(1, budget - 7):
        aw = budget - vw
        na = -(-(WEIGHT_BITS + 1) // aw)
        nv = max(1, -(-vbits // vw))
        cost = (len(pv_pairs(aw, na, vw, nv)), na, aw, vw)
        if best is None or cost < best:
            best = cost
    assert best is not None
    return best[2], best[1], best[3]


@dataclass(frozen=True)
class Addend:
    """An additive mask (0 where masked): ``|a - (ah + al)| <= rel * |ah|`` for every entry,
    ``source`` exact (all broadcastable to the scores)."""

    ah: np.ndarray
    al: np.ndarray
    rel: float
    source: Exact


@dataclass(frozen=True)
class Problem:
    """A prepared attention: ``softmax(Q K^T * scale + add, masked) V``.

    Q and K are sliced by rows, V by columns (line exponents for binary floats); ``aw`` and
    ``na`` are the width and count of the weights' fixed-point slices in ``P V``.
    """

    q: Sliced
    k: Sliced
    v: Sliced
    scale: Surd
    masked: np.ndarray | None  # bool, broadcastable to (..., L, S); True = does not take part
    add: Addend | None
    batch: tuple[int, ...]
    aw: int
    na: int

    @property
    def gamma_surd(self) -> Surd:
        """What a score in the kernels' units is multiplied by, exactly: the scale times the
        units of Q and K and their largest line exponents."""
        return self.scale * (
            self.q.unit * self.k.unit * Fraction(2) ** (self.q.top_exp + self.k.top_exp)
        )

    @property
    def v_unit(self) -> Fraction:
        """V's unit times its largest line exponent: an output column ``c`` is
        ``N/R * v_unit * 2**(exps_c - top)``."""
        return self.v.unit * Fraction(2) ** self.v.top_exp


class Unsupported(Exception):
    """The fast path cannot represent this problem in double-double; use the Arb path."""


def gamma(p: Problem) -> tuple[float, float, float]:
    """:attr:`Problem.gamma_surd` as a double-double with an absolute error bound."""
    with flint.ctx.workprec(320):
        g = p.gamma_surd.arb()
        if not g.is_zero() and not (2.0**-900 < float(abs(g)) < 2.0**900):
            raise Unsupported("scale times input units out of double range")
        return arb_dd(g)


def _line_bits(x: ExactArray, axis: int) -> int:
    """Bits that most entries need once their line (along ``axis``) is scaled to integers: the
    99th percentile of ``top of the line - lowest bit of the entry`` (slices above it that
    only a few keys need are multiplied compactly)."""
    if x.floats is not None:
        a = x.floats
        if not a.size:
            return 0
        nz, ex, low = float_bits(a)
        if not nz.any():
            return 0
        big = 1 << 20
        top = np.where(nz, ex, -big).max(axis=axis, keepdims=True)
        need = (top - low)[nz]
        return int(np.percentile(need, 99, method="higher"))
    assert x.ints is not None
    if not x.ints.size:
        return 0
    if x.ints.dtype == np.int64:
        return int(np.abs(x.ints).max()).bit_length()
    return max(abs(int(i)) for i in x.ints.reshape(-1).tolist()).bit_length()


def sliced_input(x: ExactArray, width: int, axis: int, max_bits: int) -> Sliced:
    """An exactly read input, sliced with line exponents along ``axis`` where needed."""
    if x.floats is not None:
        return from_float(x.floats, width, axis, max_bits)
    assert x.ints is not None
    ints = x.ints
    if ints.dtype != np.int64 or (ints.size and int(np.abs(ints).max()) >= 2**62):
        ints = np.asarray(ints, dtype=object)
    return from_ints(ints, Fraction(1, x.den), width, axis, max_bits)


def addend(values: ExactArray) -> Addend | None:
    """The additive mask ``values`` (minus infinity already taken out) as double-doubles;
    ``None`` when every entry is 0."""
    if values.floats is not None:
        a = values.floats
        if not a.any():
            return None
        return Addend(a, np.zeros_like(a), 0.0, Exact(floats=a))
    ints = values.ints
    assert ints is not None
    if not any(int(i) for i in np.unique(ints).tolist()):
        return None
    source = Exact(ints=ints, unit=Fraction(1, values.den))
    if values.den < 2**53 and ints.dtype == np.int64 and int(np.abs(ints).max()) < 2**53:
        ih = ints.astype(np.float64)
        ah, al = dd_div(ih, np.zeros_like(ih), float(values.den), 0.0)
        return Addend(ah, al, 2.0**-100, source)  # DWDivDW: 15u^2 + 56u^3 < 2**-101
    fr = np.vectorize(lambda i: Fraction(int(i), values.den), otypes=[object])(ints)
    ah = fr.astype(np.float64)
    al = np.vectorize(lambda f, h: float(f - Fraction(h)), otypes=[np.float64])(fr, ah)
    return Addend(ah, al, 2.0**-104, source)


def _mask(
    attn_mask: Any, floats: FloatReading, limits: Limits
) -> tuple[np.ndarray | None, Addend | None]:
    """``(masked, add)`` of a boolean or additive mask (``add`` is ``None`` when all zero)."""
    binary = reads_binary(attn_mask, floats)
    m = from_torch(attn_mask) if is_torch(attn_mask) else attn_mask
    m = plain_array(m, "attn_mask")
    m = np.asarray(m) if not isinstance(m, np.ndarray) else m
    if m.dtype == np.bool_:
        return ~m, None
    values = read_array(m, exact_float=binary, allow_neg_inf=True, what="attn_mask", limits=limits)
    masked = values.neg_inf if values.neg_inf is not None else np.zeros(values.shape, bool)
    return masked, addend(values)


def _assemble(
    q: ExactArray,
    k: ExactArray,
    v: ExactArray,
    scale: Surd,
    masked: np.ndarray | None,
    add: Addend | None,
    batch_of: Callable[[Sliced, Sliced, Sliced], tuple[int, ...]],
    groups: int,
) -> Problem:
    E, S = q.shape[-1], k.shape[-2]
    width = score_width(E)
    q_s = sliced_input(q, width, -1, PER_LEVEL * width)
    k_s = sliced_input(k, width, -1, PER_LEVEL * width)
    aw, na, vw = pv_plan(S, min(_line_bits(v, -2), V_MAX_BITS))
    v_s = sliced_input(v, vw, -2, V_MAX_BITS)
    if groups > 1:
        k_s, v_s = k_s.repeat(groups), v_s.repeat(groups)
    batch = batch_of(q_s, k_s, v_s)
    full = batch + (q.shape[-2], S)
    if masked is not None and not _broadcasts(masked.shape, full):  # whatever the mask holds
        raise ShapeError(
            f"attn_mask of shape {masked.shape} does not broadcast to the scores' shape {full}"
        )
    if masked is not None and not masked.any():
        masked = None  # an additive mask without -inf masks nothing
    try:
        masked = np.broadcast_to(masked, full) if masked is not None else None
        if add is not None:
            src = add.source
            source = Exact(
                None if src.floats is None else np.broadcast_to(src.floats, full),
                None if src.ints is None else np.broadcast_to(src.ints, full),
                src.unit,
            )
            add = Addend(
                np.broadcast_to(add.ah, full), np.broadcast_to(add.al, full), add.rel, source
            )
    except ValueError:
        raise ShapeError(f"attn_mask does not broadcast to the scores' shape {full}") from None
    return Problem(q_s, k_s, v_s, scale, masked, add, batch, aw, na)


def _broadcasts(shape: tuple[int, ...], full: tuple[int, ...]) -> bool:
    """Whether an array of ``shape`` broadcasts to ``full`` (numpy's rule, on shapes only)."""
    try:
        return np.broadcast_shapes(shape, full) == full
    except ValueError:
        return False


def _batch(q: Sliced, k: Sliced, v: Sliced) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2]))
    except ValueError:
        raise ShapeError(
            f"batch dimensions do not broadcast: {q.shape}, {k.shape}, {v.shape}"
        ) from None


def prepare(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any,
    is_causal: bool,
    scale: Any,
    enable_gqa: bool,
    floats: FloatReading | bool,
    limits: Limits,
) -> Problem:
    """The problem of torch-style arguments (see :func:`symattn.fast.attention_float64`);
    ``floats``: how binary floats are read (a bool: ``exact_float``)."""
    if isinstance(floats, bool):
        floats = float_reading(None, floats)
    qs, ks, vs = (
        tuple(x.shape) if hasattr(x, "shape") else np.shape(x) for x in (query, key, value)
    )
    if min(len(qs), len(ks), len(vs)) < 2:
        raise ShapeError("query, key and value need at least 2 dimensions")
    if qs[-1] != ks[-1] or ks[-2] != vs[-2]:
        raise ShapeError(f"incompatible shapes {qs}, {ks}, {vs}")
    q, k, v = (
        read_array(x, exact_float=reads_binary(x, floats), what=what, limits=limits)
        for x, what in ((query, "Q"), (key, "K"), (value, "V"))
    )
    groups = 1
    if enable_gqa and len(qs) >= 3 and len(ks) >= 3 and qs[-3] != ks[-3]:
        hq, hk = qs[-3], ks[-3]
        if hk == 0 or hq % hk:
            raise ShapeError(
                f"grouped-query attention needs query heads ({hq}) divisible by key heads ({hk})"
            )
        groups = hq // hk
    if scale is None:
        c = inv_sqrt(qs[-1])
    elif isinstance(scale, Surd):
        c = scale
    else:
        binary = reads_binary(scale, floats)
        c = Surd(to_fraction(scale, exact_float=binary, what="scale", limits=limits))
    L, S = qs[-2], ks[-2]
    masked = add = None
    if is_causal and attn_mask is not None:
        raise InputError("is_causal and attn_mask cannot both be given (as in torch)")
    if is_causal:
        masked = ~np.tril(np.ones((L, S), dtype=bool))
    elif attn_mask is not None:
        masked, add = _mask(attn_mask, floats, limits)
    return _assemble(q, k, v, c, masked, add, _batch, groups)


def _exact_array(t: Any) -> ExactArray:
    """An engine tensor (binary floats or integers over a denominator) as an ExactArray."""
    floats = getattr(t, "floats", None)
    if floats is not None:
        return ExactArray(floats, None, 1, None)
    ints = t.as_ints
    return ExactArray(None, ints.ints, ints.den, None)


def problem_of(spec: AttentionSpec) -> Problem:
    """The fast paths' problem for attention the engine recorded (no Fractions per entry)."""
    add = addend(_exact_array(spec.add)) if spec.add is not None else None

    def batch(q: Sliced, k: Sliced, v: Sliced) -> tuple[int, ...]:
        return spec.batch

    return _assemble(
        _exact_array(spec.q),
        _exact_array(spec.k),
        _exact_array(spec.v),
        spec.scale,
        spec.masked,
        add,
        batch,
        1,
    )


def exact_scores(p: Problem, b: tuple[int, ...]) -> tuple[np.ndarray, Surd]:
    """The exact scores of batch entry ``b`` as integers (int64 when they fit, else Python
    integers) and the exact factor that turns them into scaled scores."""
    everything = (slice(None), slice(None))
    qi, uq = p.q.source.batch(b).at(everything, small=True)
    ki, uk = p.k.source.batch(b).at(everything, small=True)
    return int_matmul(qi, np.swapaxes(ki, -1, -2)), p.scale * (uq * uk)


def exact_values(p: Problem, b: tuple[int, ...]) -> tuple[np.ndarray, Fraction]:
    """V of batch entry ``b`` as exact integers (int64 when they fit) and a unit."""
    return p.v.source.batch(b).at((slice(None), slice(None)), small=True)


def exact_add(p: Problem, b: tuple[int, ...]) -> tuple[np.ndarray, Fraction] | None:
    """The additive mask of batch entry ``b`` as exact integers and a unit (``None``: none)."""
    if p.add is None:
        return None
    return p.add.source.batch(b).at((slice(None), slice(None)), small=True)
