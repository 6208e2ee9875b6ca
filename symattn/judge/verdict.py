"""Certified verdicts on rounded claims: is ``0.34`` a correct rounding of an exact value?

This is the shared core of ``symattn check`` (claims in a spec) and ``symattn audit``
(numbers in free text). Its API is stable:

``Quantity``
    A protocol: anything with an exact value. ``rational()`` returns the exact value when it
    is rational (else ``None``), ``arb(prec)`` a ``flint.arb`` ball containing it, computed
    at ``prec`` bits. Adapters: :class:`TensorEntry` (one entry of an
    :class:`~symattn.exact.ExactTensor`), :class:`Const` (a rational number) and
    :class:`Computed` (any ball-valued function of the precision, e.g. ``2.718 ** 0.092``).
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
    Finding code -> ``"error" | "warning" | "info"`` (from :data:`CODES`).
``rounding_interval(claim)``
    The closed interval ``[c - h, c + h]`` of values that round to the claim (``h`` half a
    unit in its last place): the "unrounding" of an author's intermediate number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Protocol, TypeVar, runtime_checkable

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError
from symattn.exact import Ball, Evaluator, ExactTensor, arb_of
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding, round_decimals, round_significant

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
    "claim_places",
    "consistent_with",
    "float32_repr",
    "judge",
    "MixedPrecision",
    "normalization_gap",
    "precision_mixed",
    "rounding_interval",
]

T = TypeVar("T")


@dataclass(frozen=True)
class Code:
    """A finding code: its stable slug, severity and one-line meaning (see DESIGN.md)."""

    code: str
    severity: str
    meaning: str


#: every finding code, most severe first
CODES: tuple[Code, ...] = (
    Code("wrong-value", "error", "no rounding explains the claim"),
    Code("truncated", "error", "the claim is the truncation, not the rounding, of the exact value"),
    Code("approximate-constant", "error", "the claim is what a rounded constant gives"),
    Code(
        "dk-mismatch",
        "error",
        "the divisor used is not sqrt(d_k) for the stated d_k or the width of K",
    ),
    Code("not-normalized", "error", "claimed weights do not sum to 1 within their rounding"),
    Code("conflicting-definition", "error", "one symbol is given two values"),
    Code("propagated-rounding", "warning", "right for the author's own rounded earlier numbers"),
    Code("precision-mixed", "warning", "values of one quantity written with different decimals"),
    Code(
        "float-representation",
        "info",
        "a long claim equal to the float32/float64 repr of the exact value",
    ),
    Code("missing-input", "info", "a claim cannot be checked because its inputs are not given"),
    Code(
        "undecided", "info", "certified refinement reached the precision ceiling without deciding"
    ),
)

SEVERITY: Mapping[str, str] = MappingProxyType({c.code: c.severity for c in CODES})

DEFAULT_ACCEPTED: frozenset[Rounding] = frozenset({Rounding.HALF_UP, Rounding.HALF_DOWN})

#: order in which modes are preferred when showing "the" correct rounding
_PREFERRED: tuple[Rounding, ...] = (
    Rounding.HALF_UP,
    Rounding.HALF_EVEN,
    Rounding.HALF_DOWN,
    Rounding.TRUNCATE,
)

#: claims with at least this many significant digits may be a printed float
_FLOAT_REPR_MIN_DIGITS = 8


# --------------------------------------------------------------------------- quantities


@runtime_checkable
class Quantity(Protocol):
    """Anything with an exact value."""

    def rational(self) -> Fraction | None:
        """The exact value when it is rational, else ``None``."""

    def arb(self, prec: int) -> flint.arb:
        """A ball containing the value, computed at working precision ``prec`` bits."""


@dataclass(frozen=True)
class TensorEntry:
    """One entry of an :class:`ExactTensor` as a :class:`Quantity`."""

    tensor: ExactTensor
    index: tuple[int, ...]

    def rational(self) -> Fraction | None:
        """The entry's rational value, if any."""
        return self.tensor.rational(self.index)

    def arb(self, prec: int) -> flint.arb:
        """A ball around the entry at ``prec`` bits."""
        return Evaluator(prec).arb(self.tensor)[self.index]


@dataclass(frozen=True)
class Const:
    """A rational number as a :class:`Quantity`."""

    value: Fraction

    def rational(self) -> Fraction:
        """The value itself."""
        return self.value

    def arb(self, prec: int) -> flint.arb:
        """The exact ball (zero radius when dyadic)."""
        with flint.ctx.workprec(prec):
            return arb_of(self.value)


