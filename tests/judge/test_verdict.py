"""Tests of symattn.judge.verdict: certified, rounding-aware verdicts on single claims."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.config import Limits
from symattn.engine import scaled_dot_product_attention
from symattn.judge.verdict import (
    Computed,
    Const,
    Quantity,
    TensorEntry,
    consistent_with,
    float32_repr,
    judge,
    rounding_interval,
)
from symattn.numbers import Written, parse_number
from symattn.numbers.rounding import Rounding, round_decimals

E = Computed(lambda: flint.arb(1).exp())
SQRT2 = Computed(lambda: flint.arb(2).sqrt())


def W(text: str) -> Written:  # noqa: N802 - reads like the claim it builds
    return parse_number(text)


@pytest.mark.parametrize(
    ("text", "value", "code", "reason"),
    [
        ("2.72", E, None, "consistent"),
        ("2.718", E, None, "consistent"),
        ("2.7183", E, None, "consistent"),
        ("3", E, None, "consistent"),
        ("2.71", E, "truncated", "truncated"),
        ("2.7182", E, "truncated", "truncated"),
        ("2.73", E, "wrong-value", "wrong-value"),
        ("1.41", SQRT2, None, "consistent"),
        ("1.415", SQRT2, "wrong-value", "wrong-value"),
        ("0.125", Const(Fraction(1, 8)), None, "consistent"),
        ("0.12", Const(Fraction(1, 8)), None, "tie"),
        ("0.13", Const(Fraction(1, 8)), None, "tie"),
        ("-0.54", Const(Fraction(-5499, 10000)), "truncated", "truncated"),
        ("-0.55", Const(Fraction(-5499, 10000)), None, "consistent"),
        ("1/8", Const(Fraction(1, 8)), None, "consistent"),
        ("1/7", Const(Fraction(1, 8)), "wrong-value", "wrong-value"),
        ("1/7", E, "wrong-value", "wrong-value"),
        ("1.2e3", Const(Fraction(1249)), None, "consistent"),
        ("1.2e3", Const(Fraction(1140)), "wrong-value", "wrong-value"),
        ("2.7182817", E, "float-representation", "float-representation"),
        ("2.7182818284590451", E, "float-representation", "float-representation"),
        ("0.100000001", Const(Fraction(1, 10)), "float-representation", "float-representation"),
    ],
)
def test_judge_table(text: str, value: Quantity, code: str | None, reason: str) -> None:
    v = judge(W(text), value)
    assert (v.code, v.reason) == (code, reason)
    assert v.claimed == text
    assert (v.expected is None) == (code in (None, "float-representation"))


def test_verdict_shows_exact_and_expected() -> None:
    v = judge(W("2.71"), E)
    assert v.exact == "2.71828" and v.expected == "2.72"
    assert v.details["distance"] == "0.0083"
    assert v.severity == "error"


def test_a_percentage_claim_is_told_its_expected_value_as_a_percentage() -> None:
    """``27.3%`` for e/10: the correct rounding and the distance in the claim's own units."""
    e_tenth = Computed(lambda: flint.arb(1).exp() / 10)
    v = judge(parse_number("27.3%"), e_tenth)
    assert (v.code, v.claimed, v.expected, v.details["distance"]) == (
        "wrong-value",
        "27.3%",
        "27.2%",
        "0.12%",
    )
    assert judge(parse_number("27.2%"), e_tenth).code is None


@pytest.mark.parametrize(
    ("accepted", "claim", "ok"),
    [
        (frozenset({Rounding.HALF_EVEN}), "0.12", True),
        (frozenset({Rounding.HALF_EVEN}), "0.13", False),
        (frozenset({Rounding.HALF_UP}), "0.12", False),
        (frozenset({Rounding.TRUNCATE}), "0.12", True),
    ],
)
def test_accepted_modes_narrow(accepted: frozenset[Rounding], claim: str, ok: bool) -> None:
    assert consistent_with(W(claim), Const(Fraction(1, 8)), accepted) is ok


def test_truncate_accepted_makes_truncation_consistent() -> None:
    assert judge(W("2.71"), E, accepted=frozenset({Rounding.TRUNCATE})).code is None


def test_undecided_at_ceiling() -> None:
    # a rational value the quantity does not admit to: refinement cannot decide the tie
    hidden = Computed(lambda: flint.arb(flint.fmpq(1, 8)) + flint.arb(0, flint.arb(2) ** -400))
    v = judge(W("0.13"), hidden, limits=Limits(max_precision_bits=256))
    assert (v.code, v.reason, v.severity) == ("undecided", "undecided", "info")
    assert not consistent_with(W("0.13"), hidden, limits=Limits(max_precision_bits=256))


# --------------------------------------------------------------------------- properties

