"""Certified verdicts on rounded claims: is ``0.34`` a correct rounding of an exact value?

This is the shared core of ``symattn check`` (claims in a spec) and ``symattn audit``
(numbers in free text). Its API is stable (the names below are importable from here):

``Quantity``
    A protocol: anything with an exact value (:mod:`symattn.judge.quantities`). Adapters:
    :class:`TensorEntry` (one entry of an :class:`~symattn.exact.ExactTensor`), :class:`Const`
    (a rational number) and :class:`Computed` (any ball-valued function of the precision,
    e.g. ``2.718 ** 0.092``).
``judge(claim, value, *, accepted=HALF_UP|HALF_DOWN, limits=DEFAULT_LIMITS) -> Verdict``
    A claim written with ``d`` decimals (``claim.decimals``; scientific claims use the place
    of their last written digit) is consistent iff the exact value rounds to it under one of
    the ``accepted`` modes. Rational values are decided exactly; others with Arb balls,
    starting at about ``3.33*d + 30`` bits and doubling up to ``limits.max_precision_bits``.
    Fractions (``"3/4"``) promise the exact value. Codes: ``None`` (consistent),
    ``"truncated"`` (the claim is the truncation toward zero, not an accepted rounding),
    ``"wrong-value"``, ``"float-representation"`` (info: a long claim equal to the float64 or
    float32 repr of the exact value), ``"undecided"`` (info: the precision ceiling was hit).
``consistent_with(claim, value, ...) -> bool``
    True only when consistency is proved (code ``None`` or ``"float-representation"``).
``SEVERITY``
    Finding code -> ``"error" | "warning" | "info"`` (from :data:`CODES`,
    :mod:`symattn.judge.codes`).
``rounding_interval(claim)``
    The closed interval ``[c - h, c + h]`` of values that round to the claim (``h`` half a
    unit in its last place): the "unrounding" of an author's intermediate number
    (:mod:`symattn.judge.intervals`).
``precision_mixed``, ``normalization_gap``
    Checks on the claims of one quantity (:mod:`symattn.judge.vectors`).
``float32_repr``
    How numpy prints a value's float32 (:mod:`symattn.judge.floats`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

import flint

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError
from symattn.exact import Ball, arb_of
from symattn.judge.codes import CODES, SEVERITY, Code
from symattn.judge.floats import FloatKind, float32_repr, float_match
from symattn.judge.formatting import decimal_text
from symattn.judge.intervals import claim_places, rounding_interval
from symattn.judge.quantities import (
    Computed,
    Const,
    Quantity,
    TensorEntry,
    certified_decimals,
    certify_value,
)
from symattn.judge.vectors import MixedPrecision, normalization_gap, precision_mixed
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding, round_significant

__all__ = [
    "CODES",
    "Code",
    "Computed",
    "Const",
    "DEFAULT_ACCEPTED",
    "Quantity",
    "SEVERITY",
    "TensorEntry",
    "Verdict",
    "certified_decimals",
    "certify_value",
    "claim_places",
    "consistent_with",
    "float32_repr",
    "judge",
    "MixedPrecision",
    "normalization_gap",
    "precision_mixed",
    "rounding_interval",
]

DEFAULT_ACCEPTED: frozenset[Rounding] = frozenset({Rounding.HALF_UP, Rounding.HALF_DOWN})

#: order in which modes are preferred when showing "the" correct rounding
_PREFERRED: tuple[Rounding, ...] = (
    Rounding.HALF_UP,
    Rounding.HALF_EVEN,
    Rounding.HALF_DOWN,
    Rounding.TRUNCATE,
)

#: bits per decimal digit, rounded up (a value below 2**(-k * this) is below 10**-k)
_LOG2_10 = 4
#: significant digits of an irrational value shown against a fraction claim
_FRACTION_CLAIM_DIGITS = 12


@dataclass(frozen=True)
class Verdict:
    """The certified judgement of one claim against an exact value."""

    code: str | None  # None = consistent; else a finding code (SEVERITY)
    claimed: str  # as written
    exact: str  # the exact value to the claim's decimals + 3 more, correctly rounded
    expected: str | None  # the correct rounding at the claim's precision (None if consistent)
    tie: bool  # the exact value lies exactly on a rounding boundary
    #: consistent, tie, truncated, wrong-value, float-representation or undecided
    reason: str
    details: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def severity(self) -> str | None:
        """The severity of ``code`` (None when consistent)."""
        return None if self.code is None else SEVERITY[self.code]


@dataclass(frozen=True)
class _Decision:
    """What every point of an enclosure rounds to, for each mode that matters."""

    rounded: Mapping[Rounding, Decimal]
    shown: Decimal
    float_kind: FloatKind | None
    tie: bool


def _decide(
    claim: Written,
    places: int,
    modes: Collection[Rounding],
    accepted: frozenset[Rounding],
    b: Ball,
    floats: bool = True,
) -> _Decision | None:
    """Round both ends of ``b``; decided when they agree for every mode that matters.

    Truncation only matters when no accepted mode gives the claim, so a value exactly on a
    truncation boundary (known only through balls) does not block a consistent verdict.
    A value too small to show at the claim's places plus three (a weight like ``e^-10^9``)
    rounds to 0 without its exact bounds ever being written out.
    """
    if b.upper_bits < -(max(places, 0) + 4) * _LOG2_10:
        zero = Decimal(0).scaleb(-max(places, 0))
        return _Decision(
            MappingProxyType({m: zero for m in modes}),
            Decimal(0).scaleb(-(max(places, 0) + 3)),
            None,
            False,
        )
    rounded: dict[Rounding, Decimal] = {}
    for m in modes:
        if m not in accepted:
            continue
        got = b.round_decimals(places, m)
        if got is None:
            return None
        rounded[m] = got
    if not any(r == claim.value for r in rounded.values()) and Rounding.TRUNCATE not in rounded:
        got = b.round_decimals(places, Rounding.TRUNCATE)
        if got is not None:
            rounded[Rounding.TRUNCATE] = got
        elif _truncation_could_be(claim.value, b, places):
            return None
        # (else on a truncation boundary, but no side of it is the claim: not truncated)
    shown_places = max(places, 0) + 3
    shown = b.round_decimals(shown_places)
    if shown is None:
        return None
    fk = float_match(claim, places, accepted, b.lower, b.upper) if floats else None
    if fk is False:
        return None
    tie = (
        b.width == 0
        and (2 * b.lower * Fraction(10) ** places).denominator == 1
        and (b.lower * Fraction(10) ** places).denominator != 1
    )
    return _Decision(MappingProxyType(rounded), shown, fk, tie)


def _truncation_could_be(claimed: Fraction, b: Ball, places: int) -> bool:
    """Whether truncating some value of ``b`` to ``places`` decimals gives ``claimed``: it
    lies between the truncations of the ball's ends (truncation is monotone)."""
    scale = Fraction(10) ** places

    def cut(x: Fraction) -> Fraction:
        t = Fraction(int(x * scale))  # (toward zero)
        return t / scale

    return cut(b.lower) <= claimed <= cut(b.upper)


