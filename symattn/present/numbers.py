"""How a document writes numbers: exact decimals, fractions and surds in LaTeX, roundings.

The one place ``present`` decides how a number looks. When ``symattn.numbers.format`` lands,
this module re-exports its vocabulary instead of defining its own (one edit here).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction

from symattn.exact import Surd
from symattn.numbers.rounding import terminating_decimal

#: an exact decimal is shown as is when it has at most this many significant digits
SHORT_SIGNIFICANT = 8
#: a fraction or surd coefficient is "short" when numerator and denominator stay below this
SHORT_PART = 1000
#: a plain decimal as people write it (``-0.35``, ``12``)
PLAIN_DECIMAL = re.compile(r"-?[0-9]{1,60}(\.[0-9]{1,60})?")
#: a square root as a finding writes it (``sqrt(2)``)
SQRT_TEXT = re.compile(r"sqrt\(([0-9]{1,12})\)")


def decimal_text(f: Fraction) -> str | None:
    """``f`` as a finite decimal string when its expansion terminates, else ``None``."""
    d = terminating_decimal(f)
    return None if d is None else f"{d:f}"


def rational_latex(f: Fraction) -> str:
    """An exact rational in LaTeX: ``5``, ``-0.35``, ``\\frac{1}{3}``."""
    text = decimal_text(f)
    if text is not None:
        return text
    sign = "-" if f < 0 else ""
    return f"{sign}\\frac{{{abs(f.numerator)}}}{{{f.denominator}}}"


def is_short_rational(f: Fraction) -> bool:
    """Whether ``f`` is short enough to print exactly (few digits, or a small fraction)."""
    text = decimal_text(f)
    if text is not None:
        digits = text.lstrip("-0.").replace(".", "")
        if "." not in text:  # an integer: its trailing zeros are not significant
            digits = digits.rstrip("0")
        return len(digits) <= SHORT_SIGNIFICANT
    return abs(f.numerator) < SHORT_PART and f.denominator < SHORT_PART


def is_short_decimal(f: Fraction) -> bool:
    """Whether ``f`` is a short finite decimal: shown exactly, with ``=`` and no rounding."""
    return decimal_text(f) is not None and is_short_rational(f)


def is_plain_decimal(s: Surd | None) -> bool:
    """Whether ``s`` is a rational that is a short finite decimal."""
    return s is not None and s.q == 0 and is_short_decimal(s.p)


def short_surd_latex(s: Surd) -> str | None:
    """``s`` in LaTeX when it is short (``\\sqrt{2}``, ``\\frac{5\\sqrt{2}}{2}``), else ``None``."""
    if s.q == 0:
        return rational_latex(s.p) if is_short_rational(s.p) else None
    if s.p != 0:
        return None
    a, b = s.q.numerator, s.q.denominator
    if abs(a) >= SHORT_PART or b >= SHORT_PART:
        return None
    sign = "-" if a < 0 else ""
    coef = "" if abs(a) == 1 else str(abs(a))
    body = f"{coef}\\sqrt{{{s.r}}}"
    return f"{sign}{body}" if b == 1 else f"{sign}\\frac{{{body}}}{{{b}}}"


def paren(text: str) -> str:
    """``text`` in parentheses when it is negative (a factor or a term after ``+``)."""
    return f"({text})" if text.startswith("-") else text


def vector_latex(items: Sequence[str]) -> str:
    """``[a, b, c]`` in LaTeX."""
    return "\\left[" + ",\\ ".join(items) + "\\right]"


def row_vector(values: Sequence[Fraction]) -> str:
    """A vector of exact rationals in LaTeX."""
    return vector_latex([rational_latex(v) for v in values])


def dot_terms(left: Iterable[Fraction], right: Iterable[Fraction]) -> tuple[list[str], list[str]]:
    """A dot product written out: its factors (``1 \\times 2``, ...) and its products, term by
    term (negative factors in parentheses)."""
    pairs = list(zip(left, right, strict=True))
    factors = [f"{paren(rational_latex(a))} \\times {paren(rational_latex(b))}" for a, b in pairs]
    products = [rational_latex(a * b) for a, b in pairs]
    return factors, products


def fixed(d: Decimal, decimals: int) -> str:
    """A rounded number with exactly ``decimals`` places, never ``-0.00``."""
    text = f"{d:.{decimals}f}"
    return text[1:] if text.startswith("-") and set(text[1:]) <= set("0.") else text


def surd_latex(s: Surd) -> str:
    """Any surd ``p + q sqrt(r)`` exactly in LaTeX (``\\frac{1}{2} + \\frac{3\\sqrt{2}}{4}``)."""
    short = short_surd_latex(s)
    if short is not None:
        return short
    if s.q == 0:
        return rational_latex(s.p)
    a, b = s.q.numerator, s.q.denominator
    coef = "" if abs(a) == 1 else str(abs(a))
    body = f"{coef}\\sqrt{{{s.r}}}"
    root = body if b == 1 else f"\\frac{{{body}}}{{{b}}}"
    if s.p == 0:
        return ("-" if a < 0 else "") + root
    return f"{rational_latex(s.p)} {'-' if a < 0 else '+'} {root}"


def inline_rational(f: Fraction) -> str:
    """An exact rational as one flat cell of a matrix: ``0.35``, ``-1/3`` (no ``\\frac``)."""
    text = decimal_text(f)
    return text if text is not None else f"{'-' if f < 0 else ''}{abs(f.numerator)}/{f.denominator}"
