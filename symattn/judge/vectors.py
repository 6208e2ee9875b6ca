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
from symattn.numbers.written import PLAIN_KINDS, WrittenKind


@dataclass(frozen=True)
class MixedPrecision:
    """One claim of a vector written with fewer/more decimals than the others."""

    index: int
    decimals: int
    common: int


def precision_mixed(
    claims: Iterable[Written | None], exact_of: Callable[[int], Fraction | None] | None = None
) -> list[MixedPrecision]:
    """``precision-mixed``: the claims of one quantity written with fewer decimals than the
    others (``0.34`` among ``0.331, 0.329``).

    A claim that is the exact value (``0.22`` next to ``-0.175`` when the value is exactly 0.22)
    is not a rounding and is not reported. An integer takes part (as 0 decimals) only when
    ``exact_of`` shows it is a rounding (``0`` beside ``0.5, 0.5`` for a weight of 0.0634);
    without ``exact_of`` an integer has no decimals to mix.
    """

    def exact(j: int, w: Written) -> bool:
        return exact_of is not None and exact_of(j) == w.value

    ws = [
        (j, w)
        for j, w in enumerate(claims)
        if w is not None
        and w.decimals is not None
        and (
            (w.kind is WrittenKind.DECIMAL and w.decimals > 0)
            or (w.kind in PLAIN_KINDS and exact_of is not None and not exact(j, w))
        )
    ]
    places = {w.decimals or 0 for _, w in ws}
    if len(ws) < 2 or len(places) < 2:
        return []
    most = max(places)
    return [
        MixedPrecision(j, w.decimals or 0, most)
        for j, w in ws
        if (w.decimals or 0) < most and not exact(j, w)
    ]


def normalization_gap(
    weights: Iterable[Written], slack: Callable[[Written], Fraction] | None = None
) -> tuple[Fraction, Fraction, Fraction] | None:
    """``not-normalized``: (sum, low, high) when the claimed weights cannot sum to 1.

    ``[low, high]`` is the sum of the claims' rounding intervals, each widened by
    ``slack(claim)`` (a float program's error bound: its weights need not sum to 1 exactly);
    None when it contains 1.
    """
    ws = list(weights)
    pad = [slack(w) if slack is not None else Fraction(0) for w in ws]
    lo = sum((rounding_interval(w)[0] - p for w, p in zip(ws, pad, strict=True)), Fraction(0))
    hi = sum((rounding_interval(w)[1] + p for w, p in zip(ws, pad, strict=True)), Fraction(0))
    if lo <= 1 <= hi:
        return None
    return sum((w.value for w in ws), Fraction(0)), lo, hi
