"""Fast numeric paths: correctly rounded float64 attention for large inputs.

:func:`attention_float64` computes ``softmax(Q K^T * scale + mask) V`` correctly rounded to
float64 (round to nearest, ties to even) without per-entry Python in the hot loops:

1. Inputs are read exactly and scaled to integer matrices, split into signed "slices" of at
   most ``w`` bits, so every slice product ``A @ B`` done by float64 BLAS is *exact* (all
   partial sums are integers below ``2**53``). ``Q K^T`` is exact.
2. Logits ``t = gamma * S + a`` (``gamma`` = scale times the input units) are formed in
   double-double (about 106 bits) with a proved absolute error bound per row; each row is
   shifted by its (floating) maximum, which cancels exactly in the softmax.
3. ``exp(t)`` is ``T0[d0] * T1[d1] * T2[d2] * exp(-y)``: three table values (computed in
   Arb, each error measured rigorously) indexed by the binary digits of
   ``delta = floor(-t * 2**26)``, and a degree-4 Taylor polynomial for the residual
   ``|y| <= 2**-25``. Entries with ``-t > 80`` become 0 (true value below ``2**-115``).
4. The weights ``e`` (``0 <= e < 2``) are cut exactly into four 26-bit fixed-point slices;
   ``P V`` and the row sums are exact integer products of slices (BLAS again).
5. ``o = (N / R) * unit_V`` in double-double, with an absolute bound on everything above;
   an entry is accepted when the whole interval rounds to one double. The few undecided
   entries (and exact zeros, ties) are recomputed by the pure Arb path of
   :mod:`symattn.exact`, which also knows the rational cases exactly.

The error bounds are in :func:`_decide` and documented in ``docs/performance.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, PrecisionError, ShapeError
from symattn.exact import (
    AttentionSpec,
    Ball,
    Evaluator,
    ExpTensor,
    MatMulTensor,
    RationalTensor,
    RowSumTensor,
    ScaledIntTensor,
    SoftmaxTensor,
    Surd,
    SurdTensor,
    arb_of,
    float_of,
    inv_sqrt,
)
from symattn.exact.tensors import T, _slices
from symattn.numbers import NEG_INF, to_exact_array, to_fraction
from symattn.numbers.rounding import Rounding, round_significant

Progress = Callable[[int, int], None]

_U2 = 2.0**-106  # u**2 for double precision, u = 2**-53
_F = 16  # fixed-point bits of the exp argument reduction
_LEVEL_BITS = 12  # table index bits per level (2 levels: delta < 2**24)
_LEVELS = 2
_CUTOFF = 80  # exp(-t) for t > 80 is treated as 0 (< 2**-115)
_EW = 26  # bits per weight slice
_EW_SLICES = 4  # weight slices: resolution 2**-(4*26-1) = 2**-103


# --------------------------------------------------------------------------- double-double


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a + b = s + e`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fast_two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a + b = s + e`` exactly when ``|a| >= |b|`` (Dekker)."""
    s = a + b
    return s, b - (s - a)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a * b = p + e`` exactly (Dekker, no FMA)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _dd_mul(xh: Any, xl: Any, yh: Any, yl: Any) -> tuple[np.ndarray, np.ndarray]:
    """Double-double product (DWTimesDW1 of Joldes-Muller-Popescu; rel. error <= 7u^2)."""
    ch, cl1 = _two_prod(xh, yh)
    cl2 = xh * yl + xl * yh
    return _fast_two_sum(ch, cl1 + cl2)


def _dd_add(xh: Any, xl: Any, yh: Any, yl: Any) -> tuple[np.ndarray, np.ndarray]:
    """Double-double sum (AccurateDWPlusDW; rel. error <= 3u^2 + 13u^3)."""
    sh, sl = _two_sum(xh, yh)
    th, tl = _two_sum(xl, yl)
    sl = sl + th
    sh, sl = _fast_two_sum(sh, sl)
    sl = sl + tl
    return _fast_two_sum(sh, sl)


def _dd_div(xh: Any, xl: Any, yh: Any, yl: Any) -> tuple[np.ndarray, np.ndarray]:
    """Double-double quotient (DWDivDW1; rel. error <= 15u^2 + 56u^3)."""
    th = xh / yh
    rh, rl = _dd_mul(yh, yl, th, 0.0)
    ph, pl = _two_sum(xh, -rh)
    dl = pl + (xl - rl)
    tl = (ph + dl) / yh
    return _fast_two_sum(th, tl)


def _arb_dd(x: flint.arb) -> tuple[float, float, float]:
    """``(hi, lo, err)``: ``|x - (hi + lo)| <= err`` for every point of the ball ``x``."""
    hi = float(x)
    lo = float(x - hi)
    err = (x - hi - lo).abs_upper()
    return hi, lo, float(err) * (1 + 2.0**-50) + 5e-324


# --------------------------------------------------------------------------- exact integers


@dataclass(frozen=True)
class Sliced:
    """An exact integer array ``sum_s slices[s] * 2**(width*s)``; the real value is that times ``unit``.

    Every slice holds integers (as float64) of magnitude below ``2**width``.
    """

    slices: tuple[np.ndarray, ...]
    width: int
    unit: Fraction

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
        return tuple(self.slices[0].shape)

    def abs_upper(self) -> np.ndarray:
        """An upper bound of ``|integer|`` per entry (float64)."""
        total = np.zeros(self.shape)
        for s, a in enumerate(self.slices):
            total += np.abs(a) * 2.0 ** (self.width * s)
        return total * (1 + 2.0**-40)

    def ints(self, index: Any) -> np.ndarray:
        """The exact Python integers at ``index`` (an object array)."""
        out = np.zeros(np.shape(self.slices[0][index]), dtype=object)
        for s, a in enumerate(self.slices):
            out = (
                out + np.vectorize(int, otypes=[object])(a[index]) * (1 << (self.width * s))
                if np.size(a[index])
                else out
            )
        return out

    def fractions(self, index: Any) -> np.ndarray:
        """The exact values at ``index`` as ``Fraction`` (an object array)."""
        u = self.unit
        return np.vectorize(lambda i: Fraction(i) * u, otypes=[object])(self.ints(index))


def _slice_float_ints(m: np.ndarray, width: int) -> tuple[np.ndarray, ...]:
    """Signed ``width``-bit slices of an array of integer-valued floats (exact)."""
    sign = np.where(m < 0, -1.0, 1.0)
    r = np.abs(m)
    step = 2.0**width
    out = []
    while True:
        low = np.fmod(r, step)
        out.append(sign * low)
        r = (r - low) / step
        if not r.any():
            return tuple(out)


def _from_float(a: np.ndarray, width: int) -> Sliced:
    a = np.asarray(a, dtype=np.float64)
    if not np.isfinite(a).all():
        raise InputError("inputs must be finite (use a mask for -inf)")
    nz = a != 0
    if not nz.any():
        return Sliced((np.zeros(a.shape),), width, Fraction(1))
    mant, ex = np.frexp(a[nz])
    mi = np.abs(np.ldexp(mant, 53)).astype(np.int64)
    tz = np.frexp((mi & -mi).astype(np.float64))[1].astype(np.int64) - 1  # exact: powers of two
    e0 = int((ex - 53 + tz).min())
    if int(ex.max()) - e0 > 1000:  # integers beyond the double range: exact Python integers
        return _from_fractions(np.vectorize(Fraction, otypes=[object])(a), width)
    m = np.ldexp(a, -e0)  # exact: integers
    return Sliced(_slice_float_ints(m, width), width, Fraction(2) ** e0)


