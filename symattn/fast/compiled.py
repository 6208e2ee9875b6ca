"""The kernels of :mod:`symattn.fast.fused`, compiled by numba (the optional extra ``fast``)
in nopython mode without fast-math: IEEE 754 operations as written, so without reassociation
or fused multiply-adds. Each does the numpy path's operations in its order (the docstrings
name the function it follows); without numba they are the same functions in plain Python.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

numba: Any
try:
    numba = importlib.import_module("numba")
except ImportError:  # the optional extra `fast` is not installed
    numba = None

__all__ = ["COMPILED", "accumulate_terms", "block", "block_direct"]

F = TypeVar("F", bound=Callable[..., Any])

#: whether the kernels below are compiled (numba installed)
COMPILED = numba is not None


def _kernel(f: F) -> F:
    """``f`` compiled in nopython mode without fast-math (IEEE operations as written), cached
    on disk by numba; ``f`` itself without numba."""
    if numba is None:
        return f
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(f))


_SPLIT = 134217729.0  # 2**27 + 1
_U2 = 2.0**-106
_F = 65536.0  # 2**16: fixed-point bits of the exp argument reduction (tables._F)
_INV_F = 2.0**-16
_LOW12 = (1 << 12) - 1  # tables.LEVEL_BITS = 12
_C6, _C24, _C120, _C720 = 1 / 6, 1 / 24, 1 / 120, 720.0
_FAR = -(2.0**900)  # exps._FAR


@_kernel
def _two_sum(a: float, b: float) -> tuple[float, float]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@_kernel
def _fast_two_sum(a: float, b: float) -> tuple[float, float]:
    s = a + b
    return s, b - (s - a)


@_kernel
def _two_prod(a: float, b: float) -> tuple[float, float]:
    p = a * b
    c = _SPLIT * a
    ah = c - (c - a)
    al = a - ah
    c = _SPLIT * b
    bh = c - (c - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@_kernel
def _dd_mul(xh: float, xl: float, yh: float, yl: float) -> tuple[float, float]:
    ch, cl1 = _two_prod(xh, yh)
    cl2 = xh * yl + xl * yh
    return _fast_two_sum(ch, cl1 + cl2)


@_kernel
def _dd_add(xh: float, xl: float, yh: float, yl: float) -> tuple[float, float]:
    sh, sl = _two_sum(xh, yh)
    th, tl = _two_sum(xl, yl)
    sl = sl + th
    sh, sl = _fast_two_sum(sh, sl)
    sl = sl + tl
    return _fast_two_sum(sh, sl)


@_kernel
def _exp_residual(yh: float, yl: float) -> tuple[float, float]:
    ph, pl = _two_sum(1.0, -yh)
    bh, bl = _two_prod(yh, yh)
    rest = yl * yh - yl - yh * yh * yh * (_C6 - yh * (_C24 - yh * (_C120 - yh / _C720)))
    sh, sl = _two_sum(ph, bh * 0.5)
    return _fast_two_sum(sh, sl + pl + (bl * 0.5 + rest))


@_kernel
def _max_nan(m: float, x: float) -> float:
    """``numpy.maximum``: a NaN wins."""
    if x > m or x != x:
        return x
    return m


@_kernel
def _level(
    terms: np.ndarray, i: int, idx: np.ndarray, coef: np.ndarray, lev: int, x: np.ndarray
) -> None:
    """Row ``i`` of score level ``lev`` into ``x``: its terms ``idx[lev, :]`` times
    ``coef[lev, :]`` (``+-1``; a ``0`` ends the list) added in order, exactly (integers below
    ``2**53``, :class:`symattn.fast.scores.Levels`)."""
    t0 = terms[idx[lev, 0], i]
    c0 = coef[lev, 0]
    for j in range(x.shape[0]):
        x[j] = t0[j] * c0
    for m in range(1, idx.shape[1]):
        c = coef[lev, m]
        if c == 0.0:
            break
        tm = terms[idx[lev, m], i]
        for j in range(x.shape[0]):
            x[j] = x[j] + tm[j] * c


@_kernel
def _scores(
    terms: np.ndarray,
    idx: np.ndarray,
    coef: np.ndarray,
    i: int,
    lw: np.ndarray,
    cols: np.ndarray,
    th: np.ndarray,
    tl: np.ndarray,
    x: np.ndarray,
) -> None:
    """Row ``i`` of the scores into ``th, tl``: the levels added from the top
    (:func:`symattn.fast.scores.chunk_scores`)."""
    nl = idx.shape[0]
    _level(terms, i, idx, coef, nl - 1, x)
    w = lw[nl - 1]
    for j in range(th.shape[0]):
        th[j] = x[j] * (w * cols[j])
        tl[j] = 0.0
    for lev in range(nl - 2, -1, -1):
        _level(terms, i, idx, coef, lev, x)
        w = lw[lev]
        for j in range(th.shape[0]):
            xj = x[j] * (w * cols[j])
            s, e = _two_sum(th[j], xj)
            th[j], tl[j] = _fast_two_sum(s, tl[j] + e)


@_kernel
def _exp_args(
    th: np.ndarray,
    tl: np.ndarray,
    m: float,
    limit: float,
    far: bool,
    yh: np.ndarray,
    yl: np.ndarray,
    i0: np.ndarray,
    i1: np.ndarray,
) -> None:
    """The shift by ``m`` (:func:`symattn.fast.exps.logits`' caller) and the argument
    reduction of :func:`symattn.fast.tables.exp_neg`: residuals ``yh, yl`` and table indices."""
    for j in range(th.shape[0]):
        hh, hl = _two_sum(th[j], -m)
        xh, xl = _fast_two_sum(hh, hl + tl[j])
        uh, ul = xh * -_F, xl * -_F
        d = uh if uh > 0.0 else 0.0  # numpy.fmax, fmin: a NaN gives 0
        d = np.floor(d if d < limit else limit)
        rh, rl = _two_sum(uh - d, ul)
        if far:  # numpy.clip: a NaN stays
            rh = -2.0 if rh < -2.0 else (2.0 if rh > 2.0 else rh)
            rl = -2.0 if rl < -2.0 else (2.0 if rl > 2.0 else rl)
        yh[j], yl[j] = rh * _INV_F, rl * _INV_F
        k = np.int32(d)  # d <= limit < 2**31
        i0[j] = k & _LOW12
        i1[j] = k >> 12


@_kernel
def _exp_values(
    yh: np.ndarray,
    yl: np.ndarray,
    i0: np.ndarray,
    i1: np.ndarray,
    t0h: np.ndarray,
    t0l: np.ndarray,
    t1h: np.ndarray,
    t1l: np.ndarray,
    eh: np.ndarray,
    el: np.ndarray,
) -> None:
    """``T0[i0] T1[i1] exp(-y)`` (:func:`symattn.fast.tables.exp_neg`) into ``eh, el``."""
    for j in range(yh.shape[0]):
        eh[j], el[j] = _dd_mul(t0h[i0[j]], t0l[i0[j]], t1h[i1[j]], t1l[i1[j]])
    for j in range(yh.shape[0]):
        ph, pl = _exp_residual(yh[j], yl[j])
        eh[j], el[j] = _dd_mul(eh[j], el[j], ph, pl)


@_kernel
def _slices(
    eh: np.ndarray, el: np.ndarray, up: float, scale: float, slabs: np.ndarray, i: int
) -> None:
    """:func:`symattn.fast.exps.weight_slices` of row ``i`` into ``slabs[:, i]``
    (``up = 2**(aw - 1)``, ``scale = 2**aw``; ``eh, el`` are only read). Every slice of an
    entry in one pass, in registers (the rest of a slice, never used after the last, is not
    formed)."""
    na = slabs.shape[0]
    for j in range(eh.shape[0]):
        h, low = eh[j] * up, el[j] * up
        a = np.floor(h)
        slabs[0, i, j] = a
        for t in range(1, na):
            h, low = _fast_two_sum(h - a, low)
            h, low = h * scale, low * scale
            a = np.floor(h)
            slabs[t, i, j] = a


@_kernel
def block(
    terms: np.ndarray,
    idx: np.ndarray,
    coef: np.ndarray,
    lw: np.ndarray,
    cols: np.ndarray,
    rowf: np.ndarray,
    s_err: np.ndarray,
    g: np.ndarray,
    pow2: bool,
    add_h: np.ndarray,
    add_l: np.ndarray,
    add_kind: int,
    masked: np.ndarray,
    use_mask: bool,
    t0h: np.ndarray,
    t0l: np.ndarray,
    t1h: np.ndarray,
    t1l: np.ndarray,
    limit: float,
    up: float,
    scale: float,
    slabs: np.ndarray,
    row_t_err: np.ndarray,
    n_active: np.ndarray,
) -> None:
    """The general path: scores, logits, shift, ``exp_neg``, slices, row by row.

    ``g`` holds ``gh, gl`` and the scalar factors of the bounds, computed as
    :func:`symattn.fast.exps.logits` computes them (:func:`block_weights`); ``add_kind``: 0 no
    additive mask, 1 doubles (``rel = 0``), 2 double-doubles.
    """
    R = terms.shape[1]
    S = terms.shape[2]
    gh, gl, c_tmag, c_err, c_gerr, a_rel = g[0], g[1], g[2], g[3], g[4], g[5]
    th, tl, yh, yl, x = np.empty(S), np.empty(S), np.empty(S), np.empty(S), np.empty(S)
    i0, i1 = np.empty(S, dtype=np.int32), np.empty(S, dtype=np.int32)
    for i in range(R):
        _scores(terms, idx, coef, i, lw, cols, th, tl, x)
        r = rowf[i]
        for j in range(S):
            th[j], tl[j] = th[j] * r, tl[j] * r
        s_mag = 0.0
        for j in range(S):
            s_mag = _max_nan(s_mag, abs(th[j]))
        # the logits (exps.logits)
        s_mag = s_mag * (1 + 2.0**-40)
        t_mag = s_mag * c_tmag
        if pow2:
            for j in range(S):
                th[j], tl[j] = th[j] * gh, tl[j] * gh
            rte = c_err * s_err[i] + 2.0**-1070
        else:
            for j in range(S):
                ph, pl = _two_prod(th[j], gh)
                pl = pl + (th[j] * gl + tl[j] * gh)
                th[j], tl[j] = _fast_two_sum(ph, pl)
            rte = c_err * s_err[i] + s_mag * c_gerr + t_mag * 16 * _U2
        if add_kind:
            a_mag = 0.0
            if add_kind == 1:
                for j in range(S):
                    s, e = _two_sum(th[j], add_h[i, j])
                    th[j], tl[j] = _fast_two_sum(s, tl[j] + e)
            else:
                for j in range(S):
                    th[j], tl[j] = _dd_add(th[j], tl[j], add_h[i, j], add_l[i, j])
            for j in range(S):
                a_mag = _max_nan(a_mag, abs(add_h[i, j]))
            a_mag = a_mag * (1 + 2.0**-40)
            t_mag = t_mag + a_mag
            rte = rte + a_mag * a_rel + t_mag * 8 * _U2
        # the shift by the row maximum (exps._exps)
        if use_mask:
            count = 0
            m = _FAR
            for j in range(S):
                if masked[i, j]:
                    th[j] = _FAR
                else:
                    count += 1
                m = _max_nan(m, th[j])
            if count == 0:
                m = 0.0
        else:
            count = S
            m = -np.inf
            for j in range(S):
                m = _max_nan(m, th[j])
        n_active[i] = count
        rte = rte + (t_mag + abs(m)) * 24 * _U2
        bad = not (t_mag < 2.0**34) or not np.isfinite(m)
        row_t_err[i] = np.inf if bad else rte
        _exp_args(th, tl, m, limit, use_mask, yh, yl, i0, i1)
        _exp_values(yh, yl, i0, i1, t0h, t0l, t1h, t1l, th, tl)
        _slices(th, tl, up, scale, slabs, i)


@_kernel
def block_direct(
    level: np.ndarray,
    sign: float,
    cut: float,
    masked: np.ndarray,
    use_mask: bool,
    t0h: np.ndarray,
    t0l: np.ndarray,
    t1h: np.ndarray,
    t1l: np.ndarray,
    up: float,
    scale: float,
    slabs: np.ndarray,
    n_active: np.ndarray,
) -> None:
    """Integer scores: ``delta = max(S) - S`` exactly and ``exp`` from the per-call tables
    (exps._exps and tables.exp_direct), then the slices."""
    R, S = level.shape
    two = t1h.shape[0] > 1
    ks, eh, el = np.empty(S), np.empty(S), np.empty(S)
    for i in range(R):
        count = 0
        top = -np.inf
        for j in range(S):
            ks[j] = level[i, j] * sign
            if not use_mask or not masked[i, j]:
                count += 1
                top = _max_nan(top, ks[j])
        if use_mask and not np.isfinite(top):
            top = 0.0
        n_active[i] = count
        for j in range(S):
            delta = np.inf if use_mask and masked[i, j] else top - ks[j]
            if delta > cut:
                eh[j], el[j] = 0.0, 0.0
            else:
                k = np.int64(delta)
                eh[j], el[j] = t0h[k & _LOW12], t0l[k & _LOW12]
                if two:
                    eh[j], el[j] = _dd_mul(eh[j], el[j], t1h[k >> 12], t1l[k >> 12])
        _slices(eh, el, up, scale, slabs, i)


@_kernel
def accumulate_terms(
    products: np.ndarray, factors: np.ndarray, nh: np.ndarray, nl: np.ndarray, nabs: np.ndarray
) -> None:
    """:func:`symattn.fast.float64.accumulate`, entry by entry."""
    T, R, E = products.shape
    for i in range(R):
        for c in range(E):
            nh[i, c], nl[i, c], nabs[i, c] = 0.0, 0.0, 0.0
    for t in range(T):
        f = factors[t]
        for i in range(R):
            for c in range(E):
                x = products[t, i, c] * f  # exact, as ldexp
                nh[i, c], nl[i, c] = _dd_add(nh[i, c], nl[i, c], x, 0.0)
                nabs[i, c] = nabs[i, c] + abs(x)
