"""Every output entry decided at once: ``certify`` of the output of a plain attention.

Decisions that need at most about 20 digits (``float64``, ``evalf(<= 15)``, ``round``,
``enclose(<= 20)``) come from the double-double outputs of :mod:`symattn.fast.float64` and
their proved bounds (:mod:`symattn.fast.decisions`); more digits from the certified Arb balls
of :mod:`symattn.fast.enclose`. What a decision leaves open: a column of V equal on every key
at once, the rest row by row (:mod:`symattn.fast.fallback`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from symattn.config import Limits
from symattn.exact import Ball, Narrow, Places, Significant, float_of
from symattn.fast.decide import Outputs
from symattn.fast.decisions import (
    balls,
    decide_places,
    decide_significant,
    new_balls,
    paused_gc,
)
from symattn.fast.enclose import enclose_problem
from symattn.fast.fallback import RowCache, constant_columns, settle_outputs
from symattn.fast.fixedpoint import fixed_outputs
from symattn.fast.float64 import block_outputs, run, setup
from symattn.fast.problem import Problem, exact_scores, exact_values
from symattn.fast.tables import TABLES
from symattn.fast.workspace import Workspace

__all__ = ["certify_outputs"]

T = TypeVar("T")


def _fast_decision(decide: Callable[[Ball], Any]) -> bool:
    """Whether a double-double with its bound can decide ``decide`` (about 100 bits)."""
    return (
        (isinstance(decide, Significant) and decide.digits <= 15)
        or (isinstance(decide, Places) and -20 <= decide.decimals <= 20)
        or (isinstance(decide, Narrow) and decide.digits <= 20)
    )


def _vector(decide: Callable[[Ball], Any], o: Outputs) -> tuple[np.ndarray, np.ndarray]:
    """Results (an object array) and the decided mask of a block, flattened."""
    oh, ol, bound = (a.reshape(-1) for a in (o.oh, o.ol, o.bound))
    valid = o.valid.reshape(-1)
    k = np.zeros(oh.shape, dtype=np.int64)
    if isinstance(decide, Significant):
        got, ok = decide_significant(oh, ol, k, bound, decide.digits, decide.mode)
    elif isinstance(decide, Places):
        got, ok = decide_places(oh, ol, k, bound, decide.decimals, decide.mode)
    else:
        assert isinstance(decide, Narrow)
        sel = np.flatnonzero(valid & (2.1 * bound < 10.0**-decide.digits) & (oh != 0))
        got = np.full(oh.shape, None, dtype=object)
        got[sel] = balls(oh[sel], ol[sel], k[sel], np.maximum(bound[sel], 2.0**-1070))
        ok = np.zeros(oh.shape, dtype=bool)
        ok[sel] = True
    return got, ok & valid


def certify_outputs(
    p: Problem, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits
) -> np.ndarray:
    """:meth:`~symattn.exact.ExactTensor.certify` of the output of ``p``, batched."""
    if decide is float_of:
        values: np.ndarray = run(p, None, limits, 256)[0].astype(object)
        return values
    if isinstance(decide, Narrow) and not _fast_decision(decide):
        fixed = _narrow_fixed(p, decide, start_bits, limits)
        if fixed is not None:
            return fixed
    if not _fast_decision(decide):
        return _from_balls(p, decide, start_bits, limits)
    L, Ev = p.q.shape[-2], p.v.shape[-1]
    out = np.empty(p.batch + (L, Ev), dtype=object)
    g, direct = setup(p)
    work = Workspace()
    zero = decide(Ball.exact(Fraction(0)))
    for b in np.ndindex(*p.batch):
        undecided = np.ones((L, Ev), dtype=bool)
        if g is not None:
            for r0 in range(0, L, 256):
                rows = slice(r0, min(L, r0 + 256))
                with np.errstate(invalid="ignore", divide="ignore", over="ignore", under="ignore"):
                    o = block_outputs(p, b, rows, g, TABLES, direct, work)
                got, ok = _vector(decide, o)
                block = got.reshape(o.oh.shape)
                block[o.zero_rows] = zero
                out[b + (rows,)] = block
                undecided[rows] = ~(ok.reshape(o.oh.shape) | o.zero_rows[:, None])
        _settle(p, b, undecided, out, decide, start_bits, limits)
    out.flags.writeable = False
    return out


def _settle(
    p: Problem,
    b: tuple[int, ...],
    undecided: np.ndarray,
    out: np.ndarray,
    decide: Callable[[Ball], Any],
    start_bits: int,
    limits: Limits,
) -> None:
    """Decide what is left of batch entry ``b``: constant columns at once, then row by row."""
    if not undecided.any():
        return
    constant = constant_columns(p, b)
    some = np.ones(undecided.shape[0], bool) if p.masked is None else ~p.masked[b].all(axis=1)
    zero = None
    for c, value in constant.items():
        rows = np.flatnonzero(undecided[:, c])
        if rows.size:
            res = decide(Ball.exact(value))
            if zero is None:
                zero = decide(Ball.exact(Fraction(0)))
            for i in rows.tolist():
                out[b + (i, c)] = res if some[i] else zero
            undecided[rows, c] = False
    cache = RowCache(p, b)
    for i in np.flatnonzero(undecided.any(axis=1)).tolist():
        cols = np.flatnonzero(undecided[i]).tolist()
        for c, res in settle_outputs(cache, i, cols, decide, start_bits, limits).items():
            out[b + (i, c)] = res


def _narrow_fixed(p: Problem, decide: Narrow, start_bits: int, limits: Limits) -> np.ndarray | None:
    """``enclose(digits)`` from exact fixed-point weights (integer scores, no additive mask;
    ``None`` otherwise), the balls made in integer arithmetic: with ``x = u N / R``,
    ``|x - x_true| <= u (err colabs + |N / R| err n) / (R - err n)``."""
    if p.add is not None:
        return None
    L, S, Ev = p.q.shape[-2], p.k.shape[-2], p.v.shape[-1]
    prec = int(decide.digits * 3.33) + 24 + 2 * max(S, 2).bit_length()
    out = np.empty(p.batch + (L, Ev), dtype=object)
    zero = Ball.exact(Fraction(0))
    for b in np.ndindex(*p.batch):
        scores, factor = exact_scores(p, b)
        vint, unit = exact_values(p, b)
        masked = p.masked[b] if p.masked is not None else None
        fo = None
        if scores.dtype == np.int64:
            fo = fixed_outputs(factor, scores, vint, masked, prec)
        if fo is None:
            return None
        q = fo.bits + 8  # the balls' grid: 2**-q
        limit = (1 << q) // (2 * 10**decide.digits)  # rad < limit: narrower than the width
        un, ud = unit.numerator, unit.denominator
        # |N| <= (R + err n) max|V|: one radius per row covers every column
        vmax = max((abs(int(x)) for x in vint.reshape(-1).tolist()), default=0)
        colmax = max((int(x) for x in fo.colabs.tolist()), default=0)
        cells_m: list[int] = []
        cells_r: list[int] = []
        for i in range(L):
            n, R = int(fo.n_active[i]), int(fo.den[i])
            slack = R - fo.err * n
            if not n:
                cells_m.extend([0] * Ev)
                cells_r.extend([0] * Ev)
                continue
            if slack <= 0:
                return None
            spread = fo.err * (colmax * R + (R + fo.err * n) * vmax * n)
            rad = -(-(spread * (un << q)) // (ud * R * slack)) + 3  # + the centre's rounding
            if rad >= limit:
                return None
            nums = fo.num[i].tolist()
            # recip within 1 of 2**(q+g) un / (R ud), g above the bits of N: the centre
            # (N recip) >> g is then within 2 of N un 2**q / (R ud)
            guard = max(abs(N) for N in nums).bit_length() + 2
            recip = (un << (q + guard)) // (R * ud)
            cells_m.extend([(N * recip) >> guard for N in nums])
            cells_r.extend([rad] * Ev)
        made = new_balls(cells_m, cells_r, [-q] * (L * Ev))
        flat = np.empty(L * Ev, dtype=object)
        flat[:] = made
        head = flat.reshape(L, Ev)
        head[fo.n_active == 0] = zero
        out[b] = head
    out.flags.writeable = False
    return out


def _from_balls(
    p: Problem, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits
) -> np.ndarray:
    """Every entry's ball from :func:`enclose_problem` (about ``start_bits`` bits, plus guard
    digits) goes to ``decide``; entries it leaves open are settled like the others."""
    digits = max(1, start_bits // 3 + 4)
    arbs = enclose_problem(p, digits, None, limits)
    out = np.empty(arbs.shape, dtype=object)
    Ev = arbs.shape[-1]
    with paused_gc():
        for b in np.ndindex(*p.batch):
            head = arbs[b]
            undecided = np.zeros(head.shape, dtype=bool)
            flat = out[b].reshape(-1) if out[b].flags.c_contiguous else None
            for n, x in enumerate(head.reshape(-1).tolist()):
                res = decide(Ball.from_arb(x)) if x.is_finite() else None
                i, c = divmod(n, Ev)
                if res is None:
                    undecided[i, c] = True
                elif flat is not None:
                    flat[n] = res
                else:
                    out[b + (i, c)] = res
            _settle(p, b, undecided, out, decide, start_bits, limits)
    out.flags.writeable = False
    return out
