"""The float64 decision: round a double-double and accept it only when a proved error bound
keeps the whole interval inside one double's rounding range.

The bounds are derived here and in ``docs/performance.md``: :func:`rho` is the relative
error of each computed unnormalised weight, :func:`decide_outputs` bounds ``o = unit_V N / R``
and :func:`decide_weights` bounds ``w = e / R``.
"""

from __future__ import annotations

import flint
import numpy as np

from symattn.exact import arb_of
from symattn.fast.doubles import U2, arb_dd, dd_add, dd_div, dd_mul
from symattn.fast.exps import Exps, weight_slices
from symattn.fast.problem import Problem
from symattn.fast.tables import Tables

__all__ = ["decide_outputs", "decide_weights", "rho", "within_half_ulp"]


def rho(row_t_err: np.ndarray, tables: Tables) -> np.ndarray:
    """Per row, the relative error bound of every computed ``e`` (see :func:`decide_outputs`)."""
    tau = row_t_err * (1 + 2.0**-30)
    # exp(tau) - 1 <= 1.01 tau for 0 <= tau <= 2**-20 (no libm involved); larger: undecided
    tau = np.where(tau <= 2.0**-20, tau, np.inf)
    return tau * 1.01 + 3 * tables.err + 4 * 8 * U2 + 2.0**-82


