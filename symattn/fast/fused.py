"""The elementwise work of a block of rows in one pass per row, compiled by numba (the
optional extra ``fast``; the kernels are in :mod:`symattn.fast.compiled`;
:mod:`symattn.fast.jit` decides when this runs and loads it).

From the exact score levels of a block (:func:`symattn.fast.scores.score_levels`) to the
fixed-point weight slices of ``P V``: the scores in double-double
(:func:`~symattn.fast.scores.chunk_scores`), the logits (:func:`~symattn.fast.exps.logits`),
the shift by the row maximum, ``exp`` from the certified tables
(:func:`~symattn.fast.tables.exp_neg`, :func:`~symattn.fast.tables.exp_direct`) and the slices
(:func:`~symattn.fast.exps.weight_slices`). Every double is computed by the same IEEE 754
operations in the same order as there (numba compiles them without fast-math, so without
reassociation or fused multiply-adds; :func:`self_check` tests this before
:mod:`symattn.fast.jit` first uses them): the values are bit for bit those of the numpy path,
and the proof of ``docs/performance.md`` applies unchanged. Only the order of the loops
differs (a row at a time, in cache), and the temporaries are a few rows long.

Without numba the kernels are plain Python (the tests run them so on small inputs).
"""

from __future__ import annotations

import math

import numpy as np

from symattn.fast.compiled import COMPILED, accumulate_terms, block, block_direct
from symattn.fast.exps import weight_slices
from symattn.fast.problem import Problem
from symattn.fast.scores import Levels, line_factors
from symattn.fast.tables import LIMIT, TABLES, Direct, Tables, exp_neg

__all__ = [
    "COMPILED",
    "accumulate",
    "block_weights",
    "direct_weights",
    "fill_block",
    "self_check",
]


