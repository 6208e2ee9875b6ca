"""Whether scores written after Q and K are theirs: a number test, exact.

A text may give Q, K and V, work them through, and then set a new exercise from given scores
(``Suppose the unnormalized scores … are [2.0, 5.0, 1.0]``). Those scores are not the dot
products of the Q and K written before them, and the claims after them are not of those
inputs. Numbers, not words, tell it: scores are *foreign* to Q and K when, under every frame
(unscaled, divided by √d_k, divided by d_k) and at every query row, fewer than half of their
entries are the entry at the same place of Q Kᵀ within one unit of their last written digit
(an author's slip changes one entry, not most of a row). Every comparison is exact (a
scaled entry ``x/√d`` against a decimal is decided by squaring, signs first).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from symattn.read.observations import Spot

__all__ = ["foreign", "within"]

#: an array with fewer entries says too little to be told from a slip
MIN_ENTRIES = 3


def _ge(x: Fraction, c: Fraction, d: int) -> bool:
    """``x ≥ c·√d`` exactly (``d > 0``)."""
    if c <= 0:
        return x >= 0 or x * x <= c * c * d
    return x > 0 and x * x >= c * c * d


def within(x: Fraction, d: int, lo: Fraction, hi: Fraction) -> bool:
    """``lo ≤ x/√d ≤ hi`` exactly (``d > 0``)."""
    return _ge(x, lo, d) and _ge(-x, -hi, d)


def _rows(spots: Sequence[Spot], width: int) -> list[list[Fraction]]:
    vals = [s.written.value for s in spots]
    return [vals[i : i + width] for i in range(0, len(vals), width)] if width else []


def foreign(
    scores: Sequence[Spot],
    width: int,
    q: Sequence[Spot],
    q_width: int,
    k: Sequence[Spot],
    k_width: int,
) -> bool:
    """Whether the scores (``width`` entries a row) are not the dot products of ``q`` and
    ``k`` (rows of ``q_width`` and ``k_width`` entries) under any frame (see the module)."""
    if len(scores) < MIN_ENTRIES or not width or len(scores) % width or q_width != k_width:
        return False
    qs, ks = _rows(q, q_width), _rows(k, k_width)
    if not q_width or len(ks) != width or any(len(r) != q_width for r in (*qs, *ks)):
        return False
    dots = [
        [sum((a * b for a, b in zip(qr, kr, strict=True)), Fraction(0)) for kr in ks] for qr in qs
    ]
    mine = [list(scores[i : i + width]) for i in range(0, len(scores), width)]
    if len(mine) not in (1, len(dots)):
        return False
    d = k_width
    for divisor in (1, d, d * d):  # (x/√1, x/√d, x/√(d²) = x/d)
        for r, row in enumerate(mine):
            candidates = dots if len(mine) == 1 else [dots[r]]
            for dot in candidates:
                hits = 0
                for s, x in zip(row, dot, strict=True):
                    w = s.written
                    unit = Fraction(1, 10**w.decimals) if w.decimals else Fraction(0)
                    if within(x, divisor, w.value - unit, w.value + unit):
                        hits += 1
                if 2 * hits >= len(row):
                    return False
    return True
