"""Multi-head attention's output projection ``concat(heads) @ W_O``, correctly rounded to
float64 from certified balls of the heads."""

from __future__ import annotations

import flint
import numpy as np

from symattn.config import Limits
from symattn.errors import PrecisionError
from symattn.exact import Ball, MatMulTensor, arb_of_ratio, float_of
from symattn.fast.enclose import enclose_problem
from symattn.fast.problem import Problem

__all__ = ["projected_float64"]


def projected_float64(
    p: Problem, source: np.ndarray, tensor: MatMulTensor, limits: Limits
) -> np.ndarray:
    """``concat(heads) @ W_O`` correctly rounded to float64 (``tensor`` is that product).

    The heads' outputs are certified Arb balls (:func:`enclose_problem`), gathered into the
    concatenated layout by ``source`` and multiplied by the exact ``W_O`` as an ``arb_mat``
    product, so every resulting ball contains the true entry. An entry is accepted when its
    ball excludes 0 and both ends round to one double. The others are refined (twice the
    digits each round); an entry still open after the first round whose exact value is
    rational (``tensor.rational``: zeros, ties) is rounded exactly.
    """
    right = tensor.right.as_ints
    wo_ints, den = right.ints, right.den
    out = np.zeros(tensor.shape)
    lead = tensor.shape[:-2]
    pending = list(np.ndindex(*lead))  # leading indices with open entries
    open_mask = np.ones(tensor.shape, dtype=bool)
    digits, first = 24, True
    while open_mask.any():
        prec = int(digits * 3.33) + 24 + 2 * max(source.shape[-1], 2).bit_length()
        if prec > limits.max_precision_bits:
            raise PrecisionError(f"multi-head output undecided at {limits.max_precision_bits} bits")
        heads = enclose_problem(p, digits, None, limits)
        cat = heads.reshape(-1)[source]
        with flint.ctx.workprec(prec + 64):
            wo = flint.arb_mat(
                [[arb_of_ratio(int(x), den) for x in row] for row in wo_ints.tolist()]
            )
            for b in pending:
                if not open_mask[b].any():
                    continue
                prod = flint.arb_mat(cat[b].tolist()) * wo
                for i, j in np.argwhere(open_mask[b]):
                    x = prod[int(i), int(j)]
                    if not x.is_finite() or x.contains(0):
                        continue
                    value = float_of(Ball.from_arb(x))
                    if value is not None:
                        out[b + (int(i), int(j))] = value
                        open_mask[b + (int(i), int(j))] = False
        if first:
            for idx in map(tuple, np.argwhere(open_mask)):
                q = tensor.rational(idx)
                if q is not None:
                    out[idx] = float(q)  # Fraction -> float rounds correctly
                    open_mask[idx] = False
            first = False
        digits *= 2
    out.flags.writeable = False
    return out