def judge(
    claim: Written,
    value: Quantity,
    *,
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
    floats: bool = True,
) -> Verdict:
    """Judge ``claim`` against the exact ``value`` (see the module docstring); ``floats``
    False when the numbers are known not to be float printouts (``precision = "exact"``)."""
    if not accepted:
        raise InputError("judge: at least one accepted rounding mode is needed")
    places = claim_places(claim)
    if places is None:
        return _judge_exactly(claim, value, limits)
    modes = tuple(m for m in _PREFERRED if m in accepted or m is Rounding.TRUNCATE)
    start = int(max(places, 0) * 3.33) + 30 + (claim.significant or 0) * 4
    dec = certify_value(
        value,
        lambda b: _decide(claim, places, modes, accepted, b, floats),
        start_bits=start,
        limits=limits,
    )
    if dec is None:
        return Verdict(
            "undecided",
            claim.text,
            "?",
            None,
            False,
            "undecided",
            MappingProxyType({"max_precision_bits": limits.max_precision_bits}),
        )
    shown = decimal_text(dec.shown)
    ok = [m for m in modes if m in accepted and dec.rounded[m] == claim.value]
    preferred = next(m for m in modes if m in accepted)
    expected = _as_written(claim, dec.rounded[preferred])
    if ok:
        return Verdict(
            None,
            claim.text,
            shown,
            None,
            dec.tie,
            "tie" if dec.tie else "consistent",
            MappingProxyType({"modes": tuple(m.value for m in ok)}),
        )
    if dec.float_kind is not None:
        return Verdict(
            "float-representation",
            claim.text,
            shown,
            None,
            False,
            "float-representation",
            MappingProxyType({"float": dec.float_kind}),
        )
    distance = abs(claim.value - Fraction(dec.shown))
    details = {
        "distance": _as_written(claim, round_significant(distance, 2)) if distance else "0",
        "mode": preferred.value,
    }
    code = "truncated" if dec.rounded.get(Rounding.TRUNCATE) == claim.value else "wrong-value"
    return Verdict(code, claim.text, shown, expected, dec.tie, code, MappingProxyType(details))


