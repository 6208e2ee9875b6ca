"""Numbers as people write them: ``12``, ``-0.340``, ``1.2e-3``, ``3/4``, ``87.5%``
(fullwidth too).

:func:`parse_number` reads untrusted text with a small regular grammar (never
``eval``/``sympify``) and remembers how the number was written (:class:`Written`), because
a claim like ``0.34`` only promises two decimals. Minus infinity (``-inf``, ``−∞``), which
only an additive mask may hold, is recognised by :func:`is_neg_inf_text`.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import LimitError, NumberError
from symattn.numbers.format import plain

__all__ = [
    "NEG_INF",
    "NegInf",
    "Written",
    "PLAIN_KINDS",
    "ROUNDED_KINDS",
    "WrittenKind",
    "bits_of",
    "check_decimal",
    "decimal_written",
    "excerpt",
    "exponent_limit",
    "is_neg_inf_text",
    "literal_limit",
    "parse_number",
    "percent",
    "significant_digits",
]


class NegInf:
    """The "masked" entry of an additive mask (minus infinity); use the singleton ``NEG_INF``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "-inf"

    def __str__(self) -> str:
        return "-inf"

    def __reduce__(self) -> str:
        # pickle and copy hand back the module-level singleton
        return "NEG_INF"


NEG_INF: Final[NegInf] = NegInf()


class WrittenKind(StrEnum):
    """How a number was written."""

    INTEGER = "integer"  #: digits without a point (``3``, ``-12``)
    DECIMAL = "decimal"  #: digits with a point (``0.34``, ``2.``)
    SCIENTIFIC = "scientific"  #: with an exponent (``1.2e3``)
    FRACTION = "fraction"  #: a ratio (``1/3``)


#: the kinds written with digits after a point, or an exponent: a rounding to a place
ROUNDED_KINDS: Final = frozenset({WrittenKind.DECIMAL, WrittenKind.SCIENTIFIC})
#: the kinds written as plain digits, with or without a point (no exponent, no ratio)
PLAIN_KINDS: Final = frozenset({WrittenKind.INTEGER, WrittenKind.DECIMAL})

# One-character replacements applied before NFKC: minus signs NFKC leaves alone, fraction slashes.
_CHAR_MAP: Final = {"\u2212": "-", "\u2044": "/", "\u2215": "/"}
# Compatibility tags whose NFKC image is the same number (fullwidth, small, math-font digits, ½).
# Superscripts/subscripts/circled digits are left as they are, so "10²" is an error, not 102.
_SAFE_TAGS: Final = ("<wide>", "<small>", "<font>", "<fraction>", "<noBreak>")

_DECIMAL_RE: Final = re.compile(
    r"(?P<sign>[+-])?(?:(?P<int>[0-9]+)(?:\.(?P<frac>[0-9]*))?|\.(?P<frac2>[0-9]+))"
    r"(?:[eE](?P<esign>[+-])?(?P<exp>[0-9]+))?",
    re.ASCII,
)
_FRACTION_RE: Final = re.compile(
    r"(?P<sign>[+-])?(?P<num>[0-9]+)[ ]*/[ ]*(?P<dsign>[+-])?(?P<den>[0-9]+)", re.ASCII
)
_SEPARATOR_RE: Final = re.compile(r"[0-9][,_ '\u00a0\u202f][0-9]")
_NEG_INF_TEXTS: Final = frozenset({"-inf", "-infinity", "-∞"})
_EXCERPT: Final = 40


@dataclass(frozen=True)
class Written:
    """A number as a person wrote it: the exact value plus how it was written."""

    value: Fraction
    text: str
    kind: WrittenKind
    decimals: int | None
    significant: int | None

    @property
    def half_unit(self) -> Fraction | None:
        """Half a unit in the last written place (``0.34`` -> 1/200, ``1.2e3`` -> 50)."""
        if self.kind is WrittenKind.FRACTION or self.decimals is None:
            return None
        place = -self.decimals
        if self.kind is WrittenKind.SCIENTIFIC:
            match = _DECIMAL_RE.fullmatch(_normalize(self.text))
            if (
                match is not None
                and match["exp"] is not None
                and len(match["exp"].lstrip("0")) < 12
            ):
                frac = match["frac"] if match["frac"] is not None else (match["frac2"] or "")
                exponent = int(match["exp"]) * (-1 if match["esign"] == "-" else 1)
                place = max(place, exponent - len(frac))
        return Fraction(10) ** place / 2

    def __str__(self) -> str:
        return self.text


