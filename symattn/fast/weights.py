"""The attention weights, batched: every weight as a double-double with a proved relative
bound, over the whole exponent range, and every decision taken from it at once.

``w = e / R`` with ``e = exp(t - m)`` and ``R`` the exact sum of the fixed-point weights
(:mod:`symattn.fast.exps`, :func:`symattn.fast.decide.rho`). A weight the output path sets to
0 (``t - m < -80``) is recomputed by :func:`symattn.fast.scaled.exp_scaled` as a mantissa and
a power of two, so ``exp(-2000)`` is rounded as well as ``0.3``. Decisions
(:mod:`symattn.fast.decisions`): float64, significant digits, places, balls; what they leave
open goes row by row through :mod:`symattn.fast.fallback`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

import flint
import numpy as np

from symattn.config import Limits
from symattn.exact import (
    LIMB_BITS,
    Ball,
    BallArray,
    Narrow,
    Places,
    RoundedArray,
    Significant,
    Surd,
    float_of,
    ints_to_limbs,
)
from symattn.fast.decide import rho
from symattn.fast.decisions import (
    balls,
    decide_float64,
    decide_places,
    decide_significant,
    significant_parts,
)
from symattn.fast.doubles import EXP_RESIDUAL_ERR, U2, dd_add, dd_div, fast_two_sum, two_prod
from symattn.fast.enclose import head_exps
from symattn.fast.exps import Exps, iter_exps, weight_slices
from symattn.fast.fallback import RowCache, settle_weights
from symattn.fast.fixedpoint import FixedExps, fixed_exps, fixed_row_sums
from symattn.fast.float64 import setup
from symattn.fast.jit import limb_kernels
from symattn.fast.limbs import shifted_product
from symattn.fast.problem import Problem, exact_add, exact_scores
from symattn.fast.scaled import exp_scaled, scaled_tables
from symattn.fast.tables import TABLES
from symattn.fast.workspace import Workspace

__all__ = ["Weights", "certify_weights", "iter_weights", "weights_run"]

T = TypeVar("T")


@dataclass(frozen=True)
class Weights:
    """The weights of a chunk of rows: ``w ~ (wh + wl) * 2**k`` with
    ``|w - (wh + wl) 2**k| <= bound * 2**k`` where ``ok``; exactly 0 where ``zero`` (masked
    keys, fully masked rows)."""

    wh: np.ndarray
    wl: np.ndarray
    k: np.ndarray
    bound: np.ndarray
    ok: np.ndarray
    zero: np.ndarray


def _row_sums(x: Exps, aw: int, na: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(rh, rl, d_r, r_lo)``: the exact sum of the fixed-point weights, its distance to the
    true row sum (``eta n_active`` plus accumulation) and a lower bound of both."""
    eta = 2 * rho(x.row_t_err, x.tables) + 2.0 ** -(aw * na - 1)
    rh = np.zeros(x.eh.shape[0])
    rl = np.zeros_like(rh)
    for s, slab in enumerate(weight_slices(x.eh, x.el, aw, na)):
        rh, rl = dd_add(rh, rl, np.ldexp(slab.sum(axis=1), -(aw * (s + 1) - 1)), 0.0)
    d_r = eta * x.n_active + 4 * 4 * U2 * (np.abs(rh) + 1)
    return rh, rl, d_r, rh - np.abs(rl) - d_r


