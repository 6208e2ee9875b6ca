"""Correctly rounded float64 attention for large inputs, without per-entry Python in the hot
loops (see ``docs/performance.md``):

1. Q, K, V are read exactly as sliced integer matrices (:mod:`symattn.fast.sliced`);
   ``Q K^T`` is exact.
2. Logits and ``e = exp(t - m)`` are double-doubles with a proved error bound per row
   (:mod:`symattn.fast.exps`, :mod:`symattn.fast.tables`).
3. The weights ``e`` (``0 <= e < 2``) are cut exactly into four 26-bit fixed-point slices;
   ``P V`` and the row sums are exact integer products of slices (BLAS again).
4. ``o = (N / R) * unit_V`` in double-double, with an absolute bound on everything above;
   an entry is accepted when the whole interval rounds to one double
   (:mod:`symattn.fast.decide`). The few undecided entries (and exact zeros, ties) are
   recomputed by the per-entry path (:mod:`symattn.fast.fallback`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.exact import float_of
from symattn.fast.decide import Outputs, column_sums, decide_float64_outputs, output_bounds
from symattn.fast.doubles import U2, dd_add
from symattn.fast.exps import iter_exps, weight_slices
from symattn.fast.fallback import RowCache, constant_columns, settle_outputs
from symattn.fast.jit import fused_kernels
from symattn.fast.problem import DROP_BITS, Problem, Progress, Unsupported, gamma, prepare
from symattn.fast.scores import compact_lines, score_levels
from symattn.fast.tables import TABLES, Direct, Tables, direct_tables
from symattn.fast.workspace import Workspace
from symattn.numbers.interop import FloatReading, float_reading

#: scores per block of rows at most: what each of its score terms and weight slices holds
BLOCK_ENTRIES = 2**18


def block_rows_for(keys: int) -> int:
    """Query rows per block for ``keys`` keys: ``BLOCK_ENTRIES`` scores (256 rows at 1024
    keys), a quarter of that beyond 1024 keys, at least 16 rows. The quarter keeps ``symattn
    reference`` at n = 4096 within its memory bound (tests/test_memory.py) once numba's
    runtime (about 125 MB: LLVM and the compiled kernels) is loaded."""
    entries = BLOCK_ENTRIES if keys <= 1024 else BLOCK_ENTRIES // 4
    return max(16, entries // max(keys, 1))


__all__ = [
    "BLOCK_ENTRIES",
    "accumulate",
    "block_rows_for",
    "attention_float64",
    "block",
    "block_outputs",
    "run",
    "setup",
]


def setup(p: Problem) -> tuple[tuple[float, float, float] | None, Direct | None]:
    """``(gamma, direct)`` for the double-double paths; ``gamma`` is ``None`` when the problem
    is out of double range (every entry then goes to the fallback)."""
    try:
        g = gamma(p)
    except Unsupported:
        return None, None
    return g, direct_tables(p, g) if p.add is None else None


def attention_float64(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    enable_gqa: bool = False,
    *,
    read_floats: str | FloatReading | None = None,
    exact_float: bool | None = None,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
    block_rows: int = 256,
) -> np.ndarray:
    """``softmax(Q K^T * scale + mask) V`` correctly rounded to float64, fast.

    Same semantics as :func:`symattn.scaled_dot_product_attention` (torch's argument order,
    safe softmax for fully masked rows, the same ``read_floats``: numpy float arrays and torch
    tensors as their exact binary values, what a kernel computes with; Python floats and
    lists through their shortest repr; ``"binary"``/``"shortest"``, or ``exact_float``, for
    every argument).
    """
    floats = float_reading(read_floats, exact_float)
    p = prepare(query, key, value, attn_mask, is_causal, scale, enable_gqa, floats, limits)
    return run(p, progress, limits, block_rows)[0]


def run(
    p: Problem, progress: Progress | None, limits: Limits, block_rows: int
) -> tuple[np.ndarray, int]:
    """The output and how many entries the batched bound left open (decided structurally or
    refined in Arb, row by row: :mod:`symattn.fast.fallback`)."""
    L, Ev = p.q.shape[-2], p.v.shape[-1]
    block_rows = min(block_rows, block_rows_for(p.k.shape[-2]))
    out = np.empty(p.batch + (L, Ev))
    g, direct = setup(p)
    fallbacks = 0
    blocks = [(b, r) for b in np.ndindex(*p.batch) for r in range(0, L, block_rows)]
    work = Workspace()
    caches: dict[tuple[int, ...], tuple[RowCache, dict[int, Fraction]]] = {}
    for count, (b, r0) in enumerate(blocks, 1):
        rows = slice(r0, min(L, r0 + block_rows))
        undecided = np.ones((rows.stop - rows.start, Ev), dtype=bool)
        if g is not None:
            with np.errstate(invalid="ignore", divide="ignore", over="ignore", under="ignore"):
                vals, undecided = block(p, b, rows, g, TABLES, direct, work)
            out[b + (rows,)] = vals
        if undecided.any():
            if b not in caches:
                caches[b] = (RowCache(p, b), constant_columns(p, b))
            fallbacks += settle(p, b, r0, undecided, out, caches[b], limits)
        if progress is not None:
            progress(count, len(blocks))
    out.flags.writeable = False
    return out, fallbacks


def settle(
    p: Problem,
    b: tuple[int, ...],
    r0: int,
    undecided: np.ndarray,
    out: np.ndarray,
    cached: tuple[RowCache, dict[int, Fraction]],
    limits: Limits,
) -> int:
    """Decide the undecided entries of a block: a column of V equal on every key gives its
    value (0 in a fully masked row); the rest row by row (:func:`settle_outputs`)."""
    cache, constant = cached
    n = undecided.shape[0]
    total = int(undecided.sum())
    if constant:  # whole columns at once
        cols = np.array(sorted(constant))
        values = np.array([float(constant[c]) for c in cols.tolist()])
        some = np.ones(n, bool) if p.masked is None else ~p.masked[b][r0 : r0 + n].all(axis=1)
        block = out[b + (slice(r0, r0 + n),)]
        here = undecided[:, cols]
        block[:, cols] = np.where(
            here, np.where(some[:, None], values[None, :], 0.0), block[:, cols]
        )
        undecided = undecided.copy()
        undecided[:, cols] = False
    for i in np.flatnonzero(undecided.any(axis=1)).tolist():
        cols_i = np.flatnonzero(undecided[i]).tolist()
        got = settle_outputs(cache, r0 + i, cols_i, float_of, 80, limits)
        for c, x in got.items():
            out[b + (r0 + i, c)] = x
    return total


def block(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    g: tuple[float, float, float],
    tables: Tables,
    direct: Direct | None = None,
    work: Workspace | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Fast values and the undecided mask for query rows ``rows`` of batch entry ``b``."""
    return decide_float64_outputs(block_outputs(p, b, rows, g, tables, direct, work))


