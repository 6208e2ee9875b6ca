"""References for the tests of symattn.fast: the per-entry Arb path of symattn.exact."""

from __future__ import annotations

import numpy as np

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.exact import float_of
from symattn.fast.fallback import certify_row_entries, row_weights
from symattn.fast.float64 import run
from symattn.fast.problem import Problem, prepare


def arb_reference(q, k, v, **kw):  # the reference: the pure Arb path of symattn.exact
    return symattn.scaled_dot_product_attention(q, k, v, exact_float=True, **kw).to_numpy(
        method="exact"
    )


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def fallbacks(q, k, v, **kw) -> int:
    """How many output entries the fast float64 path leaves to the fallback."""
    p = prepare(
        q,
        k,
        v,
        kw.get("attn_mask"),
        kw.get("is_causal", False),
        kw.get("scale"),
        False,
        True,
        DEFAULT_LIMITS,
    )
    return run(p, None, DEFAULT_LIMITS, 256)[1]


def row_reference(p: Problem, b: tuple[int, ...], i: int) -> list[float]:
    """One row of weights by the Arb fallback alone (independent of the fast path)."""
    S = p.k.shape[-2]
    got = certify_row_entries(row_weights(p, b, i), list(range(S)), float_of, 80, DEFAULT_LIMITS)
    return [got[j] for j in range(S)]
