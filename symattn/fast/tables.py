"""``exp`` from certified tables, vectorised.

``exp(t)`` for ``t <= 0`` is ``T0[d0] * T1[d1] * exp(-y)``: two table values (computed in
Arb, each error measured rigorously) indexed by the binary digits of
``delta = floor(-t * 2**16)``, and a Taylor polynomial for the residual ``|y| <= 2**-16``
(:func:`symattn.fast.doubles.exp_residual`, within ``2**-96``).
Entries with ``-t > 80`` become 0 (true value below ``2**-115``). When every scaled score is
``gamma`` times an integer, per-call tables of ``exp(-|gamma| d)`` need no residual at all.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import flint
import numpy as np

from symattn.exact import Surd
from symattn.fast.doubles import arb_dd, dd_mul, exp_residual, two_sum
from symattn.fast.problem import Problem

__all__ = [
    "CUTOFF",
    "LEVEL_BITS",
    "LIMIT",
    "TABLES",
    "Direct",
    "Tables",
    "direct_tables",
    "exp_direct",
    "exp_neg",
    "exp_tables",
]

_F = 16  # fixed-point bits of the exp argument reduction
LEVEL_BITS = 12  # table index bits per level (2 levels: delta < 2**24)
CUTOFF = 80  # exp(-t) for t > 80 is treated as 0 (< 2**-115)


@dataclass(frozen=True)
class Tables:
    """Double-double tables ``hi + lo``, one per level, and their worst relative error."""

    hi: tuple[np.ndarray, ...]
    lo: tuple[np.ndarray, ...]
    err: float  # max relative error of a table entry
    #: each level as complex ``hi + 1j*lo`` (one gather per level)
    packed: tuple[np.ndarray, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        packed = tuple(h + 1j * lo for h, lo in zip(self.hi, self.lo, strict=True))
        for a in packed:
            a.flags.writeable = False
        object.__setattr__(self, "packed", packed)


def _powers(step: flint.arb, n: int) -> tuple[np.ndarray, np.ndarray, float]:
    """``step**d`` for ``d < n`` as read-only double-doubles, and their worst relative error."""
    x = flint.arb(1)
    hi, lo, worst = np.empty(n), np.empty(n), 0.0
    for d in range(n):
        h, low, e = arb_dd(x)
        hi[d], lo[d] = h, low
        worst = max(worst, e / h) if h else math.inf
        x = x * step
    hi.flags.writeable = False
    lo.flags.writeable = False
    return hi, lo, worst


def _tables(steps: list[tuple[flint.arb, int]]) -> Tables:
    """One table of powers per ``(step, size)`` (call inside an Arb working precision)."""
    levels = [_powers(step, n) for step, n in steps]
    worst = max(e for _, _, e in levels)
    return Tables(
        tuple(h for h, _, _ in levels), tuple(lo for _, lo, _ in levels), worst * (1 + 2.0**-40)
    )


#: ``-t * 2**16`` is clipped here: the index of the zero entry closing the second table
LIMIT = ((CUTOFF << _F >> LEVEL_BITS) + 1) << LEVEL_BITS


def exp_tables() -> Tables:
    """``T_l[d] = exp(-d * 2**(12 l) * 2**-16)`` for ``l = 0, 1`` as double-doubles; the second
    table ends past ``exp(-80)`` with a 0, where arguments beyond the cutoff land."""
    n1 = LIMIT >> LEVEL_BITS
    with flint.ctx.workprec(256):
        t = _tables(
            [
                ((flint.arb(2) ** (LEVEL_BITS * level - _F)).neg().exp(), n)
                for level, n in ((0, 1 << LEVEL_BITS), (1, n1))
            ]
        )
    zero = np.zeros(1)
    hi = (t.hi[0], np.concatenate([t.hi[1], zero]))
    lo = (t.lo[0], np.concatenate([t.lo[1], zero]))
    for a in hi + lo:
        a.flags.writeable = False
    return Tables(hi, lo, t.err)


#: computed once at import (a read-only constant; importing symattn does not import this module)
TABLES = exp_tables()


def exp_neg(
    th: np.ndarray, tl: np.ndarray, tables: Tables, far: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """``exp(t)`` for double-double ``t <= ~0``: ``(hi, lo)``; relative error in
    :func:`symattn.fast.decide.rho`. Arguments below ``-80.06`` (masked logits may be set far
    below) give exactly 0; the true value is below ``2**-115``.

    Correct when ``t <= 2**-16 * 2**-15`` for every entry (the Taylor residual stays below
    ``2**-15``): the caller checks that per row (a row's shift leaves ``t > 0`` only by the
    low part of its largest logit). ``far``: some entries may lie astronomically low (masked
    logits): their residual is clipped to stay finite (else, below ``2**51``, it is finite
    and its table entry 0 makes the product 0).
    """
    uh, ul = th * -(2.0**_F), tl * -(2.0**_F)  # exact scaling
    # fmax/fmin, not clip: a NaN logit (scores beyond the double range; its row is undecided)
    # gets index 0 instead of an out-of-range one
    delta = np.floor(np.fmin(np.fmax(uh, 0.0), float(LIMIT)))
    rh, rl = two_sum(uh - delta, ul)  # uh - delta is exact
    if far:  # beyond the limit the residual is meaningless (its table entry is 0): finite
        rh, rl = np.clip(rh, -2.0, 2.0), np.clip(rl, -2.0, 2.0)
    yh, yl = rh * 2.0**-_F, rl * 2.0**-_F
    d = delta.astype(np.int64)
    i0 = d & ((1 << LEVEL_BITS) - 1)
    i1 = d >> LEVEL_BITS
    eh, el = dd_mul(
        tables.hi[0].take(i0), tables.lo[0].take(i0), tables.hi[1].take(i1), tables.lo[1].take(i1)
    )
    ph, pl = exp_residual(yh, yl)
    eh, el = dd_mul(eh, el, ph, pl)
    return eh, el


@dataclass(frozen=True)
class Direct:
    """Tables of ``exp(-|gamma| * delta)`` for integer ``delta = max_row(S) - S`` (no residual)."""

    tables: Tables
    cut: float  # delta > cut implies |gamma| delta > 80: weight 0
    sign: float


def direct_tables(p: Problem, gamma: tuple[float, float, float]) -> Direct | None:
    """Per-call tables when every scaled score is ``gamma`` times an integer and few are needed."""
    gh = gamma[0]
    if gh == 0:
        return None
    cut = math.ceil(CUTOFF / abs(gh) * (1 + 2.0**-30))
    if cut >= 2 ** (2 * LEVEL_BITS):
        return None
    return Direct(_direct(p.gamma_surd, cut), float(cut), 1.0 if gh > 0 else -1.0)


@functools.lru_cache(maxsize=16)
def _direct(gamma: Surd, cut: int) -> Tables:
    """The tables of ``exp(-|gamma| d)`` up to ``d = cut`` (kept for the next call with the
    same scale and input units: a few milliseconds of Arb each)."""
    n0 = min(cut + 1, 1 << LEVEL_BITS)
    n1 = (cut >> LEVEL_BITS) + 1
    with flint.ctx.workprec(256):
        g = abs(gamma.arb())
        steps = [((-(g * 2**step_exp)).exp(), n) for n, step_exp in ((n0, 0), (n1, LEVEL_BITS))]
        return _tables(steps)


def exp_direct(delta: np.ndarray, direct: Direct) -> tuple[np.ndarray, np.ndarray]:
    """``exp(-|gamma| delta)`` from the per-call tables: ``(hi, lo)`` (0 beyond the cut)."""
    zeroed = delta > direct.cut
    d = np.where(zeroed, 0.0, delta).astype(np.int64)
    t = direct.tables.packed
    g = t[0].take(d & ((1 << LEVEL_BITS) - 1))
    eh, el = g.real, g.imag
    if len(t[1]) > 1:
        g = t[1].take(d >> LEVEL_BITS)
        eh, el = dd_mul(eh, el, g.real, g.imag)
    return np.where(zeroed, 0.0, eh), np.where(zeroed, 0.0, el)