def block_outputs(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    g: tuple[float, float, float],
    tables: Tables,
    direct: Direct | None = None,
    work: Workspace | None = None,
) -> Outputs:
    """The outputs of query rows ``rows`` of batch entry ``b`` as double-doubles with a bound."""
    work = work or Workspace()
    n_rows, S = rows.stop - rows.start, p.k.shape[-2]
    slabs = work.get("slabs", (p.na, n_rows, S))
    row_t_err = np.empty(n_rows)
    n_active = np.empty(n_rows, dtype=np.int64)
    lv = score_levels(p.q, p.k, b, rows, work)
    fused = fused_kernels(p.q.shape[-2] * S * math.prod(p.batch))
    used = None
    if fused is not None:  # the same doubles as below, compiled
        used = fused.fill_block(p, b, rows, lv, g, tables, direct, (slabs, row_t_err, n_active))
    if used is None:
        used = tables
        for rs, x in iter_exps(p, b, rows, g, tables, direct, work, lv):
            for s, a in enumerate(weight_slices(x.eh, x.el, p.aw, p.na)):
                slabs[s][rs] = a
            row_t_err[rs], n_active[rs], used = x.row_t_err, x.n_active, x.tables
    vsl = p.v.at_batch(b)
    plan = work.kept(("pv", b), p.v, lambda: _pv_plan(p, vsl))
    # exact N = sum A_s V and R = sum A_s as double-doubles
    rh = np.zeros(n_rows)
    rl = np.zeros(n_rows)
    products, exps = [], []
    E = vsl[0].shape[1]
    for s, slab in enumerate(slabs):
        shift = -(p.aw * (s + 1) - 1)
        dense = plan.dense[s]
        if dense:  # the dense slices of V side by side and a column of ones: one product
            side = slab @ plan.side[s]  # exact, each column (integers below 2**53)
            slab_sum = side[:, -1]
        else:
            slab_sum = slab.sum(axis=1)  # exact: integers below 2**53
        r_part = np.ldexp(slab_sum, shift)
        rh, rl = dd_add(rh, rl, r_part, 0.0)
        for t, vb in enumerate(vsl):
            if (s, t) not in plan.pairs:  # |A_s| < 2**aw: bounded in plan.dropped
                continue
            cols, keys = plan.cols[t], plan.keys[t]
            if t in dense:
                k = dense.index(t)
                product = side[:, k * E : (k + 1) * E]
            elif cols is not None:  # a slice of V not zero in a few columns only
                product = np.zeros((n_rows, E))
                product[:, cols] = slab @ vb[:, cols]
            else:  # ... or on a few keys only
                assert keys is not None
                product = slab[:, keys] @ vb[keys]
            products.append(product)
            exps.append(shift + p.v.width * t)
    if not products:  # V is 0
        nh = nl = nabs = np.zeros((n_rows, E))
    elif fused is not None:  # the same doubles as below, compiled
        nh, nl, nabs = fused.accumulate(products, exps)
    else:
        nh, nl, nabs = accumulate(products, exps)
    n_err = (len(products) * 4 * U2) * nabs + plan.dropped[None, :] * (1 + 2.0**-40)
    return output_bounds(p, b, plan.colabs, nh, nl, n_err, rh, rl, row_t_err, n_active, used)


