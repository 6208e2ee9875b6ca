"""The per-entry path for what the batched kernels leave open: one query row rebuilt as
:mod:`symattn.exact` tensors, which refine in Arb and know the rational cases (ties) exactly."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import numpy as np

from symattn.config import Limits
from symattn.errors import PrecisionError
from symattn.exact import (
    Ball,
    ExpTensor,
    MatMulTensor,
    RationalTensor,
    RowSumTensor,
    SoftmaxTensor,
    SurdTensor,
)
from symattn.fast.problem import Problem
from symattn.fast.sliced import Sliced, exact_products

__all__ = ["certify_row_entries", "entry_tensor", "fallback", "row_weights"]

T = TypeVar("T")


def row_weights(p: Problem, b: tuple[int, ...], i: int) -> SoftmaxTensor:
    """The weights of query row ``(b, i)`` as a 1 x S :class:`~symattn.exact.SoftmaxTensor`."""
    qrow = [a[i : i + 1] for a in p.q.at_batch(b)]
    kmat = p.k.at_batch(b)
    S = kmat[0].shape[0]
    ints = exact_products(qrow, p.q.width, kmat, p.k.width, fits=False)
    u = p.q.unit * p.k.unit
    scores = np.vectorize(lambda x: Fraction(x) * u, otypes=[object])(ints)
    masked = p.masked[b][i : i + 1] if p.masked is not None else np.zeros((1, S), dtype=bool)
    add = p.add[b][i : i + 1] if p.add is not None else np.full((1, S), Fraction(0), dtype=object)
    c = p.scale
    logits = SurdTensor(scores * c.p + add, scores * c.q, c.r, masked)
    exps = ExpTensor(logits)
    return SoftmaxTensor(exps, RowSumTensor(exps))


def entry_tensor(p: Problem, b: tuple[int, ...], i: int, j: int) -> MatMulTensor:
    """Output entry ``(b, i, j)`` as a 1 x 1 :class:`~symattn.exact.MatMulTensor` (one row)."""
    weights = row_weights(p, b, i)
    vsl = Sliced(tuple(a[:, j : j + 1] for a in p.v.at_batch(b)), p.v.width, p.v.unit)
    return MatMulTensor(weights, RationalTensor(vsl.fractions(slice(None))))


def fallback(p: Problem, b: tuple[int, ...], i: int, j: int, limits: Limits) -> float:
    """One output entry correctly rounded to float64 through the per-entry path."""
    return float(entry_tensor(p, b, i, j).to_numpy(limits=limits)[0, 0])


def certify_row_entries(
    row: SoftmaxTensor,
    cols: list[int],
    decide: Callable[[Ball], T | None],
    start_bits: int,
    limits: Limits,
) -> dict[int, T]:
    """``decide`` for entries ``cols`` of a 1 x S weights row, refined in Arb.

    A row whose active scores are all equal has the rational weights ``1/m`` (decided on the
    exact zero-width ball); any other weight is irrational (Lindemann-Weierstrass), so
    refinement decides it for any rounding.
    """
    weight = row.rational_row((0,))
    if weight is None:
        refined = row.refine_entries(
            [(0, j) for j in cols], [decide] * len(cols), start_bits=start_bits, limits=limits
        )
        return dict(zip(cols, refined, strict=True))
    out: dict[int, T] = {}
    for j in cols:
        w = Fraction(0) if row.logits.masked[0, j] else weight
        res = decide(Ball.exact(w))
        if res is None:
            raise PrecisionError(f"undecided on the exact value {w}")
        out[j] = res
    return out
