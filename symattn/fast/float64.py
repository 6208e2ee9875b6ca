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

from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.fast.decide import decide_outputs
from symattn.fast.doubles import dd_add
from symattn.fast.exps import block_exps, weight_slices
from symattn.fast.fallback import fallback
from symattn.fast.problem import EW, Problem, Progress, Unsupported, gamma, prepare
from symattn.fast.tables import TABLES, Direct, Tables, direct_tables

__all__ = ["attention_float64", "block", "run", "setup"]


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
    exact_float: bool = True,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
    block_rows: int = 256,
) -> np.ndarray:
    """``softmax(Q K^T * scale + mask) V`` correctly rounded to float64, fast.

    Same semantics as :func:`symattn.scaled_dot_product_attention` (torch's argument order,
    safe softmax for fully masked rows). Float arrays are read as their exact binary values
    (``exact_float=True``, what a kernel computes with); ``exact_float=False`` reads them
    through their shortest repr like the rest of symattn.
    """
    p = prepare(query, key, value, attn_mask, is_causal, scale, enable_gqa, exact_float, limits)
    return run(p, progress, limits, block_rows)[0]


def run(
    p: Problem, progress: Progress | None, limits: Limits, block_rows: int
) -> tuple[np.ndarray, int]:
    """The output and how many entries needed the fallback."""
    L, Ev = p.q.shape[-2], p.v.shape[-1]
    out = np.empty(p.batch + (L, Ev))
    g, direct = setup(p)
    fallbacks = 0
    blocks = [(b, r) for b in np.ndindex(*p.batch) for r in range(0, L, block_rows)]
    for count, (b, r0) in enumerate(blocks, 1):
        rows = slice(r0, min(L, r0 + block_rows))
        undecided = np.ones((rows.stop - rows.start, Ev), dtype=bool)
        if g is not None:
            with np.errstate(invalid="ignore", divide="ignore"):
                vals, undecided = block(p, b, rows, g, TABLES, direct)
            out[b + (rows,)] = vals
        for i, j in np.argwhere(undecided):
            out[b + (rows.start + int(i), int(j))] = fallback(
                p, b, rows.start + int(i), int(j), limits
            )
            fallbacks += 1
        if progress is not None:
            progress(count, len(blocks))
    out.flags.writeable = False
    return out, fallbacks


def block(
    p: Problem,
    b: tuple[int, ...],
    rows: slice,
    g: tuple[float, float, float],
    tables: Tables,
    direct: Direct | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Fast values and the undecided mask for query rows ``rows`` of batch entry ``b``."""
    x = block_exps(p, b, rows, g, tables, direct)
    vsl = p.v.at_batch(b)
    n_rows = x.eh.shape[0]
    # exact N = sum A_s V and R = sum A_s as double-doubles
    nh = np.zeros((n_rows, vsl[0].shape[1]))
    nl = np.zeros_like(nh)
    nabs = np.zeros_like(nh)
    rh = np.zeros(n_rows)
    rl = np.zeros(n_rows)
    n_terms = 0
    for s, slab in enumerate(weight_slices(x.eh, x.el)):
        shift = -(EW * (s + 1) - 1)
        r_part = np.ldexp(slab.sum(axis=1), shift)
        rh, rl = dd_add(rh, rl, r_part, 0.0)
        for t, vb in enumerate(vsl):
            term = np.ldexp(slab @ vb, shift + p.v.width * t)
            nh, nl = dd_add(nh, nl, term, 0.0)
            nabs = nabs + np.abs(term)
            n_terms += 1
    return decide_outputs(p, vsl, nh, nl, nabs, n_terms, rh, rl, x.n_active, x.row_t_err, x.tables)