def within_half_ulp(h: np.ndarray, low: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """Whether every point of ``h + low +- bound`` rounds to ``h`` (round to nearest)."""
    gap_up = np.nextafter(h, np.inf) - h
    gap_dn = h - np.nextafter(h, -np.inf)
    ok: np.ndarray = ((low + bound) < 0.5 * gap_up * (1 - 2.0**-40)) & (
        (low - bound) > -0.5 * gap_dn * (1 - 2.0**-40)
    )
    return ok


def _row_sum_error(
    eta: np.ndarray, rh: np.ndarray, rl: np.ndarray, n_active: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(d_r, r_lo)``: ``|R - R_true| <= d_r`` and ``R_lo = R - d_r`` for the row sums ``R``."""
    r_acc = 4 * 4 * U2 * (np.abs(rh) + 1)
    d_r = eta * n_active + r_acc
    return d_r, rh - np.abs(rl) - d_r


def decide_weights(x: Exps, aw: int, na: int) -> tuple[np.ndarray, np.ndarray]:
    """Round the weights ``w = e / R`` and decide each from a proved relative bound.

    ``R`` is the exact sum of the fixed-point weights (as in :func:`decide_outputs`), so
    ``|R - R_true| <= d_r = eta n_active + r_acc``; the numerator is the double-double ``e``
    itself, ``|e - e_true| <= rho e_true``. Hence ``e / R = w_true (1 + d1) / (1 + d2)`` with
    ``|d1| <= rho``, ``|d2| <= d_r / R_lo``; the double-double division adds ``< 2**-96``
    (relative). All three are below ``2**-19``, so the total relative error is at most
    ``eps = (rho + d_r / R_lo + 2**-96) (1 + 2**-18) / (1 - d_r / R_lo)`` and
    ``|w - w_true| <= eps |w| / (1 - eps)``. An entry is accepted when that interval rounds
    to one double; zeroed entries (true value below ``2**-115 / R``), values below
    ``2**-900`` (double-double underflow) and rows with a bad logit are undecided.
    """
    r = rho(x.row_t_err, x.tables)
    eta = 2 * r + 2.0 ** -(aw * na - 1)
    rh = np.zeros(x.eh.shape[0])
    rl = np.zeros_like(rh)
    for s, slab in enumerate(weight_slices(x.eh, x.el, aw, na)):
        rh, rl = dd_add(rh, rl, np.ldexp(slab.sum(axis=1), -(aw * (s + 1) - 1)), 0.0)
    d_r, r_lo = _row_sum_error(eta, rh, rl, x.n_active)
    rel_r = d_r / np.maximum(r_lo, 1e-300)
    eps = (r + rel_r + 2.0**-96) * (1 + 2.0**-18) / np.maximum(1 - rel_r, 1e-300)
    eps = np.where((r_lo > 0.25) & (eps < 2.0**-19), eps, np.inf)
    wh, wl = dd_div(x.eh, x.el, rh[:, None], rl[:, None])
    w_abs = np.abs(wh) + np.abs(wl)
    bound = eps[:, None] * w_abs / (1 - np.minimum(eps, 0.5))[:, None] * (1 + 2.0**-30)
    ok = np.isfinite(wh) & np.isfinite(bound) & (np.abs(wh) > 2.0**-900)
    ok &= within_half_ulp(wh, wl, bound)
    out = np.where(ok, wh, 0.0)
    if x.active is not None:  # masked entries (and fully masked rows) are exactly 0
        ok |= ~x.active
        out = np.where(x.active, out, 0.0)
    ok &= ~x.zeroed()
    return out, ~ok


def decide_outputs(
    p: Problem,
    b: tuple[int, ...],
    vsl: list[np.ndarray],
    nh: np.ndarray,
    nl: np.ndarray,
    n_err: np.ndarray,
    rh: np.ndarray,
    rl: np.ndarray,
    row_t_err: np.ndarray,
    n_active: np.ndarray,
    tables: Tables,
) -> tuple[np.ndarray, np.ndarray]:
    """Round ``o = unit_V N / R`` and decide each entry from a proved absolute bound.

    With ``rho`` the relative error of each computed weight ``e`` (logit error ``tau``:
    ``exp(tau) - 1``; two tables; three double-double products at <= 7u^2 each; the
    residual polynomial <= 2**-82), and fixed-point truncation ``< 2**-(aw na - 1)``, the
    weights used differ from the true ones by at most ``eta = 2 rho + 2**-(aw na - 1)`` each
    (``e < 2``; zeroed ``e < 2**-115``). Then ``|N - N_true| <= eta * sum_j |V_int[j]|``
    (plus ``n_err``: the double-double accumulation of ``N``, ``4u^2`` per term of the sum of
    their magnitudes, and the slice products not computed; plus ``R`` on a column of V cut
    short: its entries are low by less than one unit) and
    ``|R - R_true| <= eta * n_active``; double-double accumulation and the division add
    relative errors of a few ``u^2``, bounded generously by ``2**-96``. A column's line
    exponent scales the result by a power of two (exact unless it leaves the normal range:
    then undecided).
    """
    eta = 2 * rho(row_t_err, tables) + 2.0 ** -(p.aw * p.na - 1)
    vint_abs = np.zeros(vsl[0].shape)
    for t, vb in enumerate(vsl):
        vint_abs += np.abs(vb) * 2.0 ** (p.v.width * t)
    colabs = vint_abs.sum(axis=0) * (1 + 2.0**-40)
    d_n = eta[:, None] * colabs[None, :] + n_err
    d_r, r_lo = _row_sum_error(eta, rh, rl, n_active)
    cut = p.v.trunc_at(b)
    if cut is not None:
        d_n = d_n + (rh + d_r)[:, None] * cut[0][None, :] * (1 + 2.0**-40)
    oh, ol = dd_div(nh, nl, rh[:, None], rl[:, None])
    with flint.ctx.workprec(256):
        uh, ul, uerr = arb_dd(arb_of(p.v_unit))
    oh, ol = dd_mul(oh, ol, uh, ul)
    o_abs = np.abs(oh) + np.abs(ol)
    # |o_true - o| <= unit (dN + |N/R| dR) / R_lo + relative 2**-96 |o| + |N/R| uerr
    fix = np.abs(nh) / np.maximum(rh, 1e-300)[:, None]
    bound = (abs(uh) * 1.01) * (d_n + fix * d_r[:, None]) / np.maximum(r_lo, 1e-300)[:, None]
    bound = (bound + o_abs * 2.0**-96 + fix * uerr) * (1 + 2.0**-30)
    exps = p.v.exps_at(b)
    if exps is not None:
        shift = (exps[0] - p.v.top_exp).astype(np.int32)[None, :]
        oh, ol, bound = np.ldexp(oh, shift), np.ldexp(ol, shift), np.ldexp(bound, shift)
    ok = (r_lo > 0.25)[:, None] & np.isfinite(oh) & np.isfinite(bound)
    ok &= np.abs(oh) >= 2.0**-1000  # the double-double bounds assume no underflow
    ok &= within_half_ulp(oh, ol, bound)
    zero_rows = n_active == 0
    out = np.where(zero_rows[:, None], 0.0, oh)
    ok |= zero_rows[:, None]
    return out, ~ok