def _as_written(claim: Written, d: Decimal) -> str:
    """``d`` in the claim's own units: a percentage for a claim written ``97.3%``."""
    if claim.text.rstrip().endswith(("%", "％")):
        return decimal_text(d.scaleb(2)) + "%"
    return decimal_text(d)


def _judge_exactly(claim: Written, value: Quantity, limits: Limits) -> Verdict:
    """A fraction claim promises the exact value."""
    q = value.rational()
    if q is not None:
        if q == claim.value:
            return Verdict(None, claim.text, str(q), None, False, "consistent")
        dist = abs(q - claim.value)
        return Verdict(
            "wrong-value",
            claim.text,
            str(q),
            str(q),
            False,
            "wrong-value",
            MappingProxyType({"distance": str(dist)}),
        )

    def decide(b: Ball) -> Decimal | None:
        return b.round_significant(_FRACTION_CLAIM_DIGITS)

    shown = certify_value(value, decide, start_bits=64, limits=limits)
    text = "?" if shown is None else decimal_text(shown)
    if _may_equal(claim.value, value, limits):
        # (a value not written as a fraction may still be one: e^{1/3} / (3 e^{1/3}) is 1/3;
        # no precision tells it from the claim, so nothing is proved either way)
        return Verdict(
            "undecided",
            claim.text,
            text,
            None,
            False,
            "undecided",
            MappingProxyType({"max_precision_bits": limits.max_precision_bits}),
        )
    return Verdict(
        "wrong-value", claim.text, text, text, False, "wrong-value", MappingProxyType({})
    )


def _may_equal(q: Fraction, value: Quantity, limits: Limits) -> bool:
    """Whether ``value`` (no rational in its form) lies within its enclosure of ``q`` at every
    precision up to the ceiling: then it may be ``q`` exactly."""
    bits = 64
    while True:
        try:
            with flint.ctx.workprec(bits):
                target = arb_of(q)
            if not value.arb(bits).overlaps(target):
                return False
        except (ValueError, ZeroDivisionError, OverflowError):
            return False
        if bits >= limits.max_precision_bits:
            return True
        bits = min(4 * bits, limits.max_precision_bits)


def consistent_with(
    claim: Written,
    value: Quantity,
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> bool:
    """True only when it is proved that ``claim`` is a correct rounding (or float repr) of
    ``value``."""
    return judge(claim, value, accepted=accepted, limits=limits).code in (
        None,
        "float-representation",
    )
