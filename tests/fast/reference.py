"""References for the tests of symattn.fast: the per-entry Arb path of symattn.exact."""

from __future__ import annotations

import numpy as np

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.fast.float64 import run
from symattn.fast.problem import prepare


def arb_reference(q, k, v, **kw):  # the reference: the pure Arb path of symattn.exact
    return symattn.scaled_dot_product_attention(q, k, v, exact_float=True, **kw).to_numpy(
        method="exact"
    )


def arb_weights(q, k, v, **kw):  # the weights by the pure Arb path of symattn.exact
    exact_float = kw.pop("exact_float", True)
    r = symattn.scaled_dot_product_attention(q, k, v, exact_float=exact_float, **kw)
    return r.weights.to_numpy(method="exact")


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def fallbacks(q, k, v, **kw) -> int:
    """How many output entries the fast float64 bound leaves open."""
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
