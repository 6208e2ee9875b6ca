"""Tests of symattn.judge.constants: the one table of rounded constants."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.judge.constants import (
    APPROX_E,
    MAX_RADICAND,
    ROOT_PLACES,
    approximate_roots,
    rounded_root,
)


def test_approximations_of_e() -> None:
    assert [c.text for c in APPROX_E][:2] == ["2.718", "2.72"]
    e = Fraction(2718281828, 10**9)
    assert all(c.symbol == "e" and abs(c.value - e) < Fraction(2, 100) for c in APPROX_E)


def test_approximate_roots() -> None:
    roots = approximate_roots(2)
    assert roots[0].symbol == "√2" and roots[0].text == "1.41" and roots[0].divide
    assert [r.text for r in roots if r.symbol == "1/√2"][:2] == ["0.71", "0.70"]
    assert {len(r.text.split(".")[1]) for r in roots} == set(ROOT_PLACES)
    assert len(set(roots)) == len(roots)


def test_perfect_squares_have_exact_roots() -> None:
    assert approximate_roots(4) == () and approximate_roots(0) == ()


@pytest.mark.parametrize(
    ("value", "half", "root"),
    [
        ("1.73", "0.005", 3),
        ("1.414", "0.0005", 2),
        ("1.41", "0.005", 2),
        ("2.83", "0.005", 8),
        ("22.63", "0.005", 512),
        ("2.00", "0.005", None),  # √4 is exact
        ("14.89", "0.005", None),  # between √221 = 14.866 and √222 = 14.900
        ("1.73", "0", None),  # an exact number rounds nothing
        ("100.00", "0.005", None),  # beyond MAX_RADICAND
    ],
)
def test_rounded_root(value: str, half: str, root: int | None) -> None:
    assert rounded_root(Fraction(value), Fraction(half)) == root
    assert MAX_RADICAND < 100**2
