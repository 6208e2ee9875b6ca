"""Decisions taken for whole arrays at once from double-doubles with a proved bound.

A value is ``(hi + lo) * 2**k`` (``k`` an integer per entry) with ``|x - (hi + lo) 2**k| <=
bound * 2**k``. Each function returns the decided results and a mask of the decided entries;
the others are left to a refinement that can always decide them. The results are those of
:mod:`symattn.exact.ball` for the same value (``float_of``, ``Significant``, ``Places``,
``Narrow``): integer arithmetic on doubles, every rounding accounted for.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import math
from collections.abc import Iterator
from decimal import Context, Decimal

import flint
import numpy as np

from symattn.exact import Ball
from symattn.fast.decide import within_half_ulp
from symattn.fast.doubles import U2, arb_dd, dd_mul
from symattn.numbers.rounding import Rounding

__all__ = [
    "balls",
    "decide_float64",
    "decide_places",
    "decide_significant",
    "new_balls",
    "paused_gc",
    "significant_parts",
]

_LOG10_2 = math.log10(2)


def decide_float64(
    hi: np.ndarray, lo: np.ndarray, k: np.ndarray, bound: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The double every point rounds to (nearest, ties to even), and where that is decided.

    Above ``2**-1021`` the scaling by ``2**k`` is exact and keeps the gaps between doubles,
    so the test of :func:`~symattn.fast.decide.within_half_ulp` holds unscaled. Below, the
    value is rounded on the subnormal grid: ``y = x * 2**1074`` to an integer.
    """
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        top = np.frexp(hi)[1] + k  # |x| < 2**top roughly (hi within a factor 2 of x)
        normal = top > -1020
        out = np.where(normal, np.ldexp(hi, np.clip(k, -1100, 1100).astype(np.int32)), 0.0)
        ok = normal & np.isfinite(out) & within_half_ulp(hi, lo, bound)
        sub = ~normal & np.isfinite(hi)
        if sub.any():
            shift = np.clip(k + 1074, -1100, 1100).astype(np.int32)
            yh, yl, yb = np.ldexp(hi, shift), np.ldexp(lo, shift), np.ldexp(bound, shift)
            far = np.ldexp((np.abs(hi) + bound) * (1 + 2.0**-30), shift) < 0.25
            m, decided = _nearest(yh, yl, yb * (1 + 2.0**-30) + 2.0**-1000)
            value = np.where(far, np.copysign(0.0, hi), np.ldexp(m, -1074))
            out = np.where(sub, value, out)
            ok = np.where(sub, far | decided, ok)
    return out, ok


