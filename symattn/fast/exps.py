"""The unnormalised weights ``e = exp(t - m)`` of a block of query rows, in double-double, with
a proved error bound per row, and their exact fixed-point slices.

Logits ``t = gamma * S + a`` (``gamma`` = scale times the input units) are formed in
double-double with a proved absolute error bound per row; each row is shifted by its
(floating) maximum ``m``, which cancels exactly in the softmax.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from symattn.fast.doubles import U2, dd_add, fast_two_sum, two_prod, two_sum
from symattn.fast.problem import EW, EW_SLICES, Problem
from symattn.fast.sliced import slice_products
from symattn.fast.tables import Direct, Tables, exp_direct, exp_neg

__all__ = ["Exps", "block_exps", "weight_slices"]


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
    zeroed: np.ndarray  # active entries set to 0 (true value < 2**-115)
    n_active: np.ndarray
    row_t_err: np.ndarray  # inf: the row is undecided
    tables: Tables


def block_exps(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    gamma: tuple[float, float, float],
    tables: Tables,
    direct: Direct | None = None,
) -> Exps:
    """``exp(t - m)`` for query rows ``rows`` of batch entry ``b``, with the row shift ``m``."""
    qsl = [a[rows] for a in p.q.at_batch(b)]
    ksl = p.k.at_batch(b)
    n_rows, S = qsl[0].shape[0], ksl[0].shape[0]
    # exact scores as a double-double (exact when there is one term)
    terms = list(slice_products(qsl, p.q.width, ksl, p.k.width))
    sh, sl = np.ldexp(terms[0][0], terms[0][1]), np.zeros((n_rows, S))
    sabs = np.abs(sh)
    for c, e in terms[1:]:
        x = np.ldexp(c, e)
        sh, sl = dd_add(sh, sl, x, 0.0)
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
        eh, el, zeroed = exp_direct(delta, direct)
        if active is not None:
            eh = np.where(active, eh, 0.0)
            el = np.where(active, el, 0.0)
        row_t_err = np.zeros(n_rows)
        tables = direct.tables
    else:
        multi = len(terms) > 1
        s_err_max = float(sabs.max(initial=0.0)) * len(terms) * 4 * U2 if multi else 0.0
        gh, gl, gerr = gamma
        th, tl = two_prod(sh, np.float64(gh))
        tl = tl + (sh * gl + sl * gh) if multi else tl + sh * gl
        th, tl = fast_two_sum(th, tl)
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
            th, tl = dd_add(th, tl, ah, al)
            # conversion of each Fraction to a double-double, and the double-double sum
            row_t_err = row_t_err + np.abs(ah).max(axis=1, initial=0.0) * (2.0**-104 + 8 * U2)
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
        hh, hl = two_sum(th, -m)  # t - m = hh + hl + tl exactly
        th, tl = fast_two_sum(hh, hl + tl)
        row_t_err = row_t_err + (t_mag + np.abs(m[:, 0])) * 24 * U2
        if active is not None:
            th = np.where(active, th, 0.0)
            tl = np.where(active, tl, 0.0)
        eh, el, bad = exp_neg(th, tl, tables)
        zeroed = (eh == 0) & ~bad
        if active is not None:
            bad &= active
            eh = np.where(active, eh, 0.0)
            el = np.where(active, el, 0.0)
        row_t_err = np.where(bad.any(axis=1), np.inf, row_t_err)
    if active is not None:
        zeroed = zeroed & active
    return Exps(eh, el, active, zeroed, n_active, row_t_err, tables)


def weight_slices(eh: np.ndarray, el: np.ndarray) -> list[np.ndarray]:
    """Exact fixed-point slices ``A_s`` with ``e = sum_s A_s 2**-(26 s - 1) + rem``,
    ``|rem| < 2**-103``."""
    out = []
    h, low = eh * 2.0 ** (EW - 1), el * 2.0 ** (EW - 1)
    for _ in range(EW_SLICES):
        a = np.floor(h)
        out.append(a)
        h, low = two_sum(h - a, low)  # exact
        h, low = h * 2.0**EW, low * 2.0**EW
    return out