@dataclass(frozen=True)
class Computed:
    """A :class:`Quantity` given by a ball-valued function of the precision.

    ``fn(prec)`` is called inside ``flint.ctx.workprec(prec)``; ``exact`` is the value when
    it is known to be rational.
    """

    fn: Callable[[], flint.arb] = field(compare=False)
    exact: Fraction | None = None

    def rational(self) -> Fraction | None:
        """The known rational value, if any."""
        return self.exact

    def arb(self, prec: int) -> flint.arb:
        """``fn()`` at ``prec`` bits."""
        with flint.ctx.workprec(prec):
            return self.fn()


# --------------------------------------------------------------------------- verdicts


@dataclass(frozen=True)
class Verdict:
    """The certified judgement of one claim against an exact value."""

    code: str | None  # None = consistent; else a finding code (SEVERITY)
    claimed: str  # as written
    exact: str  # the exact value to the claim's decimals + 3 more, correctly rounded
    expected: str | None  # the correct rounding at the claim's precision (None if consistent)
    tie: bool  # the exact value lies exactly on a rounding boundary
    reason: (
        str  # message key: consistent, tie, truncated, wrong-value, float-representation, undecided
    )
    details: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def severity(self) -> str | None:
        """The severity of ``code`` (None when consistent)."""
        return None if self.code is None else SEVERITY[self.code]


def claim_places(claim: Written) -> int | None:
    """Decimals the claim promises (negative for ``1.2e3``: hundreds); None for fractions."""
    h = claim.half_unit
    if h is None:
        return None
    unit = 2 * h
    if unit.denominator == 1:
        return -(len(str(unit.numerator)) - 1)
    return len(str(unit.denominator)) - 1


