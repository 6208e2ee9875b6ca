"""The float64 decision: round a double-double and accept it only when a proved error bound
keeps the whole interval inside one double's rounding range.

The bounds are derived here and in ``docs/performance.md``: :func:`rho` is the relative
error of each computed unnormalised weight, :func:`output_bounds` bounds ``o = unit_V N / R``
(:func:`symattn.fast.weights.iter_weights` bounds ``w = e / R``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np

from symattn.exact import arb_of
from symattn.fast.doubles import EXP_RESIDUAL_ERR, U2, arb_dd, dd_div, dd_mul
from symattn.fast.problem import Problem
from symattn.fast.tables import Tables

__all__ = [
    "Outputs",
    "column_sums",
    "decide_float64_outputs",
    "output_bounds",
    "rho",
    "within_half_ulp",
]


def rho(row_t_err: np.ndarray, tables: Tables) -> np.ndarray:
    """Per row, the relative error bound of every computed ``e`` (see :func:`decide_outputs`)."""
    tau = row_t_err * (1 + 2.0**-30)
    # exp(tau) - 1 <= 1.01 tau for 0 <= tau <= 2**-20 (no libm involved); larger: undecided
    tau = np.where(tau <= 2.0**-20, tau, np.inf)
    return tau * 1.01 + 3 * tables.err + 4 * 8 * U2 + EXP_RESIDUAL_ERR


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


@functools.lru_cache(maxsize=64)
def unit_dd(unit: Fraction) -> tuple[float, float, float]:
    """An exact rational as a double-double with an absolute error bound (kept: one per
    problem, asked for by every block)."""
    with flint.ctx.workprec(256):
        return arb_dd(arb_of(unit))


@dataclass(frozen=True)
class Outputs:
    """A block of outputs: ``|o_true - (oh + ol)| <= bound`` where ``valid``; rows with no
    active key (``zero_rows``) are exactly 0."""

    oh: np.ndarray
    ol: np.ndarray
    bound: np.ndarray
    valid: np.ndarray
    zero_rows: np.ndarray


def output_bounds(
    p: Problem,
    b: tuple[int, ...],
    colabs: np.ndarray,
    nh: np.ndarray,
    nl: np.ndarray,
    n_err: np.ndarray,
    rh: np.ndarray,
    rl: np.ndarray,
    row_t_err: np.ndarray,
    n_active: np.ndarray,
    tables: Tables,
) -> Outputs:
    """``o = unit_V N / R`` and a proved absolute bound for each entry (``colabs``: an upper
    bound of ``sum_j |V_int[j]|`` per column, :func:`column_sums`).

    With ``rho`` the relative error of each computed weight ``e`` (logit error ``tau``:
    ``exp(tau) - 1``; two tables; three double-double products at <= 7u^2 each; the
    residual polynomial <= 2**-96), and fixed-point truncation ``< 2**-(aw na - 1)``, the
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
    d_n = eta[:, None] * colabs[None, :] + n_err
    d_r, r_lo = _row_sum_error(eta, rh, rl, n_active)
    cut = p.v.trunc_at(b)
    if cut is not None:
        d_n = d_n + (rh + d_r)[:, None] * cut[0][None, :] * (1 + 2.0**-40)
    oh, ol = dd_div(nh, nl, rh[:, None], rl[:, None])
    uh, ul, uerr = unit_dd(p.v_unit)
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
        bound = bound + 2.0**-1070  # a scaling that underflows rounds by less
    valid = (r_lo > 0.25)[:, None] & np.isfinite(oh) & np.isfinite(bound)
    valid &= np.abs(oh) >= 2.0**-1000  # the double-double bounds assume no underflow
    return Outputs(oh, ol, bound, valid, n_active == 0)


def column_sums(p: Problem, vsl: list[np.ndarray]) -> np.ndarray:
    """``sum_j |V_int[j]|`` per column of the V slices ``vsl``, bounded above."""
    vint_abs = np.zeros(vsl[0].shape)
    for t, vb in enumerate(vsl):
        vint_abs += np.abs(vb) * 2.0 ** (p.v.width * t)
    colabs: np.ndarray = vint_abs.sum(axis=0) * (1 + 2.0**-40)
    return colabs


def decide_float64_outputs(o: Outputs) -> tuple[np.ndarray, np.ndarray]:
    """The float64 decision for a block of outputs: ``(values, undecided)``."""
    ok = o.valid & within_half_ulp(o.oh, o.ol, o.bound)
    out = np.where(o.zero_rows[:, None], 0.0, o.oh)
    ok |= o.zero_rows[:, None]
    return out, ~ok