def excerpt(text: str) -> str:
    """The offending text, cut to about 40 characters, quoted (for error messages)."""
    if len(text) > _EXCERPT:
        text = text[:_EXCERPT] + "…"
    return repr(text)


def literal_limit(length: int, limits: Limits) -> LimitError:
    """The error for a number literal of ``length`` characters beyond ``max_literal_length``."""
    return LimitError(
        f"number literal of {length} characters exceeds "
        f"max_literal_length={limits.max_literal_length} "
        "(raise it with Limits(max_literal_length=...))"
    )


def exponent_limit(shown: str, limits: Limits) -> LimitError:
    """The error for the exponent ``shown`` beyond ``max_decimal_exponent``."""
    return LimitError(
        f"exponent {shown} exceeds max_decimal_exponent={limits.max_decimal_exponent} "
        "(raise it with Limits(max_decimal_exponent=...))"
    )


def _normalize(text: str) -> str:
    """Map fullwidth digits/signs/point and unicode minus signs to ASCII, then strip spaces."""
    if text.isascii():
        return text.strip()
    chars: list[str] = []
    for ch in text:
        if ch.isascii():
            chars.append(ch)
        elif ch in _CHAR_MAP:
            chars.append(_CHAR_MAP[ch])
        elif unicodedata.decomposition(ch).startswith(_SAFE_TAGS):
            chars.append(unicodedata.normalize("NFKC", ch))
        else:
            chars.append(ch)
    return "".join(chars).replace("\u2044", "/").strip()


def is_neg_inf_text(text: object) -> bool:
    """True for text meaning minus infinity: ``-inf``, ``−inf``, ``-∞``, ``-infinity``."""
    if not isinstance(text, str) or len(text) > 32:
        return False
    return _normalize(text).lower() in _NEG_INF_TEXTS


def bits_of(x: Fraction) -> int:
    """The size of ``x`` in bits: its numerator's plus its denominator's (``max_bits``)."""
    return x.numerator.bit_length() + x.denominator.bit_length()


def significant_digits(digits: str) -> int:
    """Significant digits as written: leading zeros do not count; zero has 1."""
    return max(1, len(digits.lstrip("0")))


def parse_number(text: str, *, limits: Limits = DEFAULT_LIMITS, what: str = "number") -> Written:
    """Read ``12``, ``-0.340``, ``1.2e-3``, ``3/4`` (fullwidth too) as an exact :class:`Written`."""
    if not isinstance(text, str):
        raise NumberError(f"{what}: expected number text, got {type(text).__name__}")
    stripped = text.strip()
    if len(stripped) > limits.max_literal_length:
        raise literal_limit(len(stripped), limits)
    norm = _normalize(stripped)
    if len(norm) > limits.max_literal_length:
        raise literal_limit(len(norm), limits)

    if norm.endswith("%"):
        written = _read(norm[:-1].rstrip(), stripped, limits, what)
        if written.kind not in PLAIN_KINDS:
            raise NumberError(f"cannot read {excerpt(stripped)} as a percentage (in {what})")
        written = percent(written, stripped)
    else:
        written = _read(norm, stripped, limits, what)
    limits.check_bits(bits_of(written.value), what)
    return written


def percent(w: Written, text: str | None = None) -> Written:
    """``w`` followed by ``%`` (``text``, by default ``w``'s with the sign): the number it
    writes (``87%`` is 0.87, with the decimals of 0.87: a percentage with n decimals is a
    fraction with n + 2)."""
    return Written(
        w.value / 100,
        text if text is not None else w.text + "%",
        w.kind,
        (w.decimals or 0) + 2,
        w.significant,
    )


