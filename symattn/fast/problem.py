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
from symattn.exact import AttentionSpec, Surd, inv_sqrt, slice_width
from symattn.fast.doubles import arb_dd
from symattn.fast.sliced import Sliced, exact_input, exact_products, sliced_ints
from symattn.numbers import NEG_INF, from_torch, is_torch, to_exact_array, to_fraction

__all__ = [
    "EW",
    "EW_SLICES",
    "Problem",
    "Progress",
    "Unsupported",
    "gamma",
    "prepare",
    "problem_of",
    "value_width",
]

#: ``progress(done, total)``, called after each block of work
Progress = Callable[[int, int], None]

EW = 26  # bits per fixed-point weight slice
EW_SLICES = 4  # weight slices: resolution 2**-(4*26-1) = 2**-103


def value_width(keys: int) -> int:
    """V slice width so that a weight slice times a V slice, summed over ``keys``, stays exact."""
    return 53 - EW - (keys + 1).bit_length() - 2


@dataclass(frozen=True)
class Problem:
    """A prepared attention: ``softmax(Q K^T * scale + add, masked) V``."""

    q: Sliced
    k: Sliced
    v: Sliced
    scale: Surd
    masked: np.ndarray | None  # bool, broadcastable to (..., L, S); True = does not take part
    add: np.ndarray | None  # additive mask values (object Fractions), broadcastable
    batch: tuple[int, ...]

    @property
    def gamma_surd(self) -> Surd:
        """``scale * unit_Q * unit_K``: what an integer score is multiplied by, exactly."""
        return self.scale * (self.q.unit * self.k.unit)

    def scores(self, b: tuple[int, ...]) -> np.ndarray:
        """The exact integer scores of batch entry ``b`` (int64 when they fit, else Python ints)."""
        qsl, ksl = self.q.at_batch(b), self.k.at_batch(b)
        bound = sum(
            float(np.abs(x).max(initial=0)) * 2.0 ** (self.q.width * i) for i, x in enumerate(qsl)
        )
        bound *= sum(
            float(np.abs(y).max(initial=0)) * 2.0 ** (self.k.width * j) for j, y in enumerate(ksl)
        )
        fits = bound * qsl[0].shape[-1] < 2.0**62
        ints: np.ndarray = exact_products(qsl, self.q.width, ksl, self.k.width, fits)
        return ints


class Unsupported(Exception):
    """The fast path cannot represent this problem in double-double; use the Arb path."""


def gamma(p: Problem) -> tuple[float, float, float]:
    """``scale * unit_Q * unit_K`` as a double-double with an absolute error bound."""
    with flint.ctx.workprec(320):
        g = p.gamma_surd.arb()
        if not g.is_zero() and not (2.0**-900 < float(abs(g)) < 2.0**900):
            raise Unsupported("scale times input units out of double range")
        return arb_dd(g)


def _mask(
    attn_mask: Any, exact_float: bool, limits: Limits
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``(masked, add)`` of a boolean or additive mask (``add`` is ``None`` when all zero)."""
    m = from_torch(attn_mask) if is_torch(attn_mask) else attn_mask
    m = np.asarray(m) if not isinstance(m, np.ndarray) else m
    if m.dtype == np.bool_:
        return ~m, None
    vals = to_exact_array(
        m, exact_float=exact_float, allow_neg_inf=True, what="attn_mask", limits=limits
    )
    masked = (
        np.vectorize(lambda x: x is NEG_INF, otypes=[bool])(vals)
        if vals.size
        else np.zeros(vals.shape, bool)
    )
    add = np.array(vals, dtype=object)  # a writable copy: masked entries become 0
    add[masked] = Fraction(0)
    return masked, add if any(f != 0 for f in add.reshape(-1)) else None


def prepare(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any,
    is_causal: bool,
    scale: Any,
    enable_gqa: bool,
    exact_float: bool,
    limits: Limits,
) -> Problem:
    """The problem of torch-style arguments (see :func:`symattn.fast.attention_float64`)."""
    qs, ks, vs = (
        tuple(x.shape) if hasattr(x, "shape") else np.shape(x) for x in (query, key, value)
    )
    if min(len(qs), len(ks), len(vs)) < 2:
        raise ShapeError("query, key and value need at least 2 dimensions")
    if qs[-1] != ks[-1] or ks[-2] != vs[-2]:
        raise ShapeError(f"incompatible shapes {qs}, {ks}, {vs}")
    width = slice_width(qs[-1])
    q = exact_input(query, width, exact_float, "Q", limits)
    k = exact_input(key, width, exact_float, "K", limits)
    v = exact_input(value, value_width(ks[-2]), exact_float, "V", limits)
    if enable_gqa and len(qs) >= 3 and len(ks) >= 3 and qs[-3] != ks[-3]:
        hq, hk = qs[-3], ks[-3]
        if hk == 0 or hq % hk:
            raise ShapeError(
                f"grouped-query attention needs query heads ({hq}) divisible by key heads ({hk})"
            )
        k = Sliced(tuple(np.repeat(a, hq // hk, axis=-3) for a in k.slices), k.width, k.unit)
        v = Sliced(tuple(np.repeat(a, hq // hk, axis=-3) for a in v.slices), v.width, v.unit)
    try:
        batch = tuple(np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2]))
    except ValueError:
        raise ShapeError(
            f"batch dimensions do not broadcast: {q.shape}, {k.shape}, {v.shape}"
        ) from None
    if scale is None:
        c = inv_sqrt(qs[-1])
    elif isinstance(scale, Surd):
        c = scale
    else:
        c = Surd(to_fraction(scale, exact_float=exact_float, what="scale", limits=limits))
    L, S = qs[-2], ks[-2]
    masked = add = None
    if is_causal and attn_mask is not None:
        raise InputError("is_causal and attn_mask cannot both be given (as in torch)")
    if is_causal:
        masked = ~np.tril(np.ones((L, S), dtype=bool))
    elif attn_mask is not None:
        masked, add = _mask(attn_mask, exact_float, limits)
    full = batch + (L, S)
    try:
        masked = np.broadcast_to(masked, full) if masked is not None else None
        add = np.broadcast_to(add, full) if add is not None else None
    except ValueError:
        raise ShapeError(f"attn_mask does not broadcast to the scores' shape {full}") from None
    return Problem(q, k, v, c, masked, add, batch)


def problem_of(spec: AttentionSpec) -> Problem:
    """The fast paths' problem for attention the engine recorded (no Fractions per entry)."""
    width = slice_width(spec.q.shape[-1])
    return Problem(
        sliced_ints(spec.q, width),
        sliced_ints(spec.k, width),
        sliced_ints(spec.v, value_width(spec.k.shape[-2])),
        spec.scale,
        spec.masked,
        spec.add,
        spec.batch,
    )
