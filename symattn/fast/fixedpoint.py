"""Exact fixed-point weights of a head of integer scores, ``floor(2**bits exp(-|gamma| delta))``
per distinct score gap, and the outputs ``N / R`` built on them by exact BLAS products of
slices, with their error bounds (the fast path of :mod:`symattn.fast.enclose` and of the
weights)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np

from symattn.exact import LIMB_BITS, Surd, arb_of, combine_products, ints_to_limbs
from symattn.fast.bulk import combine_ints
from symattn.fast.jit import limb_kernels

__all__ = [
    "FixedExps",
    "FixedOutputs",
    "fixed_balls",
    "fixed_exps",
    "fixed_outputs",
    "fixed_row_sums",
]


def _fixed_int(x: flint.arb, bits: int) -> tuple[int, int]:
    """``(m, err)``: ``|x * 2**bits - m| <= err`` for every point of the ball ``x >= 0``
    (``err`` is -1 when the ball is not finite)."""
    y = x * (1 << bits)
    man, ex = y.mid().man_exp()
    m, e = int(man), int(ex)
    mid = m << e if e >= 0 else m >> -e  # floor: error below 1
    rad = y.rad()
    whole = rad.floor().unique_fmpz() if rad.is_finite() else None
    return mid, -1 if whole is None else int(whole) + 2


@dataclass(frozen=True)
class FixedExps:
    """Exact fixed-point weights of one head: ``W = floor(2**bits exp(-|gamma| delta))`` for
    each distinct ``delta = max_row - score``, as ``width``-bit float slices, low first, in
    ``table``; ``inv`` maps every entry to its ``delta``; ``|W - 2**bits e| <= err`` for
    every weight. Masked entries are not ``active``."""

    table: np.ndarray
    inv: np.ndarray
    active: np.ndarray | None
    err: int
    bits: int
    width: int = 24  # bits per slice of ``table``


def fixed_exps(
    factor: Surd, scores: np.ndarray, masked: np.ndarray | None, prec: int, nbytes: int = 3
) -> FixedExps | None:
    """The exact fixed-point weights of a head of integer scores (``None``: out of reach,
    e.g. a zero factor or a score range wider than the distinct scores), sliced into
    ``8 * nbytes``-bit slices."""
    L, S = scores.shape
    if L == 0 or S == 0:
        return None
    sw = 8 * nbytes
    bits = -(-prec // sw) * sw
    nsl = bits // sw + 1
    with flint.ctx.workprec(prec + 64):
        g = factor.arb()
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
        # product of two fixed-point values, floored:
        # error <= e0 * T1 + e1 * T0 + e0 e1 + 1 (in 2**-bits)
        err = e0 + e1 + (e0 * e1 >> bits) + 2
        kernels = limb_kernels(L * S) if sw == LIMB_BITS else None
        if kernels is not None:  # the products compiled, digit by digit (exact)
            table = np.zeros((len(uniq), nsl))
            a0 = ints_to_limbs([m for m, _ in t0], nsl).astype(np.uint32)
            a1 = ints_to_limbs([m for m, _ in t1], nsl).astype(np.uint32)
            lo, hi = uniq & (t0n - 1), uniq >> 12
            if kernels.table_kernel(a0, a1, lo, hi, bits // sw, table) == 0:
                if table[:, -1].max(initial=0.0) <= 1:  # every weight at most 2**bits
                    return FixedExps(table, inv, active, err, bits, sw)
        a0 = np.array([m for m, _ in t0], dtype=object)
        a1 = np.array([m for m, _ in t1], dtype=object)
        w = (a0[uniq & (t0n - 1)] * a1[uniq >> 12]) >> bits  # whole-array Python integer products
        w = np.minimum(w, one)
    words = b"".join([int(x).to_bytes(nbytes * nsl, "little") for x in w.tolist()])
    raw = np.frombuffer(words, dtype=np.uint8).reshape(len(uniq), nsl, nbytes).astype(np.float64)
    table = raw[:, :, 0].copy()  # the slices, low first
    for byte in range(1, nbytes):
        table += raw[:, :, byte] * float(1 << (8 * byte))
    return FixedExps(table, inv, active, err, bits, sw)


def fixed_row_sums(fx: FixedExps) -> np.ndarray:
    """``R = sum_j W_j`` per row, exactly (Python integers): the slices summed in float64."""
    parts = []
    for sidx in range(fx.table.shape[1]):
        a = fx.table[:, sidx].take(fx.inv)
        if fx.active is not None:
            a = np.where(fx.active, a, 0.0)
        parts.append((a.sum(axis=1).astype(np.int64), fx.width * sidx))
    out: np.ndarray = combine_products(parts, small=False)
    return out


@dataclass(frozen=True)
class FixedOutputs:
    """The outputs of one head from exact fixed-point weights (:func:`fixed_exps`): the exact
    integers ``N = sum_j W_j V_int[j]`` (L x Ev) and ``R = sum_j W_j`` (L), with
    ``|N - 2**bits N_true| <= err colabs`` and ``|R - 2**bits R_true| <= err n_active``, where
    ``colabs = sum_j |V_int[j]|`` per column; the output is ``unit N / R``."""

    num: np.ndarray
    den: np.ndarray
    err: int
    colabs: np.ndarray
    n_active: np.ndarray
    bits: int


def fixed_outputs(
    factor: Surd, scores: np.ndarray, vint: np.ndarray, masked: np.ndarray | None, prec: int
) -> FixedOutputs | None:
    """``N`` and ``R`` of one head of integer scores by exact BLAS products of 24-bit slices
    of the fixed-point weights (``None`` when V is too wide for them, or :func:`fixed_exps`
    is out of reach)."""
    L, S = scores.shape
    Ev = vint.shape[1]
    small = vint.dtype == np.int64
    if small:
        vmax = int(np.abs(vint).max(initial=0))
    else:
        vmax = max((abs(int(x)) for x in vint.reshape(-1)), default=0)
    # slices as wide as the products allow: a slice times V summed over S below 2**53
    room = 53 - (S + 1).bit_length() - max(vmax, 1).bit_length() - 1
    if room < 24:
        return None
    # 24-bit slices when the compiled table products apply (more products, no Python
    # integer per distinct score), else as wide as the room allows
    nbytes = 3 if limb_kernels(L * S) is not None else min(room, 40) // 8
    fx = fixed_exps(factor, scores, masked, prec, nbytes=nbytes)
    if fx is None:
        return None
    vf = vint.astype(np.float64)
    n_parts, r_parts = [], []
    for sidx in range(fx.table.shape[1]):
        a = fx.table[:, sidx].take(fx.inv)
        if fx.active is not None:
            a = np.where(fx.active, a, 0.0)
        n_parts.append((a @ vf, fx.width * sidx))
        r_parts.append((a.sum(axis=1), fx.width * sidx))
    n_active = fx.active.sum(axis=1) if fx.active is not None else np.full(L, S)
    if small and vmax * max(S, 1) < 2**62:
        colabs = np.abs(vint).sum(axis=0).astype(object)
    else:
        colabs = np.array([sum(abs(int(x)) for x in vint[:, j]) for j in range(Ev)], dtype=object)
    return FixedOutputs(
        combine_ints(n_parts), combine_ints(r_parts), fx.err, colabs, n_active, fx.bits
    )


def fixed_balls(fo: FixedOutputs, v_unit: Fraction, prec: int) -> np.ndarray:
    """One Arb ball per output, ``unit N / R``, whose radius holds both error terms."""
    L, Ev = fo.num.shape
    err = fo.err
    with flint.ctx.workprec(prec):
        unit = arb_of(v_unit)
        zero = flint.arb(0)
        dens = [
            flint.arb(flint.fmpz(int(fo.den[i])), err * int(fo.n_active[i])) / unit
            if fo.n_active[i]
            else None
            for i in range(L)
        ]
        rad = np.broadcast_to(fo.colabs * err, (L, Ev))
        dball = np.broadcast_to(np.array(dens, dtype=object)[:, None], (L, Ev))

        def ball(nn: int, r: int, d: flint.arb | None) -> flint.arb:
            return zero if d is None else flint.arb(flint.fmpz(nn), r) / d

        out: np.ndarray = np.frompyfunc(ball, 3, 1)(fo.num, rad, dball).astype(object)
    return out
