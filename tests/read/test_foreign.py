"""Tests of symattn.read.foreign: scores that are not the dot products of the Q and K before."""

from __future__ import annotations

import decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from symattn.numbers import parse_number
from symattn.read.foreign import foreign, within
from symattn.read.observations import Spot


def spots(*texts: str) -> tuple[Spot, ...]:
    return tuple(Spot(parse_number(t), 1, 1) for t in texts)


Q = spots("1.0", "0.0", "0.0", "2.0", "1.0", "1.0")  # Q = K, Q Kᵀ = [[1,0,1],[0,4,2],[1,2,2]]


def test_scores_of_a_new_exercise_are_foreign() -> None:
    assert foreign(spots("2.0", "5.0", "1.0"), 3, Q, 2, Q, 2)


def test_the_dot_products_are_not_foreign_in_any_frame() -> None:
    assert not foreign(spots("1.0", "2.0", "2.0"), 3, Q, 2, Q, 2)  # unscaled
    assert not foreign(spots("0.7071", "1.4142", "1.4142"), 3, Q, 2, Q, 2)  # / √2
    assert not foreign(spots("0.5", "1.0", "1.0"), 3, Q, 2, Q, 2)  # / d_k
    whole = spots("0.7071", "0", "0.7071", "0", "2.8284", "1.4142", "0.7071", "1.4142", "1.4142")
    assert not foreign(whole, 3, Q, 2, Q, 2)


def test_a_slip_in_one_entry_is_not_foreign() -> None:
    assert not foreign(spots("0.7071", "1.4142", "9.9"), 3, Q, 2, Q, 2)


def test_too_few_entries_or_another_shape_say_nothing() -> None:
    assert not foreign(spots("7", "9"), 2, Q, 2, Q, 2)
    assert not foreign(spots("7", "9", "8", "6"), 4, Q, 2, Q, 2)  # (four keys: not these K)
    assert not foreign(spots("7", "9", "8", "6"), 3, Q, 2, Q, 2)  # (an entry left out)


def test_within_decides_a_scaled_entry_exactly() -> None:
    # 1/√2 = 0.70710678…: inside [0.7071, 0.7072], outside [0.70711, 0.70712]
    assert within(Fraction(1), 2, Fraction("0.7071"), Fraction("0.7072"))
    assert not within(Fraction(1), 2, Fraction("0.70711"), Fraction("0.70712"))
    assert within(Fraction(-1), 2, Fraction("-0.7072"), Fraction("-0.7071"))
    assert not within(Fraction(-1), 2, Fraction("0.7071"), Fraction("0.7072"))


@given(
    st.fractions(min_value=-50, max_value=50),
    st.integers(1, 64),
    st.fractions(min_value=-50, max_value=50),
    st.fractions(min_value=0, max_value=10),
)
def test_within_agrees_with_squaring_by_hand(
    x: Fraction, d: int, lo: Fraction, w: Fraction
) -> None:
    hi = lo + w
    # x/√d against [lo, hi], decided here with an 80-digit square root instead (away from
    # the ends, where 80 digits decide)
    ctx = decimal.Context(prec=80)

    def dec(f: Fraction) -> decimal.Decimal:
        return ctx.divide(decimal.Decimal(f.numerator), decimal.Decimal(f.denominator))

    r = ctx.divide(dec(x), ctx.sqrt(decimal.Decimal(d)))
    near = decimal.Decimal("1e-60")
    if abs(r - dec(lo)) > near and abs(r - dec(hi)) > near:
        assert within(x, d, lo, hi) == (dec(lo) <= r <= dec(hi))
    if x * x == lo * lo * d and (x >= 0) == (lo >= 0):  # exactly on an end: inside
        assert within(x, d, lo, hi)
