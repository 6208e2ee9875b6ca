"""``exp(-x)`` over the whole range, as a double-double mantissa and a separate power of two.

The weights of softmax can be far below the double range (``exp(-2000)``) and still have to be
rounded to 15 digits or to a subnormal double. Here ``exp(-x)`` for ``0 <= x < 2**20`` is
``M0[d0] M1[d1] M2[d2] exp(-y) * 2**(E0[d0] + E1[d1] + E2[d2])``: three certified tables
indexed by the 12-bit digits of ``delta = floor(x * 2**16)``, each entry a double-double in
``[1, 2)`` and an integer exponent, and the degree-6 Taylor polynomial of
:func:`symattn.fast.tables.exp_neg` for the residual ``0 <= y < 2**-16``. The relative error
is that of :func:`symattn.fast.decide.rho` (three table entries, three double-double
products, the polynomial).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import flint
import numpy as np

from symattn.fast.doubles import arb_dd, dd_mul, exp_residual, two_sum

__all__ = ["RANGE", "ScaledTables", "exp_scaled", "scaled_tables"]

_F = 16  # fixed-point bits of the argument
_BITS = 12  # index bits per table
#: ``x`` must lie below this (three 12-bit digits of ``x * 2**16``)
RANGE = 2.0 ** (3 * _BITS - _F)


@dataclass(frozen=True)
class ScaledTables:
    """Three tables of ``exp(-d * 2**(12 l - 16))`` as ``(hi + lo) * 2**exp``, ``hi`` in
    ``[1, 2)``, and the worst relative error of an entry."""

    hi: tuple[np.ndarray, ...]
    lo: tuple[np.ndarray, ...]
    exp: tuple[np.ndarray, ...]
    err: float


@functools.lru_cache(maxsize=1)
def scaled_tables() -> ScaledTables:
    """The tables (computed in Arb at 256 bits on first use, then kept)."""
    his, los, exps, worst = [], [], [], 0.0
    with flint.ctx.workprec(256):
        for level in range(3):
            step = (flint.arb(2) ** (_BITS * level - _F)).neg().exp()
            x = flint.arb(1)
            n = 1 << _BITS
            hi, lo, ex = np.empty(n), np.empty(n), np.empty(n, dtype=np.int64)
            for d in range(n):
                man, me = x.mid().man_exp()
                e = int(man).bit_length() - 1 + int(me)  # floor(log2(mid)), exactly
                h, low, err = arb_dd(x * flint.arb(2) ** (-e))
                if h >= 2 or h < 1:  # rounded onto a power of two: move by one
                    e += 1 if h >= 2 else -1
                    h, low, err = arb_dd(x * flint.arb(2) ** (-e))
                hi[d], lo[d], ex[d] = h, low, e
                worst = max(worst, err / h)
                x = x * step
            for a in (hi, lo, ex):
                a.flags.writeable = False
            his.append(hi)
            los.append(lo)
            exps.append(ex)
    return ScaledTables(tuple(his), tuple(los), tuple(exps), worst * (1 + 2.0**-40))


def exp_scaled(
    xh: np.ndarray, xl: np.ndarray, tables: ScaledTables
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``exp(-x)`` for double-double ``0 <= x`` (``x`` may be ``-2**-31`` or so below 0):
    ``(hi, lo, k, ok)`` with ``exp(-x) ~ (hi + lo) * 2**k``; ``ok`` is false where ``x`` is out of
    range (``x >= RANGE`` or not finite)."""
    ok = np.isfinite(xh) & (xh < RANGE) & (xh > -(2.0**-20))
    uh = np.where(ok, xh, 0.0) * 2.0**_F
    ul = np.where(ok, xl, 0.0) * 2.0**_F
    delta = np.floor(np.maximum(uh, 0.0))
    rh, rl = two_sum(uh - delta, ul)  # uh - delta is exact
    yh, yl = rh * 2.0**-_F, rl * 2.0**-_F
    d = delta.astype(np.int64)
    mask = (1 << _BITS) - 1
    idx = (d & mask, (d >> _BITS) & mask, d >> (2 * _BITS))
    eh, el = tables.hi[0].take(idx[0]), tables.lo[0].take(idx[0])
    k = tables.exp[0].take(idx[0])
    for level in (1, 2):
        i = idx[level]
        eh, el = dd_mul(eh, el, tables.hi[level].take(i), tables.lo[level].take(i))
        k = k + tables.exp[level].take(i)
    ph, pl = exp_residual(yh, yl)
    eh, el = dd_mul(eh, el, ph, pl)
    return eh, el, k, ok
