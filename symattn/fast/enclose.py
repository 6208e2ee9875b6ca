"""Certified enclosures of every output entry at any precision (:func:`attention_enclose`):
Arb balls from exact scores, with ``exp`` once per distinct score of a head, the fixed-point
paths (:mod:`symattn.fast.fixedpoint`, :mod:`symattn.fast.bulk`) first where they apply."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import PrecisionError
from symattn.exact import Surd, arb_of
from symattn.fast.bulk import BinaryOutputs, binary_balls, fixed_binary, limb_count
from symattn.fast.fixedpoint import fixed_balls, fixed_outputs
from symattn.fast.jit import limb_kernels
from symattn.fast.problem import (
    Problem,
    Progress,
    exact_add,
    exact_scores,
    exact_values,
    prepare,
)
from symattn.fast.sliced import Exact
from symattn.numbers.interop import FloatReading, float_reading

__all__ = [
    "attention_enclose",
    "enclose_problem",
    "head_exps",
]


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
    read_floats: str | FloatReading | None = None,
    exact_float: bool | None = None,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """Certified Arb balls around every output entry, each of radius below ``10**-digits / 2``.

    Scores are exact integers (BLAS slices); ``exp`` is taken once per distinct score
    value of a head; ``P V`` and the row sums are Arb matrix products (``arb_mat``).
    Every ball contains the true value; precision doubles until all are narrow enough.
    """
    floats = float_reading(read_floats, exact_float)
    p = prepare(query, key, value, attn_mask, is_causal, scale, enable_gqa, floats, limits)
    return enclose_problem(p, digits, progress, limits)


def enclose_problem(
    p: Problem, digits: int, progress: Progress | None, limits: Limits
) -> np.ndarray:
    """:func:`attention_enclose` for a prepared problem."""
    L, S, Ev = p.q.shape[-2], p.k.shape[-2], p.v.shape[-1]
    out = np.empty(p.batch + (L, Ev), dtype=object)
    prec = int(digits * 3.33) + 24 + 2 * max(S, 2).bit_length()
    batches = list(np.ndindex(*p.batch))
    target = flint.arb(10) ** (-digits) / 2
    for count, b in enumerate(batches, 1):
        masked = p.masked[b] if p.masked is not None else None
        if binary_inputs(p):
            fixed = _enclose_limbs(p, b, masked, digits)
            if fixed is None:
                fixed = _enclose_binary(p, b, masked, binary_bits(p, b, digits), target, limits)
            out[b] = fixed
            if progress is not None:
                progress(count, len(batches))
            continue
        scores, factor = exact_scores(p, b)
        vint, unit = exact_values(p, b)
        add = exact_add(p, b)
        while True:
            balls = None
            if add is None and scores.dtype == np.int64:
                fo = fixed_outputs(factor, scores, vint, masked, prec)
                if fo is not None:  # the bound of the radii in float64 first: no rad() each
                    bo = BinaryOutputs(
                        fo.num,
                        fo.den,
                        fo.colabs * fo.err,
                        fo.n_active.astype(object) * fo.err,
                        fo.n_active,
                        fo.bits,
                        unit,
                    )
                    balls = binary_balls(bo, digits)
                    if balls is not None:
                        break
                    balls = fixed_balls(fo, unit, prec + 64)
            if balls is None:
                balls = _enclose_head(factor, scores, vint, unit, masked, add, prec)
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


def binary_inputs(p: Problem) -> bool:
    """Whether Q and K are binary floats: their exact scores have many distinct values, and
    are taken by Arb matrix products rather than as integers (:func:`_enclose_binary`)."""
    return p.q.source.floats is not None and p.k.source.floats is not None


def _vmax_bits(p: Problem, b: tuple[int, ...]) -> int:
    """The binary exponent of the largest ``|V|`` of head ``b`` (0 when V is 0)."""
    vx = p.v.source.batch(b)
    if vx.floats is not None:
        vmax = float(np.abs(vx.floats).max(initial=0.0))
    else:
        ints, unit = vx.at((slice(None), slice(None)))
        vmax = float(max((abs(int(i)) for i in ints.reshape(-1).tolist()), default=0) * unit)
    return max(int(np.frexp(vmax)[1]), 0) if vmax > 0 else 0


def _enclose_limbs(
    p: Problem, b: tuple[int, ...], masked: np.ndarray | None, digits: int
) -> np.ndarray | None:
    """The balls of one head of binary-float Q and K from the fixed-point weights of
    :func:`~symattn.fast.bulk.fixed_binary` (compiled kernels), more limbs when too wide;
    ``None`` when that path does not apply or does not reach ``target``."""
    L, S = p.q.shape[-2], p.k.shape[-2]
    kernels = limb_kernels(L * S)
    if kernels is None or not (L and S):
        return None
    nf = limb_count(digits, _vmax_bits(p, b))
    for limbs in (nf, nf + 1, nf + 3):
        bo = fixed_binary(p, b, masked, limbs, kernels)
        if bo is None:
            return None
        balls = binary_balls(bo, digits)
        if balls is not None:
            return balls
    return None


def binary_bits(p: Problem, b: tuple[int, ...], digits: int) -> int:
    """The first working precision of :func:`_enclose_binary`: the bits of ``10**-digits / 2``,
    of the largest ``|V|`` and of the number of keys, and guard bits (Arb's error bounds
    grow with them: at n = 1024 the balls come out 2**-174 wide at 176 bits; too few bits
    only costs a second pass at twice the precision, never a wrong ball)."""
    vbits = _vmax_bits(p, b)
    keys = max(p.k.shape[-2], 2).bit_length()
    return math.ceil(digits * math.log2(10)) + 1 + vbits + keys // 2 + 4


def arb_matrix(x: Exact) -> flint.arb_mat:
    """The exact entries of a matrix as an ``arb_mat`` (floats exactly; integers times the
    unit, rounded at the working precision)."""
    if x.floats is not None:
        return flint.arb_mat(np.asarray(x.floats, dtype=np.float64).tolist())
    ints, unit = x.at((slice(None), slice(None)))
    m = flint.arb_mat(ints.tolist())
    return m if unit == 1 else m * arb_of(unit)


def _exact_bits(x: Exact) -> int:
    """Bits that hold every product of two entries of binary floats exactly, with room for
    sums of them: the spread of their exponents plus two significands."""
    if x.floats is None:
        return 128
    a = np.abs(np.asarray(x.floats, dtype=np.float64))
    nz = a[a > 0]
    if nz.size == 0:
        return 64
    spread = int(np.frexp(nz.max())[1]) - int(np.frexp(nz.min())[1])
    return spread + 53 + 8


def _enclose_binary(
    p: Problem,
    b: tuple[int, ...],
    masked: np.ndarray | None,
    prec: int,
    target: flint.arb,
    limits: Limits,
) -> np.ndarray:
    """The balls of one head of binary-float Q and K: the scores as an exact Arb matrix
    product, ``exp`` once per entry that takes part, ``P V`` and the row sums as Arb matrix
    products (``arb_mat``, no Python integer per score); precision doubles until narrow."""
    qx, kx = p.q.source.batch(b), p.k.source.batch(b)
    vx = p.v.source.batch(b)
    add = p.add.source.batch(b) if p.add is not None else None
    L, S, Ev = qx.shape[0], kx.shape[0], vx.shape[1]
    out = np.empty((L, Ev), dtype=object)
    if not (L and S):
        out.fill(flint.arb(0))
        return out
    full: np.ndarray = np.zeros(L, dtype=bool)
    if masked is not None:
        full = np.asarray(np.broadcast_to(masked, (L, S)).all(axis=1))
    off = None if masked is None else np.flatnonzero(np.broadcast_to(masked, (L, S))).tolist()
    while True:
        with flint.ctx.workprec(prec + _exact_bits(qx) + _exact_bits(kx)):
            scores = arb_matrix(qx) * arb_matrix(kx).transpose()  # exact when the bits suffice
        with flint.ctx.workprec(prec):
            logits = scores * p.scale.arb()
            if add is not None:
                logits = logits + arb_matrix(add)
            flat = logits.entries()
            zero = flint.arb(0)
            if off is not None:
                for pos in off:
                    flat[pos] = zero
                exps = [x if x is zero else x.exp() for x in flat]
            else:
                exps = [x.exp() for x in flat]
            e = flint.arb_mat(L, S, exps)
            n = e * arb_matrix(vx)
            sums = (e * flint.arb_mat(S, 1, [1] * S)).entries()
            nums = n.entries()
            balls = [
                zero if full[i] else nums[i * Ev + j] / sums[i] for i in range(L) for j in range(Ev)
            ]
            if all(x.rad() < target for x in balls):
                out[...] = np.array(balls, dtype=object).reshape(L, Ev)
                return out
        if prec >= limits.max_precision_bits:
            raise PrecisionError(f"enclosures not narrow enough at {prec} bits")
        prec = min(2 * prec, limits.max_precision_bits)


def head_exps(
    factor: Surd,
    scores: np.ndarray,
    masked: np.ndarray | None,
    add: tuple[np.ndarray, Fraction] | None,
) -> list[list[flint.arb]]:
    """``exp`` of every logit ``factor * score + add`` of one head as Arb balls (0 where
    masked), once per distinct score when there is no additive mask (call inside an Arb
    working precision)."""
    L, S = scores.shape
    g = factor.arb()
    zero = flint.arb(0)
    if add is None and scores.dtype == np.int64:
        uniq, inv = np.unique(scores, return_inverse=True)
        table = [(g * int(s)).exp() for s in uniq.tolist()]
        rows = [[table[k] for k in row] for row in inv.reshape(L, S).tolist()]
    elif add is None:  # Python integers: distinct values by hashing (linear), masked skipped
        flat = scores.reshape(-1).tolist()
        if masked is not None:
            for pos in np.flatnonzero(masked).tolist():
                flat[pos] = None
        exps = {s: (g * s).exp() for s in dict.fromkeys(flat) if s is not None}
        exps[None] = zero
        rows = [[exps[s] for s in flat[i * S : (i + 1) * S]] for i in range(L)]
        return rows
    else:
        ints, unit = add
        u = arb_of(unit)
        rows = [
            [(g * int(scores[i, j]) + u * int(ints[i, j])).exp() for j in range(S)]
            for i in range(L)
        ]
    if masked is not None:
        for i, j in np.argwhere(masked):
            rows[i][j] = zero
    return rows


def _enclose_head(
    factor: Surd,
    scores: np.ndarray,
    vint: np.ndarray,
    v_unit: Fraction,
    masked: np.ndarray | None,
    add: tuple[np.ndarray, Fraction] | None,
    prec: int,
) -> np.ndarray:
    """Balls of one head's outputs: Arb matrix products of the exps with V and with ones."""
    L, S = scores.shape
    Ev = vint.shape[1]
    out = np.empty((L, Ev), dtype=object)
    with flint.ctx.workprec(prec):
        zero = flint.arb(0)
        if not (L and S):
            out.fill(zero)
            return out
        e = flint.arb_mat(head_exps(factor, scores, masked, add))
        unit = arb_of(v_unit)
        vm = flint.arb_mat([[flint.arb(int(x)) for x in row] for row in vint.tolist()])
        n = e * vm
        sums = e * flint.arb_mat(S, 1, [1] * S)
        for i in range(L):
            si = sums[i, 0]
            full = masked is not None and bool(masked[i].all())
            for j in range(Ev):
                out[i, j] = zero if full else n[i, j] * unit / si
    return out