def rounding_interval(claim: Written) -> tuple[Fraction, Fraction]:
    """``[c - h, c + h]``: every value that rounds (half-up or half-down) to ``claim``."""
    h = claim.half_unit
    if h is None:
        return claim.value, claim.value
    return claim.value - h, claim.value + h


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
    is not a rounding and is not reported. Shared by ``check`` and ``audit``.
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
    Shared by ``check`` and ``audit``.
    """
    ws = list(weights)
    lo = sum((rounding_interval(w)[0] for w in ws), Fraction(0))
    hi = sum((rounding_interval(w)[1] for w in ws), Fraction(0))
    if lo <= 1 <= hi:
        return None
    return sum((w.value for w in ws), Fraction(0)), lo, hi


def _nearest_binary(x: Fraction, mant_bits: int, min_exp: int) -> Fraction:
    """``x`` rounded to the nearest binary float (``mant_bits`` bits, ties to even), exactly."""
    if x == 0:
        return Fraction(0)
    sign = -1 if x < 0 else 1
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    ulp_exp = max(e - mant_bits + 1, min_exp)
    scaled = a / Fraction(2) ** ulp_exp
    n = int(round_decimals(scaled, 0, Rounding.HALF_EVEN))
    return sign * Fraction(n) * Fraction(2) ** ulp_exp


def float32_repr(x: Fraction) -> str:
    """The shortest repr numpy prints for ``x`` correctly rounded to float32."""
    f = _nearest_binary(x, 24, -149)
    if abs(f) >= Fraction(2) ** 128:
        return "inf" if f > 0 else "-inf"
    return str(np.float32(float(f)))  # exact: a float32 value is exactly a float64


def _float64_repr(x: Fraction) -> str:
    """The shortest repr of ``x`` correctly rounded to float64 (Fraction -> float rounds correctly)."""
    return repr(float(x))


def _float_match(
    claim: Written, places: int, modes: Iterable[Rounding], lo: Fraction, hi: Fraction
) -> str | None | bool:
    """``"float64"``/``"float32"`` when the claim is how that float of every value in
    ``[lo, hi]`` prints (its shortest repr, or its binary value rounded to the claim's
    places, as numpy/torch print with fixed digits); None when it is not; False when
    undecided at this width."""
    if (
        claim.significant is None
        or claim.significant < _FLOAT_REPR_MIN_DIGITS
        or claim.kind == "fraction"
    ):
        return None
    for kind, bits, min_exp in (("float64", 53, -1074), ("float32", 24, -149)):
        f = _nearest_binary(lo, bits, min_exp)
        if _nearest_binary(hi, bits, min_exp) != f:
            return False
        shortest = _float64_repr(f) if kind == "float64" else float32_repr(f)
        if Fraction(shortest) == claim.value:
            return kind
        if any(round_decimals(f, places, m) == claim.value for m in modes):
            return kind
    return None


@dataclass(frozen=True)
class _Decision:
    rounded: Mapping[Rounding, Decimal]
    shown: Decimal
    float_kind: str | None
    tie: bool


def _decide(
    claim: Written, places: int, modes: Iterable[Rounding], accepted: frozenset[Rounding], b: Ball
) -> _Decision | None:
    """Round both ends of ``b``; decided when they agree for every mode that matters.

    Truncation only matters when no accepted mode gives the claim, so a value exactly on a
    truncation boundary (known only through balls) does not block a consistent verdict.
    """
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
        if got is None:
            return None
        rounded[Rounding.TRUNCATE] = got
    shown_places = max(places, 0) + 3
    shown = b.round_decimals(shown_places)
    if shown is None:
        return None
    fk = _float_match(claim, places, accepted, b.lower, b.upper)
    if fk is False:
        return None
    tie = (
        b.width == 0
        and (2 * b.lower * Fraction(10) ** places).denominator == 1
        and (b.lower * Fraction(10) ** places).denominator != 1
    )
    return _Decision(MappingProxyType(rounded), shown, fk if isinstance(fk, str) else None, tie)


def certify_value(
    value: Quantity,
    decide: Callable[[Ball], T | None],
    *,
    start_bits: int,
    limits: Limits = DEFAULT_LIMITS,
) -> T | None:
    """``decide`` on enclosures of ``value``, refined until it decides; None at the ceiling."""
    q = value.rational()
    if q is not None:
        return decide(Ball.exact(q))
    prec = max(start_bits, 16)
    while True:
        x = value.arb(prec)
        if x.is_finite():
            res = decide(Ball.from_arb(x))
            if res is not None:
                return res
        if prec >= limits.max_precision_bits:
            return None
        prec = min(2 * prec, limits.max_precision_bits)


def _fmt(d: Decimal) -> str:
    return format(d, "f")


def judge(
    claim: Written,
    value: Quantity,
    *,
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> Verdict:
    """Judge ``claim`` against the exact ``value`` (see the module docstring)."""
    if not accepted:
        raise InputError("judge: at least one accepted rounding mode is needed")
    places = claim_places(claim)
    if places is None:
        return _judge_exactly(claim, value, limits)
    modes = tuple(m for m in _PREFERRED if m in accepted or m is Rounding.TRUNCATE)
    start = int(max(places, 0) * 3.33) + 30 + (claim.significant or 0) * 4
    dec = certify_value(
        value, lambda b: _decide(claim, places, modes, accepted, b), start_bits=start, limits=limits
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
    shown = _fmt(dec.shown)
    ok = [m for m in modes if m in accepted and dec.rounded[m] == claim.value]
    preferred = next(m for m in modes if m in accepted)
    expected = _fmt(dec.rounded[preferred])
    if ok:
        details = {"modes": tuple(m.value for m in ok)}
        return Verdict(
            None,
            claim.text,
            shown,
            None,
            dec.tie,
            "tie" if dec.tie else "consistent",
            MappingProxyType(details),
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
        "distance": _fmt(round_significant(distance, 2)) if distance else "0",
        "mode": preferred.value,
    }
    if dec.rounded.get(Rounding.TRUNCATE) == claim.value:
        return Verdict(
            "truncated",
            claim.text,
            shown,
            expected,
            dec.tie,
            "truncated",
            MappingProxyType(details),
        )
    return Verdict(
        "wrong-value",
        claim.text,
        shown,
        expected,
        dec.tie,
        "wrong-value",
        MappingProxyType(details),
    )


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
        return b.round_significant(12)

    shown = certify_value(value, decide, start_bits=64, limits=limits)
    text = "?" if shown is None else _fmt(shown)
    # an irrational value never equals a fraction
    return Verdict(
        "wrong-value", claim.text, text, text, False, "wrong-value", MappingProxyType({})
    )


def consistent_with(
    claim: Written,
    value: Quantity,
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> bool:
    """True only when it is proved that ``claim`` is a correct rounding (or float repr) of ``value``."""
    return judge(claim, value, accepted=accepted, limits=limits).code in (
        None,
        "float-representation",
    )
