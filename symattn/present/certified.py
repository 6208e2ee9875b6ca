"""Certified numbers for documents: roundings and signs decided from exact values.

:class:`Numbers` rounds the entries of a result's stages (each rounding decided from a
certified enclosure, never from another rounded number) and records every number a document
shows as a :class:`~symattn.present.model.Shown`, so tests can check each one. It also builds
the right-hand sides of an entry's chain in the one order that never states a false
equality: exact forms first (``=``), then roundings (``\\approx``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction

import numpy as np

from symattn.config import Limits
from symattn.engine.result import AttentionResult
from symattn.exact import Ball, ExactTensor
from symattn.exact.ball import Places, Significant
from symattn.exact.display import SMALL, decide_entries
from symattn.numbers.rounding import Rounding, round_decimals
from symattn.present.layout import LINE_EM, Side, side
from symattn.present.mathwidth import width
from symattn.present.model import DocOptions, Shown
from symattn.present.numbers import fixed, is_short_decimal, is_short_rational, rational_latex

#: rounding used for every displayed approximate number (named in every document)
ROUNDING = Rounding.HALF_EVEN
#: a stage with at most this many entries is rounded whole at once; larger ones entry by entry
ROUND_WHOLE = 4096
#: a rounded number this large is written in scientific notation
LARGE = Decimal(10) ** 12


def certified_round(
    t: ExactTensor,
    requests: Sequence[tuple[tuple[int, ...], Fraction]],
    decimals: int,
    limits: Limits,
    floats: np.ndarray | None = None,
    rational: Callable[[tuple[int, ...]], Fraction | None] | None = None,
) -> list[Decimal]:
    """Correct roundings of ``factor * t[index]`` for each request, decided from enclosures
    (all at once; see :func:`symattn.exact.display.decide_entries`)."""

    zero = round_decimals(Fraction(0), decimals, ROUNDING)
    below = -(decimals * 10 // 3) - 2  # |x| < 2**below rounds to 0 at ``decimals`` places

    def decide_for(factor: Fraction) -> Callable[[Ball], Decimal | None]:
        factor_bits = (abs(factor.numerator) // factor.denominator + 1).bit_length()

        def decide(ball: Ball) -> Decimal | None:
            if factor == 0 or ball.upper_bits + factor_bits < below:  # tiny: no bounds built
                return zero
            lo, hi = sorted((ball.lower * factor, ball.upper * factor))
            return Ball(lo, hi).round_decimals(decimals, ROUNDING)

        return decide

    return decide_entries(
        t,
        [idx for idx, _ in requests],
        [decide_for(factor) for _, factor in requests],
        start_bits=int(decimals * 3.33) + 64,
        limits=limits,
        floats=floats,
        rational=rational,
    )


def certified_signs(
    t: ExactTensor,
    requests: Sequence[tuple[tuple[int, ...], Fraction]],
    limits: Limits,
    floats: np.ndarray | None = None,
) -> list[int]:
    """The sign of ``t[idx] - x`` for each ``(idx, x)``, decided exactly or from enclosures
    (all at once)."""

    def decide_for(x: Fraction) -> Callable[[Ball], int | None]:
        def decide(ball: Ball) -> int | None:
            if ball.lower == ball.upper:  # an exact entry
                return (ball.lower > x) - (ball.lower < x)
            # an irrational entry differs from every rational x
            return 1 if ball.lower > x else -1 if ball.upper < x else None

        return decide

    found = decide_entries(
        t,
        [idx for idx, _ in requests],
        [decide_for(x) for _, x in requests],
        limits=limits,
        floats=floats,
    )
    return [int(v) for v in found]


def certified_sign(t: ExactTensor, idx: tuple[int, ...], x: Fraction, limits: Limits) -> int:
    """The sign of ``t[idx] - x``, decided exactly or from enclosures."""
    return certified_signs(t, [(idx, x)], limits)[0]


class Numbers:
    """Rounds entries of the result's stages and records every number shown."""

    def __init__(self, result: AttentionResult, options: DocOptions) -> None:
        self.result = result
        self.decimals = options.digits
        self.exact = options.exact
        self.limits = options.limits
        self.shown: list[Shown] = []
        self._whole: dict[str, object] = {}
        self._entries: dict[tuple[str, tuple[int, ...]], Decimal] = {}
        self._rows: dict[tuple[str, tuple[int, ...]], Fraction | None] = {}
        self._floats: dict[str, np.ndarray] = {}
        self.scientific = False  # whether some number was written as m x 10^e

    def tensor(self, stage: str) -> ExactTensor:
        """The stage called ``stage`` (``masked_scores``: the scaled scores when unmasked)."""
        if stage == "masked_scores":
            return self.result.masked_scores
        return self.result.stage(stage)

    def _round(self, stage: str, idx: tuple[int, ...]) -> Decimal:
        key = (stage, idx)
        hit = self._entries.get(key)
        if hit is not None:
            return hit
        t = self.tensor(stage)
        small = _size(self.result.weights.shape) <= ROUND_WHOLE
        if stage not in self._whole and len(t.shape) and small and _size(t.shape) <= ROUND_WHOLE:
            self._whole[stage] = t.round(self.decimals, mode=ROUNDING, limits=self.limits)
        whole = self._whole.get(stage)
        if whole is not None:
            value: Decimal = whole[idx]  # type: ignore[index]
        else:
            value = self.prefetch(stage, [idx])[0]
        self._entries[key] = value
        return value

    def prefetch(self, stage: str, indices: list[tuple[int, ...]]) -> list[Decimal]:
        """Round the entries at ``indices`` of a large stage together (cached)."""
        todo = [idx for idx in indices if (stage, idx) not in self._entries]
        decide = Places(self.decimals, ROUNDING)

        if not todo:
            return [self._entries[(stage, idx)] for idx in indices]
        t = self.tensor(stage)
        floats = self.floats_of(stage, len(todo))
        values = decide_entries(
            t,
            todo,
            decide,
            start_bits=int(self.decimals * 3.33) + 64,
            limits=self.limits,
            floats=floats,
            rational=lambda idx: self.rational(stage, idx),
        )
        for idx, v in zip(todo, values, strict=True):
            self._entries[(stage, idx)] = v
        return [self._entries[(stage, idx)] for idx in indices]

    def rounded(self, stage: str, idx: tuple[int, ...]) -> str:
        """The rounded text of ``stage[idx]`` (certified), recorded as shown.

        A number of :data:`LARGE` or more is written ``m \\times 10^{e}`` with one more
        significant digit than the decimals asked for (``e^{927}``: 403 digits otherwise).
        """
        value = self._round(stage, idx)
        if abs(value) >= LARGE:
            self.scientific = True
            decide = Significant(self.decimals + 1, ROUNDING)
            (sig,) = decide_entries(self.tensor(stage), [idx], decide, limits=self.limits)
            exponent = sig.adjusted()
            mantissa = fixed(sig.scaleb(-exponent), self.decimals)
            text = f"{mantissa} \\times 10^{{{exponent}}}"
        else:
            text = fixed(value, self.decimals)
        self.shown.append(Shown(stage, idx, Fraction(1), self.decimals, text))
        return text

    def products(
        self, stage: str, requests: Sequence[tuple[tuple[int, ...], Fraction]]
    ) -> list[str]:
        """Rounded ``factor * stage[idx]`` for each request (all at once)."""
        values = certified_round(
            self.tensor(stage),
            requests,
            self.decimals,
            self.limits,
            self.floats_of(stage, len({idx for idx, _ in requests})),
            lambda idx: self.rational(stage, idx),
        )
        out = []
        for (idx, factor), v in zip(requests, values, strict=True):
            text = fixed(v, self.decimals)
            self.shown.append(Shown(stage, idx, factor, self.decimals, text))
            out.append(text)
        return out

    def rational(self, stage: str, idx: tuple[int, ...]) -> Fraction | None:
        """The entry's value when it is rational (a weight's row is decided once)."""
        t = self.tensor(stage)
        row_of = getattr(t, "rational_row", None)
        if row_of is None or t.is_neg_inf(idx):
            return t.rational(idx)
        logits = getattr(t, "logits", None)
        if logits is not None and logits.masked[idx]:
            return Fraction(0)
        key = (stage, idx[:-1])
        if key not in self._rows:
            self._rows[key] = row_of(idx[:-1])
        return self._rows[key]

    def floats_of(self, stage: str, wanted: int) -> np.ndarray | None:
        """The stage in float64 (cached) when ``wanted`` entries are few of a large stage."""
        t = self.tensor(stage)
        size = _size(t.shape)
        if size <= SMALL or 4 * wanted >= size:
            return None
        floats = self._floats.get(stage)
        if floats is None:
            floats = self._floats[stage] = t.to_numpy(limits=self.limits)
        return floats

    def exact_decimal(self, stage: str, idx: tuple[int, ...]) -> str | None:
        """The entry as a short exact decimal (``5``, ``0.25``), else ``None``."""
        q = self.rational(stage, idx)
        return rational_latex(q) if q is not None and is_short_decimal(q) else None

    def plain(self, stage: str, idx: tuple[int, ...]) -> str:
        """The number alone: exact when it is a short decimal, else its rounding."""
        exact = self.exact_decimal(stage, idx)
        return exact if exact is not None else self.rounded(stage, idx)

    def fixed_cell(self, stage: str, idx: tuple[int, ...]) -> str:
        """A matrix cell of an approximate matrix: the rounding, with every decimal place."""
        return self.rounded(stage, idx)

    def sides(
        self,
        stage: str,
        idx: tuple[int, ...],
        *,
        exact: Sequence[Side] = (),
        rounded: Sequence[Side] = (),
    ) -> list[Side]:
        """The right-hand sides for ``stage[idx]``, exact before approximate.

        ``exact`` are exact forms of the entry (relation ``=``; one whose longest term is
        wider than most of a line is left out); ``rounded`` are intermediate expressions of
        rounded numbers (relation ``\\approx``), shown only when the value itself is not
        exact. The chain ends in the value: ``= 5`` when it is a short exact decimal, else
        ``\\approx 0.0934``.
        """
        out = [e for e in exact if max(width(t) for t in e.terms) <= LINE_EM * 0.8]
        q = self.rational(stage, idx)
        if q is not None and is_short_decimal(q):
            out.append(side("=", rational_latex(q)))
            return out
        if q is not None and is_short_rational(q) and not out:
            out.append(side("=", rational_latex(q)))
        out.extend(rounded)
        out.append(side(r"\approx", self.rounded(stage, idx)))
        return out


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n