def _from_fractions(x: np.ndarray, width: int) -> Sliced:
    flat = x.reshape(-1)
    dens = {f.denominator for f in flat}
    den = math.lcm(*dens) if dens else 1
    ints = np.array([f.numerator * (den // f.denominator) for f in flat], dtype=object).reshape(
        x.shape
    )
    big = max((abs(int(i)) for i in ints.reshape(-1)), default=0)
    if big < 2**53:
        m = ints.astype(np.float64) if ints.size else np.zeros(x.shape)
        return Sliced(_slice_float_ints(m, width), width, Fraction(1, den))
    sign = np.where(ints < 0, -1.0, 1.0) if ints.size else np.ones(x.shape)
    mag = np.abs(ints)
    mask = (1 << width) - 1
    out = []
    while True:
        out.append(sign * (mag & mask).astype(np.float64))
        mag = mag >> width
        if not mag.any():
            return Sliced(tuple(out), width, Fraction(1, den))


def _short_decimals(a: np.ndarray, width: int) -> Sliced | None:
    """Floats whose shortest repr has at most 8 decimals, as ``m / 10**k`` without Fractions.

    When ``fl(m / 10**k) == a`` with ``|m| < 2**52``, the ulp of ``a`` is below ``10**-k``,
    so ``m / 10**k`` is the only decimal with at most ``k`` places that rounds to ``a``;
    it is therefore what the shortest repr reads (as :func:`to_exact_array` does).
    """
    for k in range(9):
        with np.errstate(over="ignore"):
            m = np.round(a * 10.0**k)
        if not np.abs(m).max() < 2.0**52:
            return None
        if np.array_equal(m / 10.0**k, a):
            return Sliced(_slice_float_ints(m, width), width, Fraction(1, 10**k))
    return None


def _exact_input(x: Any, width: int, exact_float: bool, what: str, limits: Limits) -> Sliced:
    if type(x).__module__.split(".")[0] == "torch":
        x = x.detach().cpu()
        if str(x.dtype) == "torch.bfloat16":
            x = x.float()
        x = x.numpy()
    if isinstance(x, np.ndarray) and x.dtype.kind == "f" and exact_float:
        return _from_float(x, width)
    if isinstance(x, np.ndarray) and x.dtype.kind == "f" and x.size and np.isfinite(x).all():
        short = _short_decimals(x.astype(np.float64), width)
        if short is not None:
            return short
    return _from_fractions(
        to_exact_array(x, exact_float=exact_float, what=what, limits=limits), width
    )


def _width_for(terms: int) -> int:
    """Slice width so that a product of two slices summed ``terms`` times stays below 2**53."""
    return max(4, (53 - (terms + 1).bit_length() - 1) // 2)


def _exact_products(a: Sliced, b: Sliced, transpose_b: bool) -> list[tuple[np.ndarray, int]]:
    """Exact ``a @ b(^T)`` as a list of ``(integer float array, power of two)`` terms."""
    out = []
    for i, x in enumerate(a.slices):
        for j, y in enumerate(b.slices):
            out.append(
                (
                    np.matmul(x, np.swapaxes(y, -1, -2) if transpose_b else y),
                    a.width * i + b.width * j,
                )
            )
    return out


# --------------------------------------------------------------------------- exp tables


@dataclass(frozen=True)
class _Tables:
    hi: tuple[np.ndarray, ...]
    lo: tuple[np.ndarray, ...]
    err: float  # max relative error of a table entry

    @property
    def packed(self) -> tuple[np.ndarray, ...]:
        """Each level as complex ``hi + 1j*lo`` (one gather per level)."""
        return self._packed

    def __post_init__(self) -> None:
        packed = tuple(h + 1j * lo for h, lo in zip(self.hi, self.lo, strict=True))
        for a in packed:
            a.flags.writeable = False
        object.__setattr__(self, "_packed", packed)


def _exp_tables() -> _Tables:
    """``T_l[d] = exp(-d * 2**(12 l) * 2**-16)`` for ``l = 0, 1`` as double-doubles."""
    his, los, worst = [], [], 0.0
    n = 1 << _LEVEL_BITS
    with flint.ctx.workprec(256):
        for level in range(_LEVELS):
            step = (flint.arb(2) ** (_LEVEL_BITS * level - _F)).neg().exp()
            x = flint.arb(1)
            hi, lo = np.empty(n), np.empty(n)
            for d in range(n):
                h, low, e = _arb_dd(x)
                hi[d], lo[d] = h, low
                worst = max(worst, e / h)
                x = x * step
            hi.flags.writeable = False
            lo.flags.writeable = False
            his.append(hi)
            los.append(lo)
    return _Tables(tuple(his), tuple(los), worst * (1 + 2.0**-40))


#: computed once at import (a read-only constant; importing symattn does not import this module)
_TABLES = _exp_tables()


def _exp_neg(
    th: np.ndarray, tl: np.ndarray, tables: _Tables
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``exp(t)`` for double-double ``t <= ~0``: ``(hi, lo, zeroed)``; relative error in ``_decide``."""
    uh, ul = -th * 2.0**_F, -tl * 2.0**_F  # exact scaling
    zeroed = uh > _CUTOFF * 2.0**_F
    delta = np.floor(np.clip(uh, 0.0, _CUTOFF * 2.0**_F))
    rh, rl = _two_sum(uh - delta, ul)  # uh - delta is exact
    yh, yl = rh * 2.0**-_F, rl * 2.0**-_F  # |y| <= 2**-16 (checked: "bad" below)
    d = delta.astype(np.int64)
    mask = (1 << _LEVEL_BITS) - 1
    g = tables.packed[0].take(d & mask)
    eh, el = g.real, g.imag
    for level in range(1, _LEVELS):
        g = tables.packed[level].take((d >> (_LEVEL_BITS * level)) & mask)
        eh, el = _dd_mul(eh, el, g.real, g.imag)
    # exp(-y) = (1 - yh + yh^2/2 - ... + yh^6/720) (1 - yl) + O(2**-110); error <= 2**-82
    z = yh * yh * (0.5 - yh * (1 / 6 - yh * (1 / 24 - yh * (1 / 120 - yh / 720)))) - yl + yl * yh
    ph, pl = _two_sum(np.ones_like(yh), -yh)
    ph, pl = _fast_two_sum(ph, pl + z)
    eh, el = _dd_mul(eh, el, ph, pl)
    eh = np.where(zeroed, 0.0, eh)
    el = np.where(zeroed, 0.0, el)
    # the Taylor bound needs |y| <= 2**-15; anything else (a logit far above the row's
    # shift, or a non-finite value) makes the entry "bad" and its row goes to Arb
    bad = ~zeroed & ~(np.abs(yh) <= 2.0**-15)
    return eh, el, bad


def _weight_slices(eh: np.ndarray, el: np.ndarray) -> list[np.ndarray]:
    """Exact fixed-point slices ``A_s`` with ``e = sum_s A_s 2**-(26 s - 1) + rem``, ``|rem| < 2**-103``."""
    out = []
    h, low = eh * 2.0 ** (_EW - 1), el * 2.0 ** (_EW - 1)
    for _ in range(_EW_SLICES):
        a = np.floor(h)
        out.append(a)
        h, low = _two_sum(h - a, low)  # exact
        h, low = h * 2.0**_EW, low * 2.0**_EW
    return out


# --------------------------------------------------------------------------- the problem


@dataclass(frozen=True)
class _Problem:
    q: Sliced
    k: Sliced
    v: Sliced
    scale: Surd
    masked: np.ndarray | None  # bool, broadcastable to (..., L, S); True = does not take part
    add: np.ndarray | None  # additive mask values (object Fractions), broadcastable
    batch: tuple[int, ...]


def _prepare(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any,
    is_causal: bool,
    scale: Any,
    enable_gqa: bool,
    exact_float: bool,
    limits: Limits,
) -> _Problem:
    shapes = [
        np.shape(x if not hasattr(x, "shape") else np.empty(tuple(x.shape), dtype=np.int8))
        for x in (query, key, value)
    ]
    qs, ks, vs = (tuple(s) for s in shapes)
    if min(len(qs), len(ks), len(vs)) < 2:
        raise ShapeError("query, key and value need at least 2 dimensions")
    if qs[-1] != ks[-1] or ks[-2] != vs[-2]:
        raise ShapeError(f"incompatible shapes {qs}, {ks}, {vs}")
    width = _width_for(qs[-1])
    q = _exact_input(query, width, exact_float, "Q", limits)
    k = _exact_input(key, width, exact_float, "K", limits)
    v = _exact_input(value, 53 - _EW - (ks[-2] + 1).bit_length() - 2, exact_float, "V", limits)
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
        m = attn_mask
        if type(m).__module__.split(".")[0] == "torch":
            m = (
                m.detach().cpu().float().numpy()
                if not str(m.dtype) == "torch.bool"
                else m.detach().cpu().numpy()
            )
        m = np.asarray(m) if not isinstance(m, np.ndarray) else m
        if m.dtype == np.bool_:
            masked = ~m
        else:
            vals = to_exact_array(
                m, exact_float=exact_float, allow_neg_inf=True, what="attn_mask", limits=limits
            )
            masked = (
                np.vectorize(lambda x: x is NEG_INF, otypes=[bool])(vals)
                if vals.size
                else np.zeros(vals.shape, bool)
            )
            add = np.where(masked, Fraction(0), vals)
            if not any(f != 0 for f in add.reshape(-1)):
                add = None
    full = batch + (L, S)
    try:
        masked = np.broadcast_to(masked, full) if masked is not None else None
        add = np.broadcast_to(add, full) if add is not None else None
    except ValueError:
        raise ShapeError(f"attn_mask does not broadcast to the scores' shape {full}") from None
    return _Problem(q, k, v, c, masked, add, batch)


def _gamma(p: _Problem) -> tuple[float, float, float]:
    """``scale * unit_Q * unit_K`` as a double-double with an absolute error bound."""
    u = p.q.unit * p.k.unit
    with flint.ctx.workprec(320):
        g = Surd(p.scale.p * u, p.scale.q * u, p.scale.r).arb()
        if not g.is_zero() and not (2.0**-900 < float(abs(g)) < 2.0**900):
            raise _Unsupported("scale times input units out of double range")
        return _arb_dd(g)


class _Unsupported(Exception):
    """The fast path cannot represent this problem in double-double; use the Arb path."""


def _index(a: np.ndarray | None, batch_idx: tuple[int, ...], ndim: int) -> Any:
    """The ``(L, S)`` or ``(S, E)`` matrix of ``a`` for one batch index (numpy broadcasting)."""
    if a is None:
        return None
    extra = a.ndim - 2
    idx = batch_idx[len(batch_idx) - extra :] if extra > 0 else ()
    idx = tuple(0 if n == 1 else i for i, n in zip(idx, a.shape[:extra], strict=True))
    return a[idx]


def attention_float64(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    enable_gqa: bool = False,
    *,
    exact_float: bool = True,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
    block_rows: int = 256,
) -> np.ndarray:
    """``softmax(Q K^T * scale + mask) V`` correctly rounded to float64, fast.

    Same semantics as :func:`symattn.scaled_dot_product_attention` (torch's argument order,
    safe softmax for fully masked rows). Float arrays are read as their exact binary values
    (``exact_float=True``, what a kernel computes with); ``exact_float=False`` reads them
    through their shortest repr like the rest of symattn.
    """
    p = _prepare(query, key, value, attn_mask, is_causal, scale, enable_gqa, exact_float, limits)
    return _run(p, progress, limits, block_rows)[0]


def _run(
    p: _Problem, progress: Progress | None, limits: Limits, block_rows: int
) -> tuple[np.ndarray, int]:
    """The output and how many entries needed the Arb fallback."""
    L, Ev = p.q.shape[-2], p.v.shape[-1]
    out = np.empty(p.batch + (L, Ev))
    tables = _TABLES
    try:
        gamma = _gamma(p)
    except _Unsupported:
        gamma = None
    direct = _direct_tables(p, gamma) if gamma is not None and p.add is None else None
    fallbacks = 0
    blocks = [(b, r) for b in np.ndindex(*p.batch) for r in range(0, L, block_rows)]
    for count, (b, r0) in enumerate(blocks, 1):
        rows = slice(r0, min(L, r0 + block_rows))
        undecided = np.ones((rows.stop - rows.start, Ev), dtype=bool)
        if gamma is not None:
            with np.errstate(invalid="ignore", divide="ignore"):
                vals, undecided = _block(p, b, rows, gamma, tables, direct)
            out[b + (rows,)] = vals
        for i, j in np.argwhere(undecided):
            out[b + (rows.start + int(i), int(j))] = _fallback(
                p, b, rows.start + int(i), int(j), limits
            )
            fallbacks += 1
        if progress is not None:
            progress(count, len(blocks))
    out.flags.writeable = False
    return out, fallbacks


@dataclass(frozen=True)
class _Direct:
    """Tables of ``exp(-|gamma| * delta)`` for integer ``delta = max_row(S) - S`` (no residual)."""

    tables: _Tables
    cut: float  # delta > cut implies |gamma| delta > 80: weight 0
    sign: float


def _direct_tables(p: _Problem, gamma: tuple[float, float, float]) -> _Direct | None:
    """Per-call tables when every scaled score is ``gamma`` times an integer and few are needed."""
    gh = gamma[0]
    if gh == 0:
        return None
    cut = math.ceil(_CUTOFF / abs(gh) * (1 + 2.0**-30))
    if cut >= 2 ** (2 * _LEVEL_BITS):
        return None
    u = p.q.unit * p.k.unit
    n0 = min(cut + 1, 1 << _LEVEL_BITS)
    n1 = (cut >> _LEVEL_BITS) + 1
    his, los, worst = [], [], 0.0
    with flint.ctx.workprec(256):
        g = abs(Surd(p.scale.p * u, p.scale.q * u, p.scale.r).arb())
        for n, step_exp in ((n0, 0), (n1, _LEVEL_BITS)):
            step = (-(g * 2**step_exp)).exp()
            x = flint.arb(1)
            hi, lo = np.empty(n), np.empty(n)
            for d in range(n):
                h, low, e = _arb_dd(x)
                hi[d], lo[d] = h, low
                worst = max(worst, e / h) if h else math.inf
                x = x * step
            his.append(hi)
            los.append(lo)
    return _Direct(
        _Tables(tuple(his), tuple(los), worst * (1 + 2.0**-40)), float(cut), 1.0 if gh > 0 else -1.0
    )


def _exp_direct(delta: np.ndarray, direct: _Direct) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``exp(-|gamma| delta)`` from the per-call tables: ``(hi, lo, zeroed)``."""
    zeroed = delta > direct.cut
    d = np.where(zeroed, 0.0, delta).astype(np.int64)
    t = direct.tables.packed
    g = t[0].take(d & ((1 << _LEVEL_BITS) - 1))
    eh, el = g.real, g.imag
    if len(t[1]) > 1:
        g = t[1].take(d >> _LEVEL_BITS)
        eh, el = _dd_mul(eh, el, g.real, g.imag)
    return np.where(zeroed, 0.0, eh), np.where(zeroed, 0.0, el), zeroed


@dataclass(frozen=True)
class _Exps:
    """Unnormalised weights of a block of rows: ``e = eh + el`` (0 where masked or zeroed).

    Each active, non-zeroed ``e`` is within relative ``rho`` of ``exp(t - m)`` (``rho`` from
    ``row_t_err`` and ``tables``, see :func:`_rho`); a zeroed one is below ``2**-115``.
    """

    eh: np.ndarray
    el: np.ndarray
    active: np.ndarray | None  # None: every entry takes part
    zeroed: np.ndarray  # active entries set to 0 (true value < 2**-115)
    n_active: np.ndarray
    row_t_err: np.ndarray  # inf: the row is undecided
    tables: _Tables


def _block_exps(
    p: _Problem,
    b: tuple[int, ...],
    rows: slice,
    gamma: tuple[float, float, float],
    tables: _Tables,
    direct: _Direct | None = None,
) -> _Exps:
    """``exp(t - m)`` for query rows ``rows`` of batch entry ``b``, with the row shift ``m``."""
    qsl = [_index(a, b, 2)[rows] for a in p.q.slices]
    ksl = [_index(a, b, 2) for a in p.k.slices]
    n_rows, S = qsl[0].shape[0], ksl[0].shape[0]
    # exact scores as a double-double (exact when there is one term)
    terms = [
        (qa @ kb.T, p.q.width * i + p.k.width * j)
        for i, qa in enumerate(qsl)
        for j, kb in enumerate(ksl)
    ]
    sh, sl = np.ldexp(terms[0][0], terms[0][1]), np.zeros((n_rows, S))
    sabs = np.abs(sh)
    for c, e in terms[1:]:
        x = np.ldexp(c, e)
        sh, sl = _dd_add(sh, sl, x, 0.0)
        sabs += np.abs(x)
    if len(terms) > 1:
        sabs *= 1 + 2.0**-40  # the float sum of |terms| rounds
    masked = p.masked[b][rows] if p.masked is not None else None
    if direct is not None and len(terms) == 1 and float(np.abs(sh).max(initial=0.0)) < 2.0**52:
        # integer scores: delta = max(S) - S exactly, e = exp(-|gamma| delta) from tables
        ks = sh * direct.sign
        if masked is not None:
            active = ~masked
            n_active = active.sum(axis=1)
            top = np.where(active, ks, -np.inf).max(axis=1, keepdims=True, initial=-np.inf)
            top = np.where(np.isfinite(top), top, 0.0)
            delta = np.where(active, top - ks, 0.0)
        else:
            active = None
            n_active = np.full(n_rows, S)
            delta = ks.max(axis=1, keepdims=True, initial=-np.inf) - ks
        eh, el, zeroed = _exp_direct(delta, direct)
        if active is not None:
            eh = np.where(active, eh, 0.0)
            el = np.where(active, el, 0.0)
        row_t_err = np.zeros(n_rows)
        tables = direct.tables
    else:
        multi = len(terms) > 1
        s_err_max = float(sabs.max(initial=0.0)) * len(terms) * 4 * _U2 if multi else 0.0
        gh, gl, gerr = gamma
        th, tl = _two_prod(sh, np.float64(gh))
        tl = tl + (sh * gl + sl * gh) if multi else tl + sh * gl
        th, tl = _fast_two_sum(th, tl)
        # per row: |t - (th+tl)| <= |g| s_err + |S| gerr + 8u^2 |t| (+ mask addition, shift below)
        row_t_err = (abs(gh) * 1.01) * s_err_max + np.abs(sabs).max(axis=1, initial=0.0) * (
            1.01 * gerr
        )
        if p.add is not None:
            add = p.add[b][rows]
            ah = add.astype(np.float64)
            al = (
                np.vectorize(lambda f, h: float(f - Fraction(h)), otypes=[np.float64])(add, ah)
                if add.size
                else ah
            )
            th, tl = _dd_add(th, tl, ah, al)
            # conversion of each Fraction to a double-double, and the double-double sum
            row_t_err = row_t_err + np.abs(ah).max(axis=1, initial=0.0) * (2.0**-104 + 8 * _U2)
        if masked is not None:
            active = ~masked
            n_active = active.sum(axis=1)
            th = np.where(active, th, 0.0)
            tl = np.where(active, tl, 0.0)
            m = np.where(active, th, -np.inf).max(axis=1, keepdims=True, initial=-np.inf)
        else:
            active = None
            n_active = np.full(n_rows, S)
            m = th.max(axis=1, keepdims=True, initial=-np.inf)
        m = np.where(np.isfinite(m), m, 0.0)
        t_mag = np.abs(th).max(axis=1, initial=0.0)
        hh, hl = _two_sum(th, -m)  # t - m = hh + hl + tl exactly
        th, tl = _fast_two_sum(hh, hl + tl)
        row_t_err = row_t_err + (t_mag + np.abs(m[:, 0])) * 24 * _U2
        if active is not None:
            th = np.where(active, th, 0.0)
            tl = np.where(active, tl, 0.0)
        eh, el, bad = _exp_neg(th, tl, tables)
        zeroed = (eh == 0) & ~bad
        if active is not None:
            bad &= active
            eh = np.where(active, eh, 0.0)
            el = np.where(active, el, 0.0)
        row_t_err = np.where(bad.any(axis=1), np.inf, row_t_err)
    if active is not None:
        zeroed = zeroed & active
    return _Exps(eh, el, active, zeroed, n_active, row_t_err, tables)


def _block(
    p: _Problem,
    b: tuple[int, ...],
    rows: slice,
    gamma: tuple[float, float, float],
    tables: _Tables,
    direct: _Direct | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Fast values and the undecided mask for query rows ``rows`` of batch entry ``b``."""
    x = _block_exps(p, b, rows, gamma, tables, direct)
    vsl = [_index(a, b, 2) for a in p.v.slices]
    n_rows = x.eh.shape[0]
    n_active, row_t_err, tables = x.n_active, x.row_t_err, x.tables
    a = _weight_slices(x.eh, x.el)
    # exact N = sum A_s V and R = sum A_s as double-doubles
    nh = np.zeros((n_rows, vsl[0].shape[1]))
    nl = np.zeros_like(nh)
    nabs = np.zeros_like(nh)
    rh = np.zeros(n_rows)
    rl = np.zeros(n_rows)
    n_terms = 0
    for s, slab in enumerate(a):
        shift = -(_EW * (s + 1) - 1)
        r_part = np.ldexp(slab.sum(axis=1), shift)
        rh, rl = _dd_add(rh, rl, r_part, 0.0)
        for t, vb in enumerate(vsl):
            x = np.ldexp(slab @ vb, shift + p.v.width * t)
            nh, nl = _dd_add(nh, nl, x, 0.0)
            nabs = nabs + np.abs(x)
            n_terms += 1
    return _decide(p, vsl, nh, nl, nabs, n_terms, rh, rl, n_active, row_t_err, tables)


def _rho(row_t_err: np.ndarray, tables: _Tables) -> np.ndarray:
    """Per row, the relative error bound of every computed ``e`` (see :func:`_decide`)."""
    tau = row_t_err * (1 + 2.0**-30)
    # exp(tau) - 1 <= 1.01 tau for 0 <= tau <= 2**-20 (no libm involved); larger: undecided
    tau = np.where(tau <= 2.0**-20, tau, np.inf)
    return tau * 1.01 + 3 * tables.err + 4 * 8 * _U2 + 2.0**-82


def _weights_decide(x: _Exps) -> tuple[np.ndarray, np.ndarray]:
    """Round the weights ``w = e / R`` and decide each from a proved relative bound.

    ``R`` is the exact sum of the fixed-point weights (as in :func:`_decide`), so
    ``|R - R_true| <= d_r = eta n_active + r_acc``; the numerator is the double-double ``e``
    itself, ``|e - e_true| <= rho e_true``. Hence ``e / R = w_true (1 + d1) / (1 + d2)`` with
    ``|d1| <= rho``, ``|d2| <= d_r / R_lo``; the double-double division adds ``< 2**-96``
    (relative). All three are below ``2**-19``, so the total relative error is at most
    ``eps = (rho + d_r / R_lo + 2**-96) (1 + 2**-18) / (1 - d_r / R_lo)`` and
    ``|w - w_true| <= eps |w| / (1 - eps)``. An entry is accepted when that interval rounds
    to one double; zeroed entries (true value below ``2**-115 / R``), values below
    ``2**-900`` (double-double underflow) and rows with a bad logit are undecided.
    """
    rho = _rho(x.row_t_err, x.tables)
    eta = 2 * rho + 2.0**-101
    rh = np.zeros(x.eh.shape[0])
    rl = np.zeros_like(rh)
    for s, slab in enumerate(_weight_slices(x.eh, x.el)):
        rh, rl = _dd_add(rh, rl, np.ldexp(slab.sum(axis=1), -(_EW * (s + 1) - 1)), 0.0)
    r_acc = 4 * 4 * _U2 * (np.abs(rh) + 1)
    d_r = eta * x.n_active + r_acc
    r_lo = rh - np.abs(rl) - d_r
    rel_r = d_r / np.maximum(r_lo, 1e-300)
    eps = (rho + rel_r + 2.0**-96) * (1 + 2.0**-18) / np.maximum(1 - rel_r, 1e-300)
    eps = np.where((r_lo > 0.25) & (eps < 2.0**-19), eps, np.inf)
    wh, wl = _dd_div(x.eh, x.el, rh[:, None], rl[:, None])
    w_abs = np.abs(wh) + np.abs(wl)
    bound = eps[:, None] * w_abs / (1 - np.minimum(eps, 0.5))[:, None] * (1 + 2.0**-30)
    gap_up = np.nextafter(wh, np.inf) - wh
    gap_dn = wh - np.nextafter(wh, -np.inf)
    ok = np.isfinite(wh) & np.isfinite(bound) & (np.abs(wh) > 2.0**-900)
    ok &= (wl + bound) < 0.5 * gap_up * (1 - 2.0**-40)
    ok &= (wl - bound) > -0.5 * gap_dn * (1 - 2.0**-40)
    out = np.where(ok, wh, 0.0)
    if x.active is not None:  # masked entries (and fully masked rows) are exactly 0
        ok |= ~x.active
        out = np.where(x.active, out, 0.0)
    ok &= ~x.zeroed
    return out, ~ok


def _decide(
    p: _Problem,
    vsl: list[np.ndarray],
    nh: np.ndarray,
    nl: np.ndarray,
    nabs: np.ndarray,
    n_terms: int,
    rh: np.ndarray,
    rl: np.ndarray,
    n_active: np.ndarray,
    row_t_err: np.ndarray,
    tables: _Tables,
) -> tuple[np.ndarray, np.ndarray]:
    """Round ``o = unit_V N / R`` and decide each entry from a proved absolute bound.

    With ``rho`` the relative error of each computed weight ``e`` (logit error ``tau``:
    ``exp(tau) - 1``; two tables; three double-double products at <= 7u^2 each; the
    residual polynomial <= 2**-82), and fixed-point truncation ``< 2**-103``, the weights
    used differ from the true ones by at most ``eta = 2 rho + 2**-101`` each (``e < 2``;
    zeroed ``e < 2**-115``). Then ``|N - N_true| <= eta * sum_j |V_int[j]|`` and
    ``|R - R_true| <= eta * n_active``; double-double accumulation and the division add
    relative errors of a few ``u^2``, bounded generously by ``2**-96``.
    """
    rho = _rho(row_t_err, tables)
    eta = 2 * rho + 2.0**-101
    vint_abs = np.zeros(vsl[0].shape)
    for t, vb in enumerate(vsl):
        vint_abs += np.abs(vb) * 2.0 ** (p.v.width * t)
    colabs = vint_abs.sum(axis=0) * (1 + 2.0**-40)
    n_acc = (n_terms * 4 * _U2) * nabs  # accumulation error of N (exact if one term)
    r_acc = 4 * 4 * _U2 * (np.abs(rh) + 1)
    d_n = eta[:, None] * colabs[None, :] + n_acc
    d_r = eta * n_active + r_acc
    r_lo = rh - np.abs(rl) - d_r
    oh, ol = _dd_div(nh, nl, rh[:, None], rl[:, None])
    uh, ul, uerr = _arb_dd_fraction(p.v.unit)
    oh, ol = _dd_mul(oh, ol, uh, ul)
    o_abs = np.abs(oh) + np.abs(ol)
    # |o_true - o| <= unit (dN + |N/R| dR) / R_lo + relative 2**-96 |o| + |N/R| uerr
    fix = np.abs(nh) / np.maximum(rh, 1e-300)[:, None]
    bound = (abs(uh) * 1.01) * (d_n + fix * d_r[:, None]) / np.maximum(r_lo, 1e-300)[:, None]
    bound = (bound + o_abs * 2.0**-96 + fix * uerr) * (1 + 2.0**-30)
    ok = (r_lo > 0.25)[:, None] & np.isfinite(oh) & np.isfinite(bound)
    gap_up = np.nextafter(oh, np.inf) - oh
    gap_dn = oh - np.nextafter(oh, -np.inf)
    ok &= (ol + bound) < 0.5 * gap_up * (1 - 2.0**-40)
    ok &= (ol - bound) > -0.5 * gap_dn * (1 - 2.0**-40)
    ok &= oh != 0
    zero_rows = n_active == 0
    out = np.where(zero_rows[:, None], 0.0, oh)
    ok |= zero_rows[:, None]
    return out, ~ok


def _arb_dd_fraction(f: Fraction) -> tuple[float, float, float]:
    with flint.ctx.workprec(256):
        return _arb_dd(arb_of(f))


# --------------------------------------------------------------------------- fallback


def _fallback(p: _Problem, b: tuple[int, ...], i: int, j: int, limits: Limits) -> float:
    """One output entry through the pure Arb path of :mod:`symattn.exact` (exact where rational)."""
    return float(_entry_tensor(p, b, i, j).to_numpy(limits=limits)[0, 0])


def _row_weights(p: _Problem, b: tuple[int, ...], i: int) -> SoftmaxTensor:
    """The weights of query row ``(b, i)`` as a 1 x S :class:`~symattn.exact.SoftmaxTensor`."""
    qrow = Sliced(tuple(_index(a, b, 2)[i : i + 1] for a in p.q.slices), p.q.width, p.q.unit)
    kmat = [_index(a, b, 2) for a in p.k.slices]
    S = kmat[0].shape[0]
    scores = np.zeros((1, S), dtype=object)
    for si, qa in enumerate(qrow.slices):
        for sj, kb in enumerate(kmat):
            c = qa @ kb.T
            scores = scores + np.vectorize(int, otypes=[object])(c) * (
                1 << (p.q.width * si + p.k.width * sj)
            )
    u = p.q.unit * p.k.unit
    scores = np.vectorize(lambda x: Fraction(x) * u, otypes=[object])(scores)
    masked = p.masked[b][i : i + 1] if p.masked is not None else np.zeros((1, S), dtype=bool)
    add = p.add[b][i : i + 1] if p.add is not None else np.full((1, S), Fraction(0), dtype=object)
    c = p.scale
    pv = scores * c.p + add
    qv = scores * c.q
    logits = SurdTensor(pv, qv, c.r, masked)
    exps = ExpTensor(logits)
    return SoftmaxTensor(exps, RowSumTensor(exps))


def _entry_tensor(p: _Problem, b: tuple[int, ...], i: int, j: int) -> MatMulTensor:
    """Output entry ``(b, i, j)`` as a 1 x 1 :class:`~symattn.exact.MatMulTensor` (one query row)."""
    weights = _row_weights(p, b, i)
    vsl = Sliced(tuple(_index(a, b, 2)[:, j : j + 1] for a in p.v.slices), p.v.width, p.v.unit)
    col = vsl.fractions(slice(None))
    return MatMulTensor(weights, RationalTensor(col))


# --------------------------------------------------------------------------- certified balls


def _exact_scores(p: _Problem, b: tuple[int, ...]) -> np.ndarray:
    """The exact integer scores of batch entry ``b`` (int64 when they fit, else Python ints)."""
    qsl = [_index(a, b, 2) for a in p.q.slices]
    ksl = [_index(a, b, 2) for a in p.k.slices]
    bound = sum(float(np.abs(x).max(initial=0)) * 2.0 ** (p.q.width * i) for i, x in enumerate(qsl))
    bound *= sum(
        float(np.abs(y).max(initial=0)) * 2.0 ** (p.k.width * j) for j, y in enumerate(ksl)
    )
    fits = bound * qsl[0].shape[-1] < 2.0**62
    total: Any = None
    for i, x in enumerate(qsl):
        for j, y in enumerate(ksl):
            c = x @ y.T  # exact integers below 2**53
            shift = p.q.width * i + p.k.width * j
            term = (
                (c.astype(np.int64) << shift)
                if fits
                else np.vectorize(int, otypes=[object])(c) * (1 << shift)
            )
            total = term if total is None else total + term
    return total


def attention_enclose(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    enable_gqa: bool = False,
    *,
    digits: int = 50,
    exact_float: bool = True,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """Certified Arb balls around every output entry, each of radius below ``10**-digits / 2``.

    Scores are exact integers (BLAS slices); ``exp`` is taken once per distinct score
    value of a head; ``P V`` and the row sums are Arb matrix products (``arb_mat``).
    Every ball contains the true value; precision doubles until all are narrow enough.
    """
    p = _prepare(query, key, value, attn_mask, is_causal, scale, enable_gqa, exact_float, limits)
    return _enclose_problem(p, digits, progress, limits)


def _enclose_problem(
    p: _Problem, digits: int, progress: Progress | None, limits: Limits
) -> np.ndarray:
    """:func:`attention_enclose` for a prepared problem."""
    L, S, Ev = p.q.shape[-2], p.k.shape[-2], p.v.shape[-1]
    out = np.empty(p.batch + (L, Ev), dtype=object)
    prec = int(digits * 3.33) + 24 + 2 * max(S, 2).bit_length()
    batches = list(np.ndindex(*p.batch))
    target = flint.arb(10) ** (-digits) / 2
    for count, b in enumerate(batches, 1):
        scores = _exact_scores(p, b)
        vb = Sliced(tuple(_index(a, b, 2) for a in p.v.slices), p.v.width, p.v.unit)
        vint = vb.ints(slice(None))
        masked = p.masked[b] if p.masked is not None else None
        add = p.add[b] if p.add is not None else None
        while True:
            balls = None
            if add is None and scores.dtype == np.int64:
                balls = _enclose_fixed(p, scores, vint, masked, prec)
            if balls is None:
                balls = _enclose_head(p, scores, vint, masked, add, prec)
            with flint.ctx.workprec(prec):
                if all(x.rad() < target for x in balls.reshape(-1)):
                    break
            if prec >= limits.max_precision_bits:
                raise PrecisionError(f"enclosures not narrow enough at {prec} bits")
            prec = min(2 * prec, limits.max_precision_bits)
        out[b] = balls
        if progress is not None:
            progress(count, len(batches))
    out.flags.writeable = False
    return out


def _enclose_head(
    p: _Problem,
    scores: np.ndarray,
    vint: np.ndarray,
    masked: np.ndarray | None,
    add: np.ndarray | None,
    prec: int,
) -> np.ndarray:
    L, S = scores.shape
    Ev = vint.shape[1]
    with flint.ctx.workprec(prec):
        u = p.q.unit * p.k.unit
        g = Surd(p.scale.p * u, p.scale.q * u, p.scale.r).arb()
        zero = flint.arb(0)
        if add is None:
            uniq, inv = np.unique(scores, return_inverse=True)
            table = [(g * int(s)).exp() for s in uniq.tolist()]
            inv = inv.reshape(L, S)
            rows = [[table[i] for i in row] for row in inv.tolist()]
        else:
            rows = [
                [(g * int(scores[i, j]) + arb_of(add[i, j])).exp() for j in range(S)]
                for i in range(L)
            ]
        if masked is not None:
            for i, j in np.argwhere(masked):
                rows[i][j] = zero
        e = flint.arb_mat(rows) if L and S else None
        unit = arb_of(p.v.unit)
        vm = flint.arb_mat([[flint.arb(int(x)) for x in row] for row in vint.tolist()])
        n = e * vm
        sums = e * flint.arb_mat(S, 1, [1] * S)
        out = np.empty((L, Ev), dtype=object)
        for i in range(L):
            si = sums[i, 0]
            full = masked is not None and bool(masked[i].all())
            for j in range(Ev):
                out[i, j] = zero if full else n[i, j] * unit / si
    return out


def _fixed_int(x: flint.arb, bits: int) -> tuple[int, int]:
    """``(m, err)``: ``|x * 2**bits - m| <= err`` for every point of the ball ``x >= 0``."""
    y = x * (1 << bits)
    man, ex = y.mid().man_exp()
    m, e = int(man), int(ex)
    mid = m << e if e >= 0 else m >> -e  # floor: error below 1
    rad = y.rad()
    return mid, int(rad.floor().unique_fmpz()) + 2 if rad.is_finite() else -1


def _enclose_fixed(
    p: _Problem, scores: np.ndarray, vint: np.ndarray, masked: np.ndarray | None, prec: int
) -> np.ndarray | None:
    """Balls from exact fixed-point weights: ``W = floor(2**P exp(-|gamma| delta))`` as 24-bit
    slices gathered from a table over the distinct ``delta``, ``P V`` and row sums as exact
    BLAS products of slices, and one Arb division per output entry.

    ``|W - 2**P e| <= err`` for every weight, so ``|N - 2**P N_true| <= err sum_j |V_int[j]|``
    and ``|R - 2**P R_true| <= err n_active``; the ball of ``N / R`` holds both.
    """
    L, S = scores.shape
    Ev = vint.shape[1]
    vmax = max((abs(int(x)) for x in vint.reshape(-1)), default=0)
    wv = 53 - 24 - (S + 1).bit_length() - 1
    if vmax >= 1 << wv or L == 0 or S == 0:
        return None
    u = p.q.unit * p.k.unit
    bits = -(-prec // 24) * 24
    nsl = bits // 24 + 1
    with flint.ctx.workprec(prec + 64):
        g = Surd(p.scale.p * u, p.scale.q * u, p.scale.r).arb()
        if g.is_zero():
            return None
        sign = 1 if g > 0 else -1
        ks = scores * sign
        if masked is not None:
            active = ~masked
            top = np.where(active, ks, np.iinfo(np.int64).min).max(axis=1, keepdims=True)
            delta = np.where(active, top - ks, 0)
        else:
            active = None
            delta = ks.max(axis=1, keepdims=True) - ks
        dmax = int(delta.max())
        if dmax < 1 << 26:  # distinct values by a presence table: linear time
            present = np.zeros(dmax + 1, dtype=bool)
            present[delta] = True
            uniq = np.flatnonzero(present)
            inv = (np.cumsum(present) - 1)[delta]
        else:
            uniq, inv = np.unique(delta, return_inverse=True)
            inv = inv.reshape(L, S)
        ga = abs(g)
        t0n = 1 << 12
        hi_needed = int(uniq[-1]) >> 12
        if hi_needed > len(uniq):  # a wide score range: exp per distinct value is cheaper
            return None
        t0 = [_fixed_int((-(ga * d)).exp(), bits) for d in range(min(t0n, int(uniq[-1]) + 1))]
        t1 = [_fixed_int((-(ga * (d << 12))).exp(), bits) for d in range(hi_needed + 1)]
        if any(e < 0 for _, e in t0 + t1):
            return None
        e0 = max(e for _, e in t0)
        e1 = max(e for _, e in t1)
        one = 1 << bits
        # product of two fixed-point values, floored: error <= e0 * T1 + e1 * T0 + e0 e1 + 1 (in 2**-bits)
        err = e0 + e1 + (e0 * e1 >> bits) + 2
        a0 = np.array([m for m, _ in t0], dtype=object)
        a1 = np.array([m for m, _ in t1], dtype=object)
        w = (a0[uniq & (t0n - 1)] * a1[uniq >> 12]) >> bits  # whole-array Python integer products
        size = 3 * nsl
        words = b"".join([min(x, one).to_bytes(size, "little") for x in w.tolist()])
        raw = np.frombuffer(words, dtype=np.uint8).reshape(len(uniq), nsl, 3).astype(np.float64)
        table = (
            raw[:, :, 0] + raw[:, :, 1] * 256.0 + raw[:, :, 2] * 65536.0
        )  # 24-bit slices, low first
        vf = vint.astype(np.float64)
        n_parts, r_parts = [], []
        for sidx in range(nsl):
            a = table[:, sidx].take(inv)
            if active is not None:
                a = np.where(active, a, 0.0)
            n_parts.append((a @ vf).astype(np.int64))
            r_parts.append(a.sum(axis=1).astype(np.int64))
        n_active = active.sum(axis=1) if active is not None else np.full(L, S)
        colabs = np.array([sum(abs(int(x)) for x in vint[:, j]) for j in range(Ev)], dtype=object)
        num = np.zeros((L, Ev), dtype=object)
        den = np.zeros(L, dtype=object)
        for sidx in range(nsl):
            num = num + n_parts[sidx].astype(object) * (1 << (24 * sidx))
            den = den + r_parts[sidx].astype(object) * (1 << (24 * sidx))
        unit = arb_of(p.v.unit)
        zero = flint.arb(0)
        dens = [
            flint.arb(flint.fmpz(int(den[i])), err * int(n_active[i])) / unit
            if n_active[i]
            else None
            for i in range(L)
        ]
        rad = np.broadcast_to(colabs * err, (L, Ev))
        dball = np.broadcast_to(np.array(dens, dtype=object)[:, None], (L, Ev))

        def ball(nn: int, r: int, d: flint.arb | None) -> flint.arb:
            return zero if d is None else flint.arb(flint.fmpz(nn), r) / d

        out = np.frompyfunc(ball, 3, 1)(num, rad, dball).astype(object)
    return out


def attention_decimals(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    enable_gqa: bool = False,
    *,
    digits: int = 15,
    exact_float: bool = True,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """Every output entry correctly rounded to ``digits`` significant digits (``Decimal``).

    Decided from :func:`attention_enclose` balls with guard digits; entries they cannot
    decide (exact ties, tiny values) go one by one through :mod:`symattn.exact`.
    """
    p = _prepare(query, key, value, attn_mask, is_causal, scale, enable_gqa, exact_float, limits)
    balls = attention_enclose(
        query,
        key,
        value,
        attn_mask,
        is_causal,
        scale,
        enable_gqa,
        digits=digits + 12,
        exact_float=exact_float,
        progress=progress,
        limits=limits,
    )
    out = np.empty(balls.shape, dtype=object)
    for idx in np.ndindex(*balls.shape):
        with flint.ctx.workprec(int(digits * 3.4) + 200):
            x = balls[idx]
            res = None
            if x.is_zero():
                res = round_significant(Fraction(0), digits, Rounding.HALF_EVEN)
            elif x.is_finite():
                ball = Ball.from_arb(x)
                if ball.lower * ball.upper > 0:
                    res = ball.round_significant(digits)
        if res is None:
            res = _entry_tensor(p, idx[:-2], idx[-2], idx[-1]).evalf(digits, limits=limits)[0, 0]
        out[idx] = res
    out.flags.writeable = False
    return out


# --------------------------------------------------------------------------- the engine's tensors


def _sliced_ints(t: ScaledIntTensor, width: int) -> Sliced:
    return Sliced(tuple(_slices(t.ints, width)), width, Fraction(1, t.den))


def problem_of(spec: AttentionSpec) -> _Problem:
    """The fast paths' problem for attention the engine recorded (no Fractions per entry)."""
    E, S = spec.q.shape[-1], spec.k.shape[-2]
    width = _width_for(E)
    return _Problem(
        _sliced_ints(spec.q, width),
        _sliced_ints(spec.k, width),
        _sliced_ints(spec.v, 53 - _EW - (S + 1).bit_length() - 2),
        spec.scale,
        spec.masked,
        spec.add,
        spec.batch,
    )


def spec_float64(spec: AttentionSpec, *, limits: Limits = DEFAULT_LIMITS) -> np.ndarray:
    """The output of ``spec`` correctly rounded to float64 (:func:`attention_float64`'s path)."""
    return np.array(_run(problem_of(spec), None, limits, 256)[0])


def spec_certify(
    spec: AttentionSpec,
    decide: Callable[[Ball], T | None],
    start_bits: int,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """:meth:`ExactTensor.certify` of the output of ``spec``, batched.

    Every entry's ball from :func:`attention_enclose` (about ``start_bits`` bits, plus guard
    digits) goes to ``decide``; entries it leaves undecided (exact ties, rational values at
    a rounding boundary) go one by one through the per-entry path of :mod:`symattn.exact`,
    which refines and knows the rational cases exactly.
    """
    p = problem_of(spec)
    digits = max(1, start_bits // 3 + 4)
    balls = _enclose_problem(p, digits, None, limits)
    out = np.empty(balls.shape, dtype=object)
    for idx in np.ndindex(*balls.shape):
        x = balls[idx]
        res = decide(Ball.from_arb(x)) if x.is_finite() else None
        if res is None:
            entry = _entry_tensor(p, idx[:-2], idx[-2], idx[-1])
            res = entry.certify(decide, start_bits=start_bits, limits=limits, method="exact")[0, 0]
        out[idx] = res
    out.flags.writeable = False
    return out


# --------------------------------------------------------------------------- weights


def _certify_row_entries(
    row: SoftmaxTensor,
    cols: list[int],
    decide: Callable[[Ball], T | None],
    start_bits: int,
    limits: Limits,
) -> dict[int, T]:
    """``decide`` for entries ``cols`` of a 1 x S weights row, refined in Arb (the fallback).

    A row whose active scores are all equal has the rational weights ``1/m`` (decided on the
    exact zero-width ball); any other weight is irrational (Lindemann-Weierstrass), so
    refinement decides it for any rounding.
    """
    groups = row.row_groups((0,))
    if len(groups) <= 1:
        m = len(next(iter(groups.values()))) if groups else 0
        out: dict[int, Any] = {}
        for j in cols:
            w = Fraction(0) if row.logits.masked[0, j] else Fraction(1, m)
            res = decide(Ball.exact(w))
            if res is None:
                raise PrecisionError(f"undecided on the exact value {w}")
            out[j] = res
        return out
    out = {}
    pending = list(cols)
    prec = min(start_bits, limits.max_precision_bits)
    while pending:
        vals = Evaluator(prec).arb(row)
        still = []
        for j in pending:
            with flint.ctx.workprec(prec):
                x = vals[0, j]
                res = decide(Ball.from_arb(x)) if x.is_finite() else None
            if res is None:
                still.append(j)
            else:
                out[j] = res
        pending = still
        if pending:
            if prec >= limits.max_precision_bits:
                raise PrecisionError(f"weights undecided at {prec} bits of precision")
            prec = min(2 * prec, limits.max_precision_bits)
    return out


def _weights_run(p: _Problem, limits: Limits, block_rows: int) -> tuple[np.ndarray, int]:
    """The weights correctly rounded to float64, and how many rows needed the Arb fallback."""
    L, S = p.q.shape[-2], p.k.shape[-2]
    out = np.zeros(p.batch + (L, S))
    try:
        gamma = _gamma(p)
    except _Unsupported:
        gamma = None
    direct = _direct_tables(p, gamma) if gamma is not None and p.add is None else None
    fallbacks = 0
    for b in np.ndindex(*p.batch):
        for r0 in range(0, L, block_rows):
            rows = slice(r0, min(L, r0 + block_rows))
            undecided = np.ones((rows.stop - rows.start, S), dtype=bool)
            if gamma is not None:
                with np.errstate(invalid="ignore", divide="ignore", over="ignore", under="ignore"):
                    vals, undecided = _weights_decide(
                        _block_exps(p, b, rows, gamma, _TABLES, direct)
                    )
                out[b + (rows,)] = vals
            for i in np.flatnonzero(undecided.any(axis=1)):
                cols = [int(j) for j in np.flatnonzero(undecided[i])]
                got = _certify_row_entries(
                    _row_weights(p, b, r0 + int(i)), cols, float_of, 80, limits
                )
                for j, v in got.items():
                    out[b + (r0 + int(i), j)] = v
                fallbacks += 1
    out.flags.writeable = False
    return out, fallbacks


def _weights_enclose_head(
    p: _Problem, scores: np.ndarray, masked: np.ndarray | None, add: np.ndarray | None, prec: int
) -> np.ndarray:
    """Arb balls of every weight of one head: ``exp`` once per distinct score, one division each."""
    L, S = scores.shape
    with flint.ctx.workprec(prec):
        u = p.q.unit * p.k.unit
        g = Surd(p.scale.p * u, p.scale.q * u, p.scale.r).arb()
        zero = flint.arb(0)
        if add is None:
            uniq, inv = np.unique(scores, return_inverse=True)
            table = [(g * int(s)).exp() for s in uniq.tolist()]
            rows = [[table[k] for k in row] for row in inv.reshape(L, S).tolist()]
        else:
            rows = [
                [(g * int(scores[i, j]) + arb_of(add[i, j])).exp() for j in range(S)]
                for i in range(L)
            ]
        if masked is not None:
            for i, j in np.argwhere(masked):
                rows[i][j] = zero
        out = np.empty((L, S), dtype=object)
        for i, row in enumerate(rows):
            total = zero
            for x in row:
                total += x
            out[i] = [zero] * S if total.is_zero() else [x / total for x in row]
    return out


def spec_weights_float64(spec: AttentionSpec, *, limits: Limits = DEFAULT_LIMITS) -> np.ndarray:
    """The weights of ``spec`` correctly rounded to float64 (batched, proved in :func:`_weights_decide`)."""
    return np.array(_weights_run(problem_of(spec), limits, 256)[0])


def spec_weights_certify(
    spec: AttentionSpec,
    decide: Callable[[Ball], T | None],
    start_bits: int,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """:meth:`ExactTensor.certify` of the weights of ``spec``, batched.

    Every weight's Arb ball (about ``start_bits`` bits plus guard bits) goes to ``decide``;
    rows with entries it leaves undecided go through :func:`_certify_row_entries`, which
    refines and knows the rational rows (equal scores: ``1/m``) exactly.
    """
    p = problem_of(spec)
    L, S = p.q.shape[-2], p.k.shape[-2]
    prec = start_bits + 24 + 2 * max(S, 2).bit_length()
    out = np.empty(p.batch + (L, S), dtype=object)
    for b in np.ndindex(*p.batch):
        scores = _exact_scores(p, b)
        masked = p.masked[b] if p.masked is not None else None
        add = p.add[b] if p.add is not None else None
        balls = _weights_enclose_head(p, scores, masked, add, prec)
        for i in range(L):
            pending = []
            for j in range(S):
                x = balls[i, j]
                res = decide(Ball.from_arb(x)) if x.is_finite() else None
                if res is None:
                    pending.append(j)
                else:
                    out[b + (i, j)] = res
            if pending:
                got = _certify_row_entries(
                    _row_weights(p, b, i), pending, decide, start_bits, limits
                )
                for j, v in got.items():
                    out[b + (i, j)] = v
    out.flags.writeable = False
    return out


# --------------------------------------------------------------------------- multi-head W_O


def spec_projected_float64(
    spec: AttentionSpec,
    source: np.ndarray,
    tensor: MatMulTensor,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """``concat(heads) @ W_O`` correctly rounded to float64 (``tensor`` is that product).

    The heads' outputs are certified Arb balls (:func:`_enclose_problem`), gathered into the
    concatenated layout by ``source`` and multiplied by the exact ``W_O`` as an ``arb_mat``
    product, so every resulting ball contains the true entry. An entry is accepted when its
    ball excludes 0 and both ends round to one double. The others are refined (twice the
    digits each round); an entry still open after the first round whose exact value is
    rational (``tensor.rational``: zeros, ties) is rounded exactly.
    """
    p = problem_of(spec)
    right = tensor.right.as_ints
    wo_ints, den = right.ints, right.den
    out = np.zeros(tensor.shape)
    lead = tensor.shape[:-2]
    pending = [idx for idx in np.ndindex(*lead)]  # leading indices with open entries
    open_mask = np.ones(tensor.shape, dtype=bool)
    digits, first = 24, True
    while open_mask.any():
        prec = int(digits * 3.33) + 24 + 2 * max(source.shape[-1], 2).bit_length()
        if prec > limits.max_precision_bits:
            raise PrecisionError(f"multi-head output undecided at {limits.max_precision_bits} bits")
        heads = _enclose_problem(p, digits, None, limits)
        cat = heads.reshape(-1)[source]
        with flint.ctx.workprec(prec + 64):
            wo = flint.arb_mat(
                [[arb_of(Fraction(int(x), den)) for x in row] for row in wo_ints.tolist()]
            )
            for b in pending:
                if not open_mask[b].any():
                    continue
                prod = flint.arb_mat(cat[b].tolist()) * wo
                for i, j in np.argwhere(open_mask[b]):
                    x = prod[int(i), int(j)]
                    if not x.is_finite() or x.contains(0):
                        continue
                    value = float_of(Ball.from_arb(x))
                    if value is not None:
                        out[b + (int(i), int(j))] = value
                        open_mask[b + (int(i), int(j))] = False
        if first:
            for idx in map(tuple, np.argwhere(open_mask)):
                q = tensor.rational(idx)
                if q is not None:
                    out[idx] = float(q)  # Fraction -> float rounds correctly
                    open_mask[idx] = False
            first = False
        digits *= 2
    out.flags.writeable = False
    return out


class _Kernels:
    """The batched paths as one object implementing :class:`symattn.exact.tensors.Kernels`
    (each method calls this module's function of the same name)."""

    def spec_float64(self, spec: AttentionSpec, *, limits: Limits) -> np.ndarray:
        return spec_float64(spec, limits=limits)

    def spec_certify(
        self, spec: AttentionSpec, decide: Callable[[Ball], Any], start_bits: int, *, limits: Limits
    ) -> np.ndarray:
        return spec_certify(spec, decide, start_bits, limits=limits)

    def spec_weights_float64(self, spec: AttentionSpec, *, limits: Limits) -> np.ndarray:
        return spec_weights_float64(spec, limits=limits)

    def spec_weights_certify(
        self, spec: AttentionSpec, decide: Callable[[Ball], Any], start_bits: int, *, limits: Limits
    ) -> np.ndarray:
        return spec_weights_certify(spec, decide, start_bits, limits=limits)

    def spec_projected_float64(
        self, spec: AttentionSpec, source: np.ndarray, tensor: MatMulTensor, *, limits: Limits
    ) -> np.ndarray:
        return spec_projected_float64(spec, source, tensor, limits=limits)


#: what the engine hands to every :class:`~symattn.exact.tensors.AttentionSpec` it builds
KERNELS = _Kernels()