fractions = st.fractions(min_value=-1000, max_value=1000, max_denominator=10**6)
places_st = st.integers(min_value=0, max_value=6)


def _text(d: Decimal, places: int) -> str:
    return format(d.quantize(Decimal(1).scaleb(-places)), "f")


@settings(max_examples=150, deadline=None)
@given(x=fractions, places=places_st, mode=st.sampled_from([Rounding.HALF_UP, Rounding.HALF_DOWN]))
def test_correct_rounding_never_flagged(x: Fraction, places: int, mode: Rounding) -> None:
    claim = W(_text(round_decimals(x, places, mode), places))
    assert judge(claim, Const(x)).code is None


@settings(max_examples=150, deadline=None)
@given(x=fractions, places=places_st, step=st.sampled_from([-1, 1]))
def test_one_ulp_off_is_flagged_unless_within_rounding(x: Fraction, places: int, step: int) -> None:
    base = round_decimals(x, places, Rounding.HALF_UP)
    claim = W(_text(base + step * Decimal(1).scaleb(-places), places))
    lo, hi = rounding_interval(claim)
    v = judge(claim, Const(x))
    if lo <= x <= hi:
        assert v.code is None
    else:
        assert v.code is not None
        if v.code == "float-representation":  # only when a float of x really prints so
            f = (
                Fraction(float(x))
                if v.details["float"] == "float64"
                else Fraction(float(np.float32(float(x))))
            )
            assert lo <= f <= hi or Fraction(float32_repr(x)) == claim.value
        else:
            assert v.code in ("wrong-value", "truncated")


@settings(max_examples=150, deadline=None)
@given(x=fractions, places=places_st)
def test_truncation_reported_as_truncated(x: Fraction, places: int) -> None:
    t = round_decimals(x, places, Rounding.TRUNCATE)
    claim = W(_text(t, places))
    v = judge(claim, Const(x))
    if (
        round_decimals(x, places, Rounding.HALF_UP) == t
        or round_decimals(x, places, Rounding.HALF_DOWN) == t
    ):
        assert v.code is None
    elif v.code == "float-representation":
        # the claim is how x's float prints: its shortest repr, or its binary value with
        # fixed digits
        kind = v.details["float"]
        f = Fraction(float(x)) if kind == "float64" else Fraction(float(np.float32(float(x))))
        shortest = repr(float(f)) if kind == "float64" else str(np.float32(float(f)))
        assert (
            Fraction(shortest) == claim.value
            or round_decimals(f, places, Rounding.HALF_EVEN) == claim.value
        )
    else:
        assert v.code == "truncated" and v.expected is not None


@settings(max_examples=40, deadline=None)
@given(
    scores=st.lists(st.integers(min_value=-6, max_value=6), min_size=2, max_size=4),
    places=st.integers(min_value=1, max_value=5),
)
def test_softmax_weights_rounded_are_consistent(scores: list[int], places: int) -> None:
    n = len(scores)
    r = scaled_dot_product_attention(
        [[1, 0]], [[s, 1] for s in scores], [[1, 0]] * n, scale=Fraction(1, 2)
    )
    rounded = r.weights.round(places, mode=Rounding.HALF_UP)
    for j in range(n):
        entry = TensorEntry(r.weights, (0, j))
        claim = W(_text(rounded[0, j], places))
        assert judge(claim, entry).code is None
        off = W(_text(rounded[0, j] + Decimal(1).scaleb(-places), places))
        assert judge(off, entry).code in ("wrong-value", "truncated")


def test_a_value_on_a_truncation_boundary_is_still_judged_when_no_side_is_the_claim() -> None:
    # e/(2e) is exactly 1/2, known only through balls: its truncation to 3 decimals (0.499
    # or 0.500) cannot be decided, but neither is 0.422
    half = Computed(lambda: flint.arb(1).exp() / (2 * flint.arb(1).exp()))
    v = judge(W("0.422"), half)
    assert (v.code, v.expected) == ("wrong-value", "0.500")
    # (a claim that is one side of the boundary stays undecided: it may be the truncation)
    assert judge(W("0.499"), half).code == "undecided"


def test_a_fraction_claim_of_a_value_not_written_as_a_fraction_is_not_proved_wrong() -> None:
    # e^{1/3} / (3 e^{1/3}) is 1/3, though no rational is in its form: nothing is proved
    third = Computed(lambda: flint.arb(1).exp() / (3 * flint.arb(1).exp()))
    assert judge(parse_number("1/3"), third).code == "undecided"
    # a value the balls tell from the fraction is wrong, as before
    root = Computed(lambda: flint.arb(2).sqrt())
    assert judge(parse_number("7/5"), root).code == "wrong-value"
