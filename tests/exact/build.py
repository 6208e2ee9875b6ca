"""Small exact tensors for the tests of symattn.exact."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from symattn.exact import ExpTensor, RowSumTensor, SoftmaxTensor, SurdTensor

F = Fraction


def obj(rows: list) -> np.ndarray:
    a = np.empty((len(rows), len(rows[0])), dtype=object)
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            a[i, j] = F(v)
    return a


def softmax_of(
    p_rows: list, q_rows: list | None = None, r: int = 1, masked: list | None = None
) -> SoftmaxTensor:
    p = obj(p_rows)
    q = obj(q_rows) if q_rows is not None else np.full(p.shape, F(0), dtype=object)
    m = np.array(masked, dtype=bool) if masked is not None else np.zeros(p.shape, dtype=bool)
    e = ExpTensor(SurdTensor(p, q, r, m))
    return SoftmaxTensor(e, RowSumTensor(e))