def accumulate(
    products: list[np.ndarray], exps: list[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(nh, nl, nabs)``: the sum of ``products[i] * 2**exps[i]`` (exact integer products
    scaled exactly) in double-double, added in order (AccurateDWPlusDW), and the sum of their
    magnitudes."""
    nh = np.zeros(products[0].shape)
    nl = np.zeros_like(nh)
    nabs = np.zeros_like(nh)
    for product, e in zip(products, exps, strict=True):
        term = np.ldexp(product, e)
        nh, nl = dd_add(nh, nl, term, 0.0)
        nabs = nabs + np.abs(term)
    return nh, nl, nabs


@dataclass(frozen=True)
class _PV:
    """What every block of one batch entry shares in ``P V``: the slice products computed
    ``(s, t)``, the bound of those left out, the compact slices of V, per weight slice the
    dense slices of V it multiplies, side by side with a column of ones (the row sums of the
    weight slice come with the product), and the column sums of ``|V|``."""

    pairs: frozenset[tuple[int, int]]
    dropped: np.ndarray
    cols: list[np.ndarray | None]
    keys: list[np.ndarray | None]
    dense: list[tuple[int, ...]]
    side: list[np.ndarray | None]
    colabs: np.ndarray  # column_sums


def _pv_plan(p: Problem, vsl: list[np.ndarray]) -> _PV:
    nv = len(vsl)
    cols = [compact_lines(vb, 0) for vb in vsl]
    keys = [compact_lines(vb.T, 0) for vb in vsl]
    # a product A_s V_t adds at most 2**(1 - aw s + vw t) sum_j |V_t[j]| per column: left out
    # when that is below 2**-DROP_BITS of sum_j |V_int[j]| in every column (and bounded)
    colabs_t = [np.ldexp(np.abs(vb).sum(axis=0), p.v.width * t) for t, vb in enumerate(vsl)]
    colabs = np.maximum(sum(colabs_t), 1e-300)
    share = [float((c / colabs).max(initial=0.0)) for c in colabs_t]
    pairs = frozenset(
        (s, t)
        for s in range(p.na)
        for t in range(nv)
        if share[t] and np.ldexp(share[t], 1 - p.aw * s) >= 2.0**-DROP_BITS
    )
    dropped = np.zeros(vsl[0].shape[1])
    for s in range(p.na):
        for t in range(nv):
            if (s, t) not in pairs:
                dropped += np.ldexp(colabs_t[t], 1 - p.aw * s)
    dense = [
        tuple(t for t in range(nv) if (s, t) in pairs and cols[t] is None and keys[t] is None)
        for s in range(p.na)
    ]
    # one array for every weight slice: the dense V slices of the first, a column of ones
    # last; a weight slice whose dense slices are the last of those takes a view of it
    widest = max(dense, key=len)
    whole = np.hstack([vsl[t] for t in widest] + [np.ones((vsl[0].shape[0], 1))])
    E = vsl[0].shape[1]
    side: list[np.ndarray | None] = []
    for d in dense:
        if not d:
            side.append(None)
        elif d == widest[len(widest) - len(d) :]:
            side.append(whole[:, E * (len(widest) - len(d)) :])
        else:
            side.append(np.hstack([vsl[t] for t in d] + [np.ones((vsl[0].shape[0], 1))]))
    return _PV(pairs, dropped, cols, keys, dense, side, column_sums(p, vsl))