def accumulate(
    products: list[np.ndarray], exps: list[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`symattn.fast.float64.accumulate` compiled: the same doubles."""
    stacked = np.stack(products)
    nh, nl, nabs = (np.empty(stacked.shape[1:]) for _ in range(3))
    accumulate_terms(stacked, np.array([2.0**e for e in exps]), nh, nl, nabs)
    return nh, nl, nabs


def block_weights(
    lv: Levels,
    level_weights: np.ndarray,
    cols: np.ndarray | None,
    rows: np.ndarray | None,
    s_err: np.ndarray,
    gamma: tuple[float, float, float],
    add: tuple[np.ndarray, np.ndarray, float] | None,
    masked: np.ndarray | None,
    tables: Tables,
    aw: int,
    out: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """The general path for one block: the score levels with their weights
    ``2**(width (l + base))``, the column and row factors (``None``: 1), the score
    error per row, ``gamma``, the additive mask ``(ah, al, rel)`` and the boolean mask (both
    ``(R, S)``) and the exp tables; fills ``out = (slabs (na, R, S), row_t_err (R,),
    n_active (R,))``."""
    gh, gl, gerr = gamma
    _, R, S = lv.terms.shape
    width = max(len(r) for r in lv.recipe)
    idx = np.zeros((len(lv.recipe), width), dtype=np.int64)
    coef = np.zeros((len(lv.recipe), width))
    for lev, parts in enumerate(lv.recipe):
        for m, (t, c) in enumerate(parts):
            idx[lev, m], coef[lev, m] = t, c
    pow2 = gl == 0 and gerr == 0 and abs(math.frexp(gh)[0]) == 0.5
    # the scalar factors, computed as exps.logits computes them
    c_err = abs(gh) if pow2 else abs(gh) * 1.01
    a_rel = 0.0 if add is None else add[2] * 1.01 + 2.0**-104
    g = np.array([gh, gl, abs(gh) * (1 + 2.0**-40), c_err, 1.01 * gerr, a_rel])
    none = np.zeros((1, 1))
    add_kind = 0 if add is None else (1 if add[2] == 0 else 2)
    block(
        lv.terms,
        idx,
        coef,
        level_weights,
        np.ones(S) if cols is None else cols,
        np.ones(R) if rows is None else rows,
        s_err,
        g,
        pow2,
        none if add is None else add[0],
        none if add is None or add_kind == 1 else add[1],
        add_kind,
        np.zeros((1, 1), dtype=bool) if masked is None else masked,
        masked is not None,
        tables.hi[0],
        tables.lo[0],
        tables.hi[1],
        tables.lo[1],
        float(LIMIT),
        2.0 ** (aw - 1),
        2.0**aw,
        *out,
    )


def direct_weights(
    level: np.ndarray,
    direct: Direct,
    masked: np.ndarray | None,
    aw: int,
    out: tuple[np.ndarray, np.ndarray],
) -> None:
    """Integer scores (one level, no line exponents) for one block; fills
    ``out = (slabs (na, R, S), n_active (R,))``."""
    t = direct.tables
    block_direct(
        level,
        direct.sign,
        direct.cut,
        np.zeros((1, 1), dtype=bool) if masked is None else masked,
        masked is not None,
        t.hi[0],
        t.lo[0],
        t.hi[1],
        t.lo[1],
        2.0 ** (aw - 1),
        2.0**aw,
        *out,
    )


def fill_block(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    lv: Levels,
    gamma: tuple[float, float, float],
    tables: Tables,
    direct: Direct | None,
    out: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> Tables | None:
    """What :func:`symattn.fast.exps.iter_exps` and :func:`~symattn.fast.exps.weight_slices`
    give for query rows ``rows`` of batch entry ``b`` from their score levels ``lv``, into
    ``out = (slabs (na, R, S), row_t_err (R,), n_active (R,))``; the tables used, or ``None``
    (nothing written) for what only the numpy path does: line exponents whose powers of two
    are not all normal doubles (``ldexp`` then)."""
    slabs, row_t_err, n_active = out
    masked = p.masked[b][rows] if p.masked is not None else None
    if direct is not None and lv.integer and p.add is None:
        assert lv.recipe == (((0, 1.0),),)
        direct_weights(lv.terms[0], direct, masked, p.aw, (slabs, n_active))
        row_t_err.fill(0.0)
        return direct.tables
    cols = rows_f = None
    if lv.col_exp is not None:
        cols = line_factors(lv.col_exp)
        if cols is None:
            return None
    if lv.row_exp is not None:
        rows_f = line_factors(lv.row_exp)
        if rows_f is None:
            return None
    weights = np.array([2.0 ** (lv.width * (lev + lv.base)) for lev in range(len(lv.recipe))])
    add = None
    if p.add is not None:
        add = (p.add.ah[b][rows], p.add.al[b][rows], p.add.rel)
    block_weights(lv, weights, cols, rows_f, lv.err, gamma, add, masked, tables, p.aw, out)
    return tables


def self_check() -> bool:
    """Whether the compiled kernel gives the numpy path's doubles here (no fused multiply-add
    or reassociation slipped in): one row of 256 logits through the compiled block (one level,
    gamma 1), its weight slices against ``exp_neg`` and ``weight_slices``, bit for bit."""
    rng = np.random.default_rng(23)
    S = 256
    th = -rng.uniform(0.0, 90.0, S)
    th[:8] = [0.0, -0.0, -(2.0**-40), -80.0625, -1e-300, -3.0, -(2.0**-17), -1.0]
    eh, el = exp_neg(th, np.zeros(S), TABLES, far=False)
    want = weight_slices(eh, el, 22, 4)
    slabs = np.empty((4, 1, S))
    t = TABLES
    block(
        th.reshape(1, 1, S),
        np.zeros((1, 1), dtype=np.int64),
        np.ones((1, 1)),
        np.ones(1),
        np.ones(S),
        np.ones(1),
        np.zeros(1),
        np.array([1.0, 0.0, 1.0, 1.0, 0.0, 0.0]),
        True,
        np.zeros((1, 1)),
        np.zeros((1, 1)),
        0,
        np.zeros((1, 1), dtype=bool),
        False,
        t.hi[0],
        t.lo[0],
        t.hi[1],
        t.lo[1],
        float(LIMIT),
        2.0**21,
        2.0**22,
        slabs,
        np.empty(1),
        np.empty(1, dtype=np.int64),
    )
    return all(np.array_equal(slabs[s, 0], want[s]) for s in range(4))
