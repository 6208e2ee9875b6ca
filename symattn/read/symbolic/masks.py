"""Causal masks the code builds, told from their exact values: ``tril(ones((n, n)))`` to
multiply by, ``triu(ones, 1).bool()`` or ``tril == 0`` to fill with ``-inf``."""

from __future__ import annotations

from symattn.read.symbolic.sym import Sym
from symattn.read.symbolic.values import Array

__all__ = ["is_causal_ones", "masks_future"]


def _square(a: Array | None) -> int | None:
    if a is None or len(a.shape) != 2 or a.shape[0] != a.shape[1]:
        return None
    return a.shape[0]


def is_causal_ones(s: Sym) -> bool:
    """Whether ``s`` is the lower triangle of ones (what keeps the past and the present)."""
    a = s.array
    n = _square(a)
    if a is None or n is None or n < 2:
        return False
    return all(a.data[i * n + j] == (1 if j <= i else 0) for i in range(n) for j in range(n))


def masks_future(s: Sym) -> bool | None:
    """Whether the true entries of ``s`` are exactly the future keys (``j > i``); None when
    its value is not known."""
    a = s.array
    n = _square(a)
    if a is None or n is None:
        return None
    if n < 2:
        return False
    return all((a.data[i * n + j] != 0) == (j > i) for i in range(n) for j in range(n))
