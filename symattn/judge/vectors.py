"""Checks on the claims of one quantity together: mixed precision, weights that cannot sum to 1.

Shared by ``check`` (a spec's rows) and ``audit`` (vectors in a text); they need only the
claims, never the exact values (but for the exact values a mixed claim may be).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from symattn.judge.intervals import rounding_interval
from symattn.numbers import Written


@dataclass(frozen=True)
class MixedPrecision:
    """One claim of a vector written with fewer/more decimals than the others."""

    index: int
    decimals: int
    common: int


def precision_mixed(
    claims: Iterable[Written | None], exact_of: Callable[[int], Fraction | None] | None = None
) -> list[MixedPrecision]:
    """``precision-mixed``: the claims of one quantity not written with the most common decimals.

    A claim that is the exact value (``0.22`` next to ``-0.175`` when the value is exactly 0.22)
    is not a rounding and is not reported.
    """
    ws = [
        (j, w) for j, w in enumerate(claims) if w is not None and w.kind == "decimal" and w.decimals
    ]
    counts: dict[int, int] = {}
    for _, w in ws:
        counts[w.decimals or 0] = counts.get(w.decimals or 0, 0) + 1
    if len(ws) < 2 or len(counts) < 2:
        return []
    common = max(counts, key=lambda d: (counts[d], d))
    return [
        MixedPrecision(j, w.decimals or 0, common)
        for j, w in ws
        if w.decimals != common and not (exact_of is not None and exact_of(j) == w.value)
    ]


def normalization_gap(weights: Iterable[Written]) -> tuple[Fraction, Fraction, Fraction] | None:
    """``not-normalized``: (sum, low, high) when the claimed weights cannot sum to 1.

    ``[low, high]`` is the sum of the claims' rounding intervals; None when it contains 1.
    """
    ws = list(weights)
    lo = sum((rounding_interval(w)[0] for w in ws), Fraction(0))
    hi = sum((rounding_interval(w)[1] for w in ws), Fraction(0))
    if lo <= 1 <= hi:
        return None
    return sum((w.value for w in ws), Fraction(0)), lo, hi
