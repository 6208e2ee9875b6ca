"""The unnormalised weights ``e = exp(t - m)`` of a block of query rows, in double-double, with
a proved error bound per row, and their exact fixed-point slices.

Logits ``t = gamma * S + a`` (``gamma`` = scale times the input units) are formed in
double-double with a proved absolute error bound per row; each row is shifted by its
(floating) maximum ``m``, which cancels exactly in the softmax.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from symattn.fast.doubles import U2, dd_add, fast_two_sum, two_prod, two_sum
from symattn.fast.problem import Problem
from symattn.fast.scores import Levels, chunk_scores, score_levels
from symattn.fast.tables import Direct, Tables, exp_direct, exp_neg
from symattn.fast.workspace import Workspace

__all__ = ["CHUNK", "Exps", "iter_exps", "logits", "weight_slices"]


@dataclass(frozen=True)
class Exps:
    """Unnormalised weights of a block of rows: ``e = eh + el`` (0 where masked or zeroed).

    Each active, non-zeroed ``e`` is within relative ``rho`` of ``exp(t - m)`` (``rho`` from
    ``row_t_err`` and ``tables``, see :func:`symattn.fast.decide.rho`); a zeroed one is below
    ``2**-115``.
    """

    eh: np.ndarray
    el: np.ndarray
    active: np.ndarray | None  # None: every entry takes part
    n_active: np.ndarray
    row_t_err: np.ndarray  # inf: the row is undecided
    tables: Tables
    #: the shifted logits ``t - m``: a double-double within ``row_t_err`` (masked: far below),
    #: or for integer scores the exact integer ``delta`` with ``m - t = |gamma| delta``
    th: np.ndarray | None = None
    tl: np.ndarray | None = None
    delta: np.ndarray | None = None

    def zeroed(self) -> np.ndarray:
        """Active entries set to 0 (their true value is below ``2**-115``)."""
        zero: np.ndarray = self.eh == 0
        return zero if self.active is None else zero & self.active


#: entries per elementwise chunk: arrays stay in cache and below the allocator's mmap size
CHUNK = 8192

#: a logit far below every other (masked): ``exp`` of it is exactly 0 in :func:`exp_neg`
_FAR = -(2.0**900)


def iter_exps(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    gamma: tuple[float, float, float],
    tables: Tables,
    direct: Direct | None = None,
    work: Workspace | None = None,
    levels: Levels | None = None,
) -> Iterator[tuple[slice, Exps]]:
    """``exp(t - m)`` for query rows ``rows`` of batch entry ``b``, with the row shift ``m``,
    by chunks of rows: ``(rs, exps)`` with ``rs`` relative to ``rows`` (``levels``: their
    score levels when already computed)."""
    lv = levels if levels is not None else score_levels(p.q, p.k, b, rows, work)
    n_rows, S = lv.terms.shape[1:]
    step = max(1, CHUNK // max(S, 1))
    for c0 in range(0, n_rows, step):
        rs = slice(c0, min(n_rows, c0 + step))
        at = slice(rows.start + rs.start, rows.start + rs.stop)
        sh, sl = chunk_scores(lv, rs)
        yield rs, _exps(p, b, at, sh, sl, lv.err[rs], lv.integer, gamma, tables, direct)


def _exps(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    sh: np.ndarray,
    sl: np.ndarray,
    s_err: np.ndarray,
    integer: bool,
    gamma: tuple[float, float, float],
    tables: Tables,
    direct: Direct | None,
) -> Exps:
    n_rows, S = sh.shape
    masked = p.masked[b][rows] if p.masked is not None else None
    if direct is not None and integer and p.add is None:
        # integer scores: delta = max(S) - S exactly, e = exp(-|gamma| delta) from tables
        ks = sh * direct.sign
        if masked is not None:
            active = ~masked
            n_active = active.sum(axis=1)
            top = np.where(active, ks, -np.inf).max(axis=1, keepdims=True, initial=-np.inf)
            top = np.where(np.isfinite(top), top, 0.0)
            delta = np.where(active, top - ks, np.inf)  # masked: beyond the cut, 0
        else:
            active = None
            n_active = np.full(n_rows, S)
            delta = ks.max(axis=1, keepdims=True, initial=-np.inf) - ks
        eh, el = exp_direct(delta, direct)
        return Exps(eh, el, active, n_active, np.zeros(n_rows), direct.tables, delta=delta)
    else:
        th, tl, row_t_err, t_mag = logits(p, b, rows, sh, sl, s_err, gamma)
        if masked is not None:
            active = ~masked
            n_active = active.sum(axis=1)
            th = np.where(active, th, _FAR)  # exp_neg gives exactly 0 there
            m = th.max(axis=1, keepdims=True, initial=_FAR)
            m = np.where(n_active[:, None] > 0, m, 0.0)
        else:
            active = None
            n_active = np.full(n_rows, S)
            m = th.max(axis=1, keepdims=True, initial=-np.inf)
        hh, hl = two_sum(th, -m)  # t - m = hh + hl + tl exactly
        th, tl = fast_two_sum(hh, hl + tl)
        row_t_err = row_t_err + (t_mag + np.abs(m[:, 0])) * 24 * U2
        # t - m exceeds 0 only by the low part of the row's largest logit: far below the
        # 2**-31 exp_neg allows while |t| < 2**34; larger or non-finite logits: undecided
        bad = ~(t_mag < 2.0**34) | ~np.isfinite(m[:, 0])
        eh, el = exp_neg(th, tl, tables, far=masked is not None)
        row_t_err = np.where(bad, np.inf, row_t_err)
        return Exps(eh, el, active, n_active, row_t_err, tables, th, tl)


def logits(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    sh: np.ndarray,
    sl: np.ndarray,
    s_err: np.ndarray,
    gamma: tuple[float, float, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``t = gamma * S + add`` as a double-double ``(th, tl)``, a per-row absolute error bound
    and a per-row bound of ``|t|``.

    ``|t - (th + tl)| <= |g| s_err + |S| gerr + 16u^2 |t|`` (the product of a double-double
    by a double-double, generously) plus the additive mask's conversion and sum.
    """
    gh, gl, gerr = gamma
    s_mag = np.abs(sh).max(axis=1, initial=0.0) * (1 + 2.0**-40)
    t_mag = s_mag * (abs(gh) * (1 + 2.0**-40))
    if gl == 0 and gerr == 0 and abs(math.frexp(gh)[0]) == 0.5:
        # gamma a power of two (the default scale for d = 4, 16, 64, 256, ...): exact products
        th, tl = sh * gh, sl * gh
        row_t_err = abs(gh) * s_err + 2.0**-1070
    else:
        th, tl = two_prod(sh, np.float64(gh))
        tl = tl + (sh * gl + sl * gh)
        th, tl = fast_two_sum(th, tl)
        row_t_err = (abs(gh) * 1.01) * s_err + s_mag * (1.01 * gerr) + t_mag * 16 * U2
    if p.add is not None:
        ah = p.add.ah[b][rows]
        if p.add.rel == 0:  # doubles: DWPlusFP (2u^2 of the result)
            s, e = two_sum(th, ah)
            th, tl = fast_two_sum(s, tl + e)
        else:
            th, tl = dd_add(th, tl, ah, p.add.al[b][rows])
        a_mag = np.abs(ah).max(axis=1, initial=0.0) * (1 + 2.0**-40)
        t_mag = t_mag + a_mag
        # the mask's conversion, and the double-double sum (3u^2 + 13u^3 of the result)
        row_t_err = row_t_err + a_mag * (p.add.rel * 1.01 + 2.0**-104) + t_mag * 8 * U2
    return th, tl, row_t_err, t_mag


def weight_slices(eh: np.ndarray, el: np.ndarray, aw: int, na: int) -> list[np.ndarray]:
    """Exact fixed-point slices ``A_s`` of ``aw`` bits with
    ``e = sum_s A_s 2**-(aw s + aw - 1) + rem``, ``0 <= rem < 2**-(aw na - 1)`` (``0 <= e < 2``)."""
    out = []
    h, low = eh * 2.0 ** (aw - 1), el * 2.0 ** (aw - 1)
    for _ in range(na):
        a = np.floor(h)
        out.append(a)
        h, low = fast_two_sum(h - a, low)  # exact: h - a is 0 or above |low|
        h, low = h * 2.0**aw, low * 2.0**aw
    return out