def _nearest(yh: np.ndarray, yl: np.ndarray, yb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The integer nearest ``yh + yl`` (``|yh| < 2**52``), decided where the bound ``yb`` keeps
    every point of the interval off a half-integer."""
    a = np.round(yh)
    r = (yh - a) + yl  # yh - a is exact
    down = r < -0.5 - yb
    up = r > 0.5 + yb
    stay = np.abs(r) < 0.5 - yb
    m = a + np.where(up, 1.0, 0.0) - np.where(down, 1.0, 0.0)
    return m, stay | up | down


def _toward_zero(yh: np.ndarray, yl: np.ndarray, yb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``floor(yh + yl)`` for ``y >= 0``, decided where the bound keeps off an integer."""
    a = np.floor(yh)
    r = (yh - a) + yl
    stay = (r > yb) & (r < 1 - yb)
    down = r < -yb
    up = r > 1 + yb
    m = a + np.where(up, 1.0, 0.0) - np.where(down, 1.0, 0.0)
    return m, stay | up | down


@functools.lru_cache(maxsize=4096)
def _pow10(p: int) -> tuple[float, float, int, float]:
    """``10**p = (hi + lo) * 2**e`` with ``hi`` in ``[1, 2)`` and a relative error bound."""
    with flint.ctx.workprec(256):
        x = flint.arb(10) ** p
        man, me = x.mid().man_exp()
        e = int(man).bit_length() - 1 + int(me)
        h, low, err = arb_dd(x * flint.arb(2) ** (-e))
        return h, low, e, err / h


def _scaled_by_pow10(
    hi: np.ndarray, lo: np.ndarray, k: np.ndarray, rel: np.ndarray, p: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``x * 10**p`` as a double-double (``x = (hi + lo) 2**k``, relative error ``rel``) with
    an absolute bound. ``p`` is an integer array; the result must lie in the double range."""
    if not p.size:
        return hi.copy(), lo.copy(), np.zeros(hi.shape)
    uniq, inv = np.unique(p, return_inverse=True)
    table = np.array([_pow10(int(x)) for x in uniq.tolist()])
    th, tl, te, terr = (table[:, c].take(inv) for c in range(4))
    yh, yl = dd_mul(hi, lo, th, tl)
    shift = np.clip(k + te, -1100, 1100).astype(np.int32)
    yh, yl = np.ldexp(yh, shift), np.ldexp(yl, shift)
    bound = (np.abs(yh) + np.abs(yl)) * (rel + terr + 8 * U2) * (1 + 2.0**-30)
    return yh, yl, bound


#: exact products of at most 40 digits (a fixed context: the caller's does not matter)
_EXACT = Context(prec=40)


@functools.lru_cache(maxsize=256)
def _unit(places: int) -> Decimal:
    return Decimal(f"1e{-places}")


def _decimals(m: np.ndarray, places: np.ndarray, sign: np.ndarray) -> np.ndarray:
    """``Decimal(f"{sign * m}e{-places}")`` for every entry (``m`` integer-valued doubles below
    ``2**53``), as an object array: ``Decimal(n) * 10**-places`` is exact and has exactly that
    coefficient and exponent."""
    ints = (m.astype(np.int64) * sign.astype(np.int64)).tolist()
    units = [_unit(q) for q in places.astype(np.int64).tolist()]
    out = np.empty(len(ints), dtype=object)
    out[:] = list(map(_EXACT.multiply, map(Decimal, ints), units))
    return out


def decide_significant(
    hi: np.ndarray,
    lo: np.ndarray,
    k: np.ndarray,
    bound: np.ndarray,
    digits: int,
    mode: Rounding,
) -> tuple[np.ndarray, np.ndarray]:
    """``round_significant(x, digits, mode)`` of every entry (1-D arrays; an object array of
    ``Decimal``, ``None`` where not decided), and the decided mask."""
    n = hi.shape[0]
    out = np.full(n, None, dtype=object)
    good, m, p, sign = significant_parts(hi, lo, k, bound, digits, mode)
    out[good] = _decimals(m, p, sign)
    decided = np.zeros(n, dtype=bool)
    decided[good] = True
    return out, decided


def significant_parts(
    hi: np.ndarray,
    lo: np.ndarray,
    k: np.ndarray,
    bound: np.ndarray,
    digits: int,
    mode: Rounding,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`decide_significant` without the ``Decimal``: the decided positions and, for
    each, the coefficient ``m`` (an integer-valued double), ``p`` (the value is ``sign * m *
    10**-p``) and the sign."""
    empty = np.zeros(0)
    nz = hi != 0
    if digits > 20 or not nz.any():
        return np.zeros(0, dtype=np.int64), empty, np.zeros(0, dtype=np.int64), empty
    idx = np.flatnonzero(nz & np.isfinite(hi))
    h, low, kk, b = hi[idx], lo[idx], k[idx], bound[idx]
    sign = np.where(h < 0, -1.0, 1.0)
    h, low = np.abs(h), low * sign
    rel = b / (h * (1 - 2.0**-40))
    top = np.floor(np.log10(h) + kk * _LOG10_2)  # within one of floor(log10 |x|)
    low_pow, high_pow = 10.0 ** (digits - 1), 10.0**digits
    p = (digits - 1 - top).astype(np.int64)
    for _ in range(3):  # move p where the estimate of the exponent was off by one
        yh, yl, yb = _scaled_by_pow10(h, low, kk, rel, p)
        below = yh < low_pow
        above = yh >= high_pow
        if not (below | above).any():
            break
        p = p + below.astype(np.int64) - above.astype(np.int64)
    inside = (yh - low_pow + yl > yb) & (high_pow - yh - yl > yb)
    if mode is Rounding.TRUNCATE:
        m, ok = _toward_zero(yh, yl, yb)
    else:
        m, ok = _nearest(yh, yl, yb)
    ok &= inside & (m < high_pow) & (m >= low_pow)
    good = np.flatnonzero(ok)
    return idx[good], m[good], p[good], sign[good]


def decide_places(
    hi: np.ndarray,
    lo: np.ndarray,
    k: np.ndarray,
    bound: np.ndarray,
    decimals: int,
    mode: Rounding,
) -> tuple[np.ndarray, np.ndarray]:
    """``round_decimals(x, decimals, mode)`` of every entry (1-D arrays; an object array of
    ``Decimal``, ``None`` where not decided), and the decided mask."""
    n = hi.shape[0]
    out = np.full(n, None, dtype=object)
    decided = np.zeros(n, dtype=bool)
    if decimals > 20 or decimals < -20:
        return out, decided
    zero = Decimal(f"0e{-decimals}")
    idx = np.flatnonzero(np.isfinite(hi))
    h, low, kk, b = hi[idx], lo[idx], k[idx], bound[idx]
    sign = np.where(h < 0, -1.0, 1.0)
    h, low = np.abs(h), low * sign
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        mag = np.log10(np.maximum(h, 1e-300)) + kk * _LOG10_2  # log10 |x|, roughly
        tiny = (h == 0) | (mag < -decimals - 3)  # |x| < 10**-decimals / 100: rounds to 0
        rel = np.where(h > 0, b / np.maximum(h * (1 - 2.0**-40), 1e-300), 0.0)
        p = np.full(h.shape, decimals, dtype=np.int64)
        ok = tiny.copy()
        m = np.zeros(h.shape)
        big = ~tiny & (mag + decimals < 18)
        if big.any():
            sel = np.flatnonzero(big)
            yh, yl, yb = _scaled_by_pow10(h[sel], low[sel], kk[sel], rel[sel], p[sel])
            yb = yb + np.where(h[sel] == 0, b[sel], 0.0)
            if mode is Rounding.TRUNCATE:
                ms, oks = _toward_zero(yh, yl, yb)
            else:
                ms, oks = _nearest(yh, yl, yb)
            m[sel], ok[sel] = ms, oks
    good = np.flatnonzero(ok & ~tiny)
    out[idx[good]] = _decimals(m[good], p[good], np.where(m[good] == 0, 1.0, sign[good]))
    out[idx[np.flatnonzero(tiny)]] = zero
    decided[idx[np.flatnonzero(ok)]] = True
    return out, decided


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The garbage collector paused while a block makes many small objects (balls): a million
    of them would otherwise set it off hundreds of times, each pass longer than the last."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def new_balls(m: list[int], r: list[int], e: list[int]) -> list[Ball]:
    """Balls ``[(m - r) 2**e, (m + r) 2**e]`` made in bulk."""
    new = Ball.__new__
    with paused_gc():
        out: list[Ball] = []
        append = out.append
        for triple in zip(m, r, e, strict=True):
            ball = new(Ball)
            ball.__dict__["_dyadic"] = triple
            append(ball)
        return out


def balls(hi: np.ndarray, lo: np.ndarray, k: np.ndarray, bound: np.ndarray) -> list[Ball]:
    """A certified ball around every entry: centre ``(hi + lo) 2**k`` exactly, radius at least
    ``bound * 2**k`` (1-D arrays, finite)."""
    mh, eh = np.frexp(hi)
    ml, el = np.frexp(lo)
    mb, eb = np.frexp(bound)
    ih = np.ldexp(mh, 53).astype(np.int64)  # hi = ih * 2**(eh - 53) exactly
    il = np.ldexp(ml, 53).astype(np.int64)
    ib = np.ldexp(mb, 53).astype(np.int64) + 1  # rounded up
    base = np.minimum(np.minimum(eh, np.where(lo != 0, el, eh)), eb) - 53
    sh = (eh - 53 - base).tolist()
    sl = (el - 53 - base).tolist()
    sb = (eb - 53 - base).tolist()
    ms = [
        (a << x) + ((b << y) if b else 0)
        for a, b, x, y in zip(ih.tolist(), il.tolist(), sh, sl, strict=True)
    ]
    rs = [c << z for c, z in zip(ib.tolist(), sb, strict=True)]
    es = (base + k).tolist()
    return new_balls(ms, rs, es)
