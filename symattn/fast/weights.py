"""The attention weights, batched: correctly rounded float64 (:func:`weights_run`, decided in
:func:`symattn.fast.decide.decide_weights`) and certified decisions (:func:`certify_weights`)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import flint
import numpy as np

from symattn.config import Limits
from symattn.exact import Ball, Surd, float_of
from symattn.fast.decide import decide_weights
from symattn.fast.enclose import head_exps
from symattn.fast.exps import iter_exps
from symattn.fast.fallback import RowCache, settle_weights
from symattn.fast.float64 import setup
from symattn.fast.problem import Problem, exact_add, exact_scores
from symattn.fast.tables import TABLES

__all__ = ["certify_weights", "weights_run"]

T = TypeVar("T")


def weights_run(p: Problem, limits: Limits, block_rows: int) -> tuple[np.ndarray, int]:
    """The weights correctly rounded to float64, and how many rows needed the fallback."""
    L, S = p.q.shape[-2], p.k.shape[-2]
    out = np.zeros(p.batch + (L, S))
    g, direct = setup(p)
    fallbacks = 0
    for b in np.ndindex(*p.batch):
        cache = RowCache(p, b)
        for r0 in range(0, L, block_rows):
            rows = slice(r0, min(L, r0 + block_rows))
            undecided = np.ones((rows.stop - rows.start, S), dtype=bool)
            if g is not None:
                with np.errstate(invalid="ignore", divide="ignore", over="ignore", under="ignore"):
                    for rs, x in iter_exps(p, b, rows, g, TABLES, direct):
                        vals, undecided[rs] = decide_weights(x, p.aw, p.na)
                        out[b + (slice(rows.start + rs.start, rows.start + rs.stop),)] = vals
            for i in np.flatnonzero(undecided.any(axis=1)).tolist():
                cols = np.flatnonzero(undecided[i]).tolist()
                got = settle_weights(cache, r0 + i, cols, float_of, 80, limits)
                for j, w in got.items():
                    out[b + (r0 + i, j)] = w
                fallbacks += 1
    out.flags.writeable = False
    return out, fallbacks


def _enclose_weights(
    factor: Surd,
    scores: np.ndarray,
    masked: np.ndarray | None,
    add: tuple[np.ndarray, Fraction] | None,
    prec: int,
) -> np.ndarray:
    """Arb balls of every weight of one head: ``exp`` once per distinct score, one division each."""
    L, S = scores.shape
    out = np.empty((L, S), dtype=object)
    with flint.ctx.workprec(prec):
        zero = flint.arb(0)
        for i, row in enumerate(head_exps(factor, scores, masked, add)):
            total = zero
            for x in row:
                total += x
            out[i] = [zero] * S if total.is_zero() else [x / total for x in row]
    return out


def certify_weights(
    p: Problem, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits
) -> np.ndarray:
    """:meth:`~symattn.exact.ExactTensor.certify` of the weights of ``p``, batched.

    Every weight's Arb ball (about ``start_bits`` bits plus guard bits) goes to ``decide``;
    rows with entries it leaves undecided go through
    :func:`~symattn.fast.fallback.certify_row_entries`, which refines and knows the rational
    rows (equal scores: ``1/m``) exactly.
    """
    L, S = p.q.shape[-2], p.k.shape[-2]
    prec = start_bits + 24 + 2 * max(S, 2).bit_length()
    out = np.empty(p.batch + (L, S), dtype=object)
    for b in np.ndindex(*p.batch):
        masked = p.masked[b] if p.masked is not None else None
        scores, factor = exact_scores(p, b)
        balls = _enclose_weights(factor, scores, masked, exact_add(p, b), prec)
        cache = RowCache(p, b)
        for i in range(L):
            pending = []
            for j in range(S):
                x = balls[i, j]
                res = decide(Ball.from_arb(x)) if x.is_finite() else None
                if res is None:
                    pending.append(j)
                else:
                    out[b + (i, j)] = res
            if pending:
                got = settle_weights(cache, i, pending, decide, start_bits, limits)
                for j, v in got.items():
                    out[b + (i, j)] = v
    out.flags.writeable = False
    return out