def _read(norm: str, stripped: str, limits: Limits, what: str) -> Written:
    """The number ``norm`` (``stripped`` as written), or a NumberError."""
    match = _DECIMAL_RE.fullmatch(norm)
    if match is not None:
        return _from_decimal_match(match, stripped, limits)
    match = _FRACTION_RE.fullmatch(norm)
    if match is not None:
        den = _int(match["den"], limits)
        if den == 0:
            raise NumberError(f"{excerpt(stripped)} has denominator 0 (in {what})")
        negative = (match["sign"] == "-") != (match["dsign"] == "-")
        value = Fraction(_int(match["num"], limits), den)
        return Written(-value if negative else value, stripped, WrittenKind.FRACTION, None, None)

    hint = ""
    if _SEPARATOR_RE.search(norm):
        hint = "; write digits without separators and use '.' as the decimal point"
    raise NumberError(f"cannot read {excerpt(stripped)} as a number (in {what}){hint}")


def _int(digits: str, limits: Limits) -> int:
    """``int(digits)``; past Python's ``int_max_str_digits`` a LimitError, not a bare ValueError."""
    try:
        return int(digits)
    except ValueError:
        raise LimitError(
            f"number literal of {len(digits)} digits is more than Python converts "
            f"(sys.get_int_max_str_digits() = {sys.get_int_max_str_digits()}); "
            f"max_literal_length={limits.max_literal_length} is set above it"
        ) from None


def _from_decimal_match(match: re.Match[str], text: str, limits: Limits) -> Written:
    """Build a Written from a match of ``_DECIMAL_RE`` (exponent checked before int())."""
    int_digits = match["int"] or ""
    frac_digits = match["frac"] if match["frac"] is not None else (match["frac2"] or "")
    has_point = match["frac"] is not None or match["frac2"] is not None
    exponent = 0
    if match["exp"] is not None:
        exp_digits = match["exp"].lstrip("0")
        if len(exp_digits) > len(str(limits.max_decimal_exponent)):
            raise exponent_limit(excerpt(match["exp"]), limits)
        exponent = int(exp_digits or "0") * (-1 if match["esign"] == "-" else 1)
        if abs(exponent) > limits.max_decimal_exponent:
            raise exponent_limit(str(exponent), limits)
    mantissa = _int(int_digits + frac_digits or "0", limits)
    shift = exponent - len(frac_digits)
    value = Fraction(mantissa * 10**shift) if shift >= 0 else Fraction(mantissa, 10**-shift)
    if match["sign"] == "-":
        value = -value
    kind: WrittenKind
    if match["exp"] is not None:
        kind = WrittenKind.SCIENTIFIC
    elif has_point:
        kind = WrittenKind.DECIMAL
    else:
        kind = WrittenKind.INTEGER
    return Written(value, text, kind, max(0, -shift), significant_digits(int_digits + frac_digits))


def check_decimal(x: Decimal, what: str, limits: Limits) -> None:
    """Reject non-finite Decimals and ones beyond the limits (before any power of ten is built)."""
    if x.is_nan():
        raise NumberError(f"{what} is NaN; attention inputs must be finite")
    if x.is_infinite():
        raise NumberError(
            f"{what} is {'-' if x.is_signed() else '+'}infinity; attention inputs must be finite"
        )
    _, digits, exponent = x.as_tuple()
    if len(digits) > limits.max_literal_length:
        raise literal_limit(len(digits), limits)
    if (
        not isinstance(exponent, int)
        or abs(exponent) > limits.max_decimal_exponent + limits.max_literal_length
    ):
        raise exponent_limit(str(exponent), limits)


def decimal_written(x: Decimal, what: str, limits: Limits) -> Written:
    """A Decimal keeps its written digits: ``Decimal('0.340')`` promises 3 decimals."""
    check_decimal(x, what, limits)
    _, digits, raw_exponent = x.as_tuple()
    exponent = int(raw_exponent)  # finite, so an int (checked above)
    kind: WrittenKind
    if exponent > 0:
        kind, text = WrittenKind.SCIENTIFIC, str(x)
    else:
        kind = WrittenKind.DECIMAL if exponent < 0 else WrittenKind.INTEGER
        text = plain(x)
    sig = significant_digits("".join(map(str, digits)))
    return Written(Fraction(x), text, kind, max(0, -exponent), sig)
