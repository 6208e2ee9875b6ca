"""Tests of symattn.judge.vectors: checks on the claims of one quantity together."""

from __future__ import annotations

from fractions import Fraction

from symattn.judge.vectors import MixedPrecision, normalization_gap, precision_mixed
from symattn.numbers import Written, parse_number


def W(text: str) -> Written:  # noqa: N802 - reads like the claim it builds
    return parse_number(text)


def test_precision_mixed() -> None:
    ws = [W("0.331"), W("0.34"), W("0.329")]
    assert precision_mixed(ws) == [MixedPrecision(1, 2, 3)]
    assert precision_mixed([W("0.331"), None, W("0.329")]) == []
    assert precision_mixed([W("1"), W("0.5")]) == []  # an integer has no decimals to mix


def test_precision_mixed_spares_exact_values() -> None:
    ws = [W("0.22"), W("-0.175"), W("0.125")]
    assert precision_mixed(ws, lambda j: Fraction(22, 100) if j == 0 else None) == []
    assert precision_mixed(ws) == [MixedPrecision(0, 2, 3)]


def test_normalization_gap() -> None:
    assert normalization_gap([W("0.82"), W("0.18")]) is None
    assert normalization_gap([W("0.33"), W("0.33"), W("0.33")]) is None  # 0.99 .. 1.005
    assert normalization_gap([W("0.70"), W("0.40")]) == (
        Fraction(11, 10),
        Fraction(109, 100),
        Fraction(111, 100),
    )
