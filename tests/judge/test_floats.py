"""Tests of symattn.judge.floats: how programs print floats."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symattn.judge.floats import float32_repr, float64_repr, float_match, nearest_binary
from symattn.numbers import Written, parse_number
from symattn.numbers.rounding import Rounding


def W(text: str) -> Written:  # noqa: N802 - reads like the claim it builds
    return parse_number(text)


@pytest.mark.parametrize(
    "x", [Fraction(1, 10), Fraction(1, 3), Fraction(-7, 9), Fraction(10**6, 7)]
)
def test_float32_repr_matches_numpy(x: Fraction) -> None:
    # for these values double rounding through float64 is harmless, so numpy agrees
    assert float32_repr(x) == str(np.float32(float(x)))


def test_float32_repr_avoids_double_rounding() -> None:
    # 1 + 2**-24 + 2**-60: nearest float32 is 1 + 2**-23; via float64 it would tie down to 1
    x = 1 + Fraction(1, 2**24) + Fraction(1, 2**60)
    assert float32_repr(x) == str(np.float32(1 + 2**-23))


def test_nearest_binary() -> None:
    assert nearest_binary(Fraction(1, 10), 53, -1074) == Fraction(0.1)
    assert nearest_binary(Fraction(0), 24, -149) == 0
    assert nearest_binary(Fraction(-3, 2), 24, -149) == Fraction(-3, 2)
    assert float64_repr(Fraction(1, 3)) == "0.3333333333333333"
    assert float32_repr(Fraction(2) ** 200) == "inf"


MODES = frozenset({Rounding.HALF_UP, Rounding.HALF_DOWN})


@pytest.mark.parametrize(
    ("claim", "value", "kind"),
    [
        ("0.100000001", Fraction(1, 10), "float32"),  # float32(0.1) printed with 9 decimals
        ("0.30000000000000004", Fraction(0.1 + 0.2), "float64"),
        ("0.33333334", Fraction(1, 3), "float32"),
        ("0.3333", Fraction(1, 3), None),  # too short to be a printed float
        ("0.12345678", Fraction(1, 3), None),
    ],
)
def test_float_match(claim: str, value: Fraction, kind: str | None) -> None:
    w = W(claim)
    assert w.decimals is not None
    assert float_match(w, w.decimals, MODES, value, value) == kind


def test_float_match_undecided_on_a_wide_interval() -> None:
    w = W("0.33333334")
    assert float_match(w, 8, MODES, Fraction(1, 4), Fraction(1, 2)) is False
