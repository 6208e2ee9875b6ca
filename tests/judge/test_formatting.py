"""Tests of symattn.judge.formatting: the numbers judge writes."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from symattn.config import DEFAULT_LIMITS
from symattn.engine import scaled_dot_product_attention
from symattn.judge.formatting import decimal_text, frac_text, vector_text


def test_decimal_text_keeps_written_digits() -> None:
    assert decimal_text(Decimal("0.340")) == "0.340"
    assert decimal_text(Decimal("3.4E-7")) == "0.00000034"


def test_frac_text() -> None:
    assert frac_text(Fraction(5)) == "5"
    assert frac_text(Fraction(1, 3)) == "0.333333"
    assert frac_text(Fraction(1, 8)) == "0.125"
    assert frac_text(Fraction(-200001, 2)) == "-100000.5"


def test_vector_text() -> None:
    r = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    assert vector_text(r.weights, 0, 4, DEFAULT_LIMITS) == "[0.8930, 0.1070]"