def _shifted(
    x: Exps, where: np.ndarray, gamma: tuple[float, float, float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``m - t`` at the entries ``where`` (a boolean mask) as a double-double, and per entry
    an absolute error bound."""
    if x.delta is not None:  # m - t = |gamma| delta, delta an exact integer below 2**53
        d = x.delta[where]
        sign = 1.0 if gamma[0] > 0 else -1.0  # |gamma| = sign (gh + gl)
        gh, gl, gerr = sign * gamma[0], sign * gamma[1], gamma[2]
        xh, xl = two_prod(d, gh)
        xh, xl = fast_two_sum(xh, xl + d * gl)
        return xh, xl, d * (gerr * 1.01) + np.abs(xh) * 8 * U2
    assert x.th is not None and x.tl is not None
    rows = np.nonzero(where)[0]
    return -x.th[where], -x.tl[where], x.row_t_err[rows]


def iter_weights(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    gamma: tuple[float, float, float],
    direct: Any,
    work: Workspace,
) -> Iterator[tuple[slice, Weights]]:
    """The weights of query rows ``rows`` of batch entry ``b``, by chunks of rows.

    ``e / R = w (1 + d1) / (1 + d2)`` with ``|d1| <= rho``, ``|d2| <= d_r / R_lo``; the
    double-double division adds ``< 2**-96``. With all three below ``2**-19`` the relative
    error is at most ``eps = (rho + d_r/R_lo + 2**-96) (1 + 2**-18) / (1 - d_r/R_lo)`` and
    ``|w - w_true| <= eps |w| / (1 - eps)``. A weight set to 0 by the output path gets its
    own ``rho`` (three scaled tables instead of two) and a separate power of two.
    """
    for rs, x in iter_exps(p, b, rows, gamma, TABLES, direct, work):
        n_rows, S = x.eh.shape
        rh, rl, d_r, r_lo = _row_sums(x, p.aw, p.na)
        rel_r = d_r / np.maximum(r_lo, 1e-300)
        valid = (r_lo > 0.25) & (rel_r < 2.0**-19)
        r = rho(x.row_t_err, x.tables)
        eps = (r + rel_r + 2.0**-96) * (1 + 2.0**-18) / np.maximum(1 - rel_r, 1e-300)
        eps = np.where(valid & (eps < 2.0**-19), eps, np.inf)
        wh, wl = dd_div(x.eh, x.el, rh[:, None], rl[:, None])
        k = np.zeros(wh.shape, dtype=np.int64)
        eps_all = np.broadcast_to(eps[:, None], wh.shape).copy()
        zeroed = x.zeroed()
        if zeroed.any():
            xh, xl, tau = _shifted(x, zeroed, gamma)
            st = scaled_tables()
            fh, fl, fk, fine = exp_scaled(xh, xl, st)
            tau = tau * (1 + 2.0**-30)
            r_ext = np.where(
                fine & (tau <= 2.0**-20),
                tau * 1.01 + 3 * st.err + 4 * 8 * U2 + EXP_RESIDUAL_ERR,
                np.inf,
            )
            rows_z = np.nonzero(zeroed)[0]
            rr = rel_r[rows_z]
            e_ext = (r_ext + rr + 2.0**-96) * (1 + 2.0**-18) / np.maximum(1 - rr, 1e-300)
            e_ext = np.where(valid[rows_z] & (e_ext < 2.0**-19), e_ext, np.inf)
            qh, ql = dd_div(fh, fl, rh[rows_z], rl[rows_z])
            wh[zeroed], wl[zeroed], k[zeroed], eps_all[zeroed] = qh, ql, fk, e_ext
        mag = np.abs(wh) + np.abs(wl)
        bound = eps_all * mag / (1 - np.minimum(eps_all, 0.5)) * (1 + 2.0**-30)
        zero = ~x.active if x.active is not None else np.zeros(wh.shape, dtype=bool)
        ok = np.isfinite(bound) & np.isfinite(wh) & ~zero
        yield rs, Weights(wh, wl, k, bound, ok, zero)


def _blocks(p: Problem, block_rows: int) -> Iterator[tuple[tuple[int, ...], slice]]:
    L = p.q.shape[-2]
    for b in np.ndindex(*p.batch):
        for r0 in range(0, L, block_rows):
            yield b, slice(r0, min(L, r0 + block_rows))


def weights_run(p: Problem, limits: Limits, block_rows: int) -> tuple[np.ndarray, int]:
    """The weights correctly rounded to float64, and how many rows needed the fallback."""
    L, S = p.q.shape[-2], p.k.shape[-2]
    out = np.zeros(p.batch + (L, S))
    g, direct = setup(p)
    work = Workspace()
    fallbacks = 0
    caches: dict[tuple[int, ...], RowCache] = {}
    for b, rows in _blocks(p, block_rows):
        n = rows.stop - rows.start
        undecided = np.ones((n, S), dtype=bool)
        if g is not None:
            with np.errstate(invalid="ignore", divide="ignore", over="ignore", under="ignore"):
                for rs, w in iter_weights(p, b, rows, g, direct, work):
                    vals, decided = decide_float64(w.wh, w.wl, w.k, w.bound)
                    decided &= w.ok
                    vals = np.where(w.zero, 0.0, vals)
                    out[b + (slice(rows.start + rs.start, rows.start + rs.stop),)] = vals
                    undecided[rs] = ~(decided | w.zero)
        for i in np.flatnonzero(undecided.any(axis=1)).tolist():
            cache = caches.setdefault(b, RowCache(p, b))
            cols = np.flatnonzero(undecided[i]).tolist()
            for j, x in settle_weights(cache, rows.start + i, cols, float_of, 80, limits).items():
                out[b + (rows.start + i, j)] = x
            fallbacks += 1
    out.flags.writeable = False
    return out, fallbacks


def _vector_decide(decide: Callable[[Ball], Any], w: Weights) -> tuple[np.ndarray, np.ndarray]:
    """Results and the decided mask for a chunk (flattened), by the batched decisions."""
    wh, wl, k, bound = (a.reshape(-1) for a in (w.wh, w.wl, w.k, w.bound))
    ok = w.ok.reshape(-1)
    n = wh.shape[0]
    if isinstance(decide, Significant) and decide.digits <= 15:
        got, decided = decide_significant(wh, wl, k, bound, decide.digits, decide.mode)
    elif isinstance(decide, Places):
        got, decided = decide_places(wh, wl, k, bound, decide.decimals, decide.mode)
    elif decide is float_of:
        vals, decided = decide_float64(wh, wl, k, bound)
        got = vals.astype(object)
    else:  # balls: kept when narrow enough for enclose, else handed to ``decide``
        sel = np.flatnonzero(ok)
        if isinstance(decide, Narrow):
            with np.errstate(under="ignore"):
                tight = np.ldexp(bound[sel], np.clip(k[sel], -3000, 3000).astype(np.int32))
            sel = sel[2.1 * tight < 10.0**-decide.digits]  # an underflow is narrow all the same
        floor = np.abs(wh[sel]) * 2.0**-150  # a radius of at least a few units of the centre
        made = balls(wh[sel], wl[sel], k[sel], np.maximum(bound[sel], floor))
        got = np.full(n, None, dtype=object)
        decided = np.zeros(n, dtype=bool)
        for j, ball in zip(sel.tolist(), made, strict=True):
            res: Any = ball if isinstance(decide, Narrow) else decide(ball)
            got[j] = res
            decided[j] = res is not None
    return got, decided & ok


def certify_weights(
    p: Problem, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits
) -> np.ndarray | RoundedArray | BallArray:
    """:meth:`~symattn.exact.ExactTensor.certify` of the weights of ``p``, batched.

    From the double-double weights where the decision needs at most about 20 digits
    (``float64``, ``evalf(<= 15)``, ``round``, ``enclose(<= 20)``); from exact fixed-point
    weights or Arb for more digits (:func:`_certify_wide`). Rows with open entries go through
    :func:`~symattn.fast.fallback.settle_weights`, which knows the rational rows (``1/m``).
    """
    if isinstance(decide, Narrow) and decide.digits > 20:
        fixed = _certify_fixed(p, decide)
        return fixed if fixed is not None else _certify_wide(p, decide, start_bits, limits)
    if isinstance(decide, Significant) and decide.digits <= 15:
        return _rounded_weights(p, decide, start_bits, limits)
    L, S = p.q.shape[-2], p.k.shape[-2]
    out = np.empty(p.batch + (L, S), dtype=object)
    zero = decide(Ball.exact(Fraction(0)))

    def put_block(where: tuple[Any, ...], w: Weights) -> np.ndarray:
        got, decided = _vector_decide(decide, w)
        block = got.reshape(w.wh.shape)
        block[w.zero] = zero
        out[where] = block
        return np.asarray(decided.reshape(w.wh.shape) | w.zero)

    def put_one(where: tuple[int, ...], res: T) -> None:
        out[where] = res

    _fill_weights(p, decide, start_bits, limits, put_block, put_one)
    out.flags.writeable = False
    return out


def _enclose_weights(
    factor: Surd,
    scores: np.ndarray,
    masked: np.ndarray | None,
    add: tuple[np.ndarray, Fraction] | None,
    prec: int,
) -> np.ndarray:
    """Arb balls of every weight of one head: ``exp`` once per distinct score, one division each."""
    L, S = scores.shape
    out = np.empty((L, S), dtype=object)
    with flint.ctx.workprec(prec):
        zero = flint.arb(0)
        for i, row in enumerate(head_exps(factor, scores, masked, add)):
            total = zero
            for x in row:
                total += x
            out[i] = [zero] * S if total.is_zero() else [x / total for x in row]
    return out


def _certify_fixed(p: Problem, decide: Narrow) -> BallArray | None:
    """``enclose(digits)`` of the weights from exact fixed-point weights (integer scores, no
    additive mask; ``None`` otherwise): ``w = W / R`` with ``|W - 2**P e| <= err`` and
    ``|R - 2**P R_true| <= err n``, so ``|W / R - w_true| <= err (1 + n) / (R - err n)``
    (``w <= 1``): one radius per row, the centres as numpy digits
    (:func:`~symattn.fast.limbs.shifted_product`), no Python integer per weight."""
    if p.add is not None:
        return None
    L, S = p.q.shape[-2], p.k.shape[-2]
    P = int(decide.digits * 3.33) + 2 * max(S, 2).bit_length() + 16
    width = Fraction(1, 10**decide.digits)
    heads = []
    bits = P
    for b in np.ndindex(*p.batch):
        scores, factor = exact_scores(p, b)
        masked = p.masked[b] if p.masked is not None else None
        fx = fixed_exps(factor, scores, masked, P) if scores.dtype == np.int64 else None
        if fx is None or fx.width != LIMB_BITS:
            return None
        sums = fixed_row_sums(fx)
        n = fx.active.sum(axis=1) if fx.active is not None else np.full(L, S)
        rad = []
        for total, count in zip(sums.tolist(), n.tolist(), strict=True):
            slack = total - fx.err * count
            if count and (
                slack <= 0
                or Fraction(2 * (fx.err * (1 + count) << fx.bits) // slack + 4, 1 << fx.bits)
                >= width
            ):
                return None
            rad.append((fx.err * (1 + count) << fx.bits) // slack + 4 if count else 0)
        # centre floor(W 2**P / R) to within 3: W * floor(2**(2P+D) / R) >> (P+D), D one
        # digit, W < 2**(P+1), the product's low columns left out (at most one less)
        shift = fx.bits + LIMB_BITS
        recip = ints_to_limbs([(1 << (fx.bits + shift)) // max(x, 1) for x in sums.tolist()])
        centre = _centres(fx, recip, shift // LIMB_BITS)
        off = np.broadcast_to((n == 0)[:, None], (L, S))
        if fx.active is not None:
            off = ~fx.active | off
        heads.append((centre, np.array(rad, dtype=np.int64), np.broadcast_to(off, (L, S))))
        bits = fx.bits  # the same for every head: it depends on P only
    width_d = max((c.shape[-1] for c, _, _ in heads), default=1)
    mids = np.zeros(p.batch + (L, S, width_d), dtype=np.int64)
    radius = np.zeros(p.batch + (L, S), dtype=np.int64)
    sign = np.ones(p.batch + (L, S), dtype=np.int8)
    for b, (centre, rad_row, off) in zip(np.ndindex(*p.batch), heads, strict=True):
        mids[b][..., : centre.shape[-1]] = centre
        radius[b] = rad_row[:, None]
        mids[b][off] = 0
        radius[b][off] = 0
        sign[b][off] = 0
    sign[(mids == 0).all(axis=-1)] = 0
    exp = np.full(sign.shape, -bits, dtype=np.int64)
    return BallArray.of(mids, sign, exp, radius, exp, None, decide.digits)


def _centres(fx: FixedExps, recip: np.ndarray, drop: int) -> np.ndarray:
    """The digits of ``W * recip_row >> (LIMB_BITS drop)`` (or one less) of every weight:
    :func:`~symattn.fast.limbs.shifted_product`, or the compiled
    :func:`~symattn.fast.limbexp.centre_kernel` (the same digits) for large heads."""
    L, S = fx.inv.shape
    kernels = limb_kernels(L * S)
    na, nb = fx.table.shape[1], recip.shape[1]
    if kernels is None or min(na, nb) > 32:
        wd = [fx.table[:, s].take(fx.inv) for s in range(na)]
        rd = [recip[:, u].astype(np.float64)[:, None] for u in range(nb)]
        return shifted_product(wd, rd, drop)
    base = na + nb - 1 - drop
    out = np.zeros((L, S, base + 3), dtype=np.int64)
    table = np.ascontiguousarray(fx.table, dtype=np.uint32)  # integer digits below 2**24
    kernels.centre_kernel(table, fx.inv, recip.astype(np.uint64), drop, LIMB_BITS, out)
    used = base
    while used < out.shape[2] and out[:, :, used].any():
        used += 1
    return out[:, :, :used]


def _fill_weights(
    p: Problem,
    decide: Callable[[Ball], T | None],
    start_bits: int,
    limits: Limits,
    put_block: Callable[[tuple[Any, ...], Weights], np.ndarray],
    put_one: Callable[[tuple[int, ...], T], None],
) -> None:
    """Every weight of ``p``, decided: each double-double block goes to ``put_block`` (which
    stores what it decided and returns that mask, in the block's shape), then every entry
    left open is settled one by one (:func:`~symattn.fast.fallback.settle_weights`) and goes
    to ``put_one``."""
    S = p.k.shape[-2]
    g, direct = setup(p)
    work = Workspace()
    for b, rows in _blocks(p, 256):
        undecided = np.ones((rows.stop - rows.start, S), dtype=bool)
        if g is not None:
            with np.errstate(invalid="ignore", divide="ignore", over="ignore", under="ignore"):
                for rs, w in iter_weights(p, b, rows, g, direct, work):
                    where = b + (slice(rows.start + rs.start, rows.start + rs.stop),)
                    undecided[rs] = ~put_block(where, w)
        if undecided.any():
            cache = RowCache(p, b)
            for i in np.flatnonzero(undecided.any(axis=1)).tolist():
                cols = np.flatnonzero(undecided[i]).tolist()
                got = settle_weights(cache, rows.start + i, cols, decide, start_bits, limits)
                for j, res in got.items():
                    put_one(b + (rows.start + i, j), res)


def _rounded_weights(
    p: Problem, decide: Significant, start_bits: int, limits: Limits
) -> RoundedArray:
    """``evalf(digits <= 15)`` of the weights as a :class:`RoundedArray`: coefficients and
    powers of ten straight from the double-double decisions, ``Decimal`` only for the
    entries left to :func:`~symattn.fast.fallback.settle_weights`."""
    L, S = p.q.shape[-2], p.k.shape[-2]
    coef = np.zeros(p.batch + (L, S), dtype=np.int64)
    exp = np.zeros(coef.shape, dtype=np.int64)

    def put_block(where: tuple[Any, ...], w: Weights) -> np.ndarray:
        wh, wl, wk, wb = (a.reshape(-1) for a in (w.wh, w.wl, w.k, w.bound))
        good, m, pw, sg = significant_parts(wh, wl, wk, wb, decide.digits, decide.mode)
        ok = np.zeros(w.wh.size, dtype=bool)
        ok[good] = True
        ok &= w.ok.reshape(-1)
        c = np.zeros(w.wh.size, dtype=np.int64)
        e = np.zeros(w.wh.size, dtype=np.int64)
        c[good] = (m * sg).astype(np.int64)
        e[good] = -pw
        zero = w.zero.reshape(-1)
        c[zero], e[zero] = 0, 0
        coef[where] = c.reshape(w.wh.shape)
        exp[where] = e.reshape(w.wh.shape)
        return np.asarray((ok | zero).reshape(w.wh.shape))

    def put_one(where: tuple[int, ...], res: Decimal) -> None:
        one = RoundedArray.from_decimals([res])
        coef[where] = int(one.coef[0])
        exp[where] = int(one.exp[0])

    _fill_weights(p, decide, start_bits, limits, put_block, put_one)
    return RoundedArray.of(coef, exp, None, decide.digits)


def _certify_wide(
    p: Problem, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits
) -> np.ndarray:
    """Weights to many digits: Arb balls per head (``exp`` once per distinct score)."""
    L, S = p.q.shape[-2], p.k.shape[-2]
    prec = start_bits + 24 + 2 * max(S, 2).bit_length()
    out = np.empty(p.batch + (L, S), dtype=object)
    for b in np.ndindex(*p.batch):
        masked = p.masked[b] if p.masked is not None else None
        scores, factor = exact_scores(p, b)
        head = _enclose_weights(factor, scores, masked, exact_add(p, b), prec)
        cache = RowCache(p, b)
        for i in range(L):
            pending = []
            row = [Ball.from_arb(x) if x.is_finite() else None for x in head[i]]
            for j, ball in enumerate(row):
                res = decide(ball) if ball is not None else None
                if res is None:
                    pending.append(j)
                else:
                    out[b + (i, j)] = res
            if pending:
                got = settle_weights(cache, i, pending, decide, start_bits, limits)
                for j, res in got.items():
                    out[b + (i, j)] = res
    out.flags.writeable = False
    return out
