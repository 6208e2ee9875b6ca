"""Products of many-digit integers held as numpy digits (:data:`~symattn.exact.LIMB_BITS`
bits, low first), exact in float64: what a :class:`~symattn.exact.BallArray` of many digits
is built from without a Python integer per entry."""

from __future__ import annotations

import numpy as np

from symattn.exact import LIMB_BITS

__all__ = ["shifted_product"]

_MASK = (1 << LIMB_BITS) - 1


def shifted_product(a: list[np.ndarray], b: list[np.ndarray], drop: int) -> np.ndarray:
    """The digits of ``floor(A B / 2**(LIMB_BITS drop))`` or one less, stacked on a last axis,
    where ``A = sum_s a[s] 2**(LIMB_BITS s)`` and likewise ``B`` (digit arrays that broadcast
    together, integer-valued doubles below ``2**LIMB_BITS``).

    A product of two digits is below ``2**48``; a column sums at most ``min(len(a), len(b))``
    of them, below ``2**53`` for up to 32 digits: exact. Columns below ``drop - 2`` are left
    out: a column holds at most ``c = min(len(a), len(b))`` products below ``2**(2 LIMB_BITS)``,
    so together they are below ``c 2**(LIMB_BITS (drop - 1))``, less than one unit of the
    result (``c < 2**LIMB_BITS``): they change the floor by at most one.
    """
    na, nb = len(a), len(b)
    if min(na, nb) > 32:
        raise ValueError("too many digits for exact float64 columns")
    first = max(drop - 2, 0)
    carry: np.ndarray | int = 0
    digits: list[np.ndarray] = []
    for t in range(first, na + nb - 1):
        col: np.ndarray | None = None
        for s in range(max(0, t - nb + 1), min(na, t + 1)):
            term = a[s] * b[t - s]
            col = term if col is None else col + term
        assert col is not None
        v = col.astype(np.int64) + carry
        carry = v >> LIMB_BITS
        if t >= drop:
            digits.append(v & _MASK)
    top = np.asarray(carry)
    while top.any():
        digits.append(top & _MASK)
        top = top >> LIMB_BITS
    if not digits:
        return np.zeros(np.broadcast_shapes(a[0].shape, b[0].shape) + (1,), dtype=np.int64)
    return np.stack(np.broadcast_arrays(*digits), axis=-1)
