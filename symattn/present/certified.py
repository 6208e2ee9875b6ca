"""Certified numbers for documents: roundings and signs decided from exact values.

:class:`Numbers` rounds the entries of a result's stages (each rounding decided from a
certified enclosure, never from another rounded number) and records every number a document
shows as a :class:`~symattn.present.model.Shown`, so tests can check each one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction

import numpy as np

from symattn.config import Limits
from symattn.engine.result import AttentionResult
from symattn.exact import Ball, ExactTensor, LinearSurdTensor, SurdTensor
from symattn.numbers.rounding import Rounding
from symattn.present.model import DocOptions, Shown
from symattn.present.numbers import fixed, is_short_decimal, is_short_rational, rational_latex

#: rounding used for every displayed approximate number
ROUNDING = Rounding.HALF_EVEN

#: a stage whose entries are surds ``p + q sqrt(r)`` (scaled and masked scores, sqrt(d_k))
SurdStage = SurdTensor | LinearSurdTensor


def surds(t: ExactTensor) -> SurdStage:
    """``t`` as a stage of surds; an error for any other stage."""
    if not isinstance(t, (SurdTensor, LinearSurdTensor)):
        raise TypeError(f"expected a stage of surds, got {type(t).__name__}")
    return t


def rationals(t: ExactTensor) -> np.ndarray:
    """The exact entries of a rational stage (inputs, projections, scores) as ``Fraction``."""
    return t.exact()


def certified_round(
    t: ExactTensor,
    requests: Sequence[tuple[tuple[int, ...], Fraction]],
    decimals: int,
    limits: Limits,
) -> list[Decimal]:
    """Correct roundings of ``factor * t[index]`` for each request, decided from enclosures."""

    def decide_for(factor: Fraction) -> Callable[[Ball], Decimal | None]:
        def decide(ball: Ball) -> Decimal | None:
            lo, hi = sorted((ball.lower * factor, ball.upper * factor))
            return Ball(lo, hi).round_decimals(decimals, ROUNDING)

        return decide

    return t.certify_entries(
        [idx for idx, _ in requests],
        [decide_for(factor) for _, factor in requests],
        start_bits=int(decimals * 3.33) + 64,
        limits=limits,
    )


def certified_sign(t: ExactTensor, idx: tuple[int, ...], x: Fraction, limits: Limits) -> int:
    """The sign of ``t[idx] - x``, decided exactly or from enclosures."""
    q = t.rational(idx)
    if q is not None:
        return (q > x) - (q < x)

    def decide(ball: Ball) -> int | None:  # an irrational entry differs from every rational x
        return 1 if ball.lower > x else -1 if ball.upper < x else None

    return int(t.certify_entries([idx], [decide], limits=limits)[0])


def surd_sign(a: Fraction, b: Fraction, r: int) -> int:
    """The sign of ``a + b*sqrt(r)``, exactly."""
    if b == 0 or r == 1:
        v = a + b if r == 1 else a
        return (v > 0) - (v < 0)
    if a == 0:
        return (b > 0) - (b < 0)
    if (a > 0) == (b > 0):
        return 1 if a > 0 else -1
    # opposite signs: compare a^2 with b^2 r
    big = a * a - b * b * r
    return (1 if a > 0 else -1) * ((big > 0) - (big < 0))


class Numbers:
    """Rounds entries of the result's stages and records every number shown."""

    def __init__(self, result: AttentionResult, options: DocOptions) -> None:
        self.result = result
        self.decimals = options.digits
        self.exact = options.exact
        self.limits = options.limits
        self.shown: list[Shown] = []
        self._rounded: dict[str, np.ndarray] = {}

    def tensor(self, stage: str) -> ExactTensor:
        """The stage called ``stage`` (``masked_scores``: the scaled scores when unmasked)."""
        if stage == "masked_scores":
            return self.result.masked_scores
        return self.result.stage(stage)

    def rounded(self, stage: str, idx: tuple[int, ...]) -> str:
        """The rounded text of ``stage[idx]`` (whole stage rounded once, certified)."""
        arr = self._rounded.get(stage)
        if arr is None:
            arr = self.tensor(stage).round(self.decimals, mode=ROUNDING, limits=self.limits)
            self._rounded[stage] = arr
        text = fixed(arr[idx], self.decimals)
        self.shown.append(Shown(stage, idx, Fraction(1), self.decimals, text))
        return text

    def products(
        self, stage: str, requests: Sequence[tuple[tuple[int, ...], Fraction]]
    ) -> list[str]:
        """Rounded ``factor * stage[idx]`` for each request."""
        values = certified_round(self.tensor(stage), requests, self.decimals, self.limits)
        out = []
        for (idx, factor), v in zip(requests, values, strict=True):
            text = fixed(v, self.decimals)
            self.shown.append(Shown(stage, idx, factor, self.decimals, text))
            out.append(text)
        return out

    def value(self, stage: str, idx: tuple[int, ...], short: str | None = None) -> str:
        """The right-hand side for ``stage[idx]``.

        ``= 5`` (a short exact decimal), ``= \\sqrt{2} \\approx 1.4142`` (a short exact form,
        given or found), or ``\\approx 0.09``.
        """
        t = self.tensor(stage)
        q = t.rational(idx)
        if q is not None and is_short_decimal(q):
            return f"= {rational_latex(q)}"
        if short is None and q is not None and is_short_rational(q):
            short = rational_latex(q)
        if short is None and self.exact:
            import sympy  # lazy: only documents with exact symbolic values need it

            short = sympy.latex(t.sympy(idx))
        approx = self.rounded(stage, idx)
        return f"= {short} \\approx {approx}" if short else f"\\approx {approx}"

    def plain(self, stage: str, idx: tuple[int, ...]) -> str:
        """The number alone: exact when it is a short decimal, else its rounding."""
        q = self.tensor(stage).rational(idx)
        if q is not None and is_short_decimal(q):
            return rational_latex(q)
        return self.rounded(stage, idx)
