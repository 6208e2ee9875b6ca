"""Tests of symattn.judge.slips: slips in writing a result down."""

from __future__ import annotations

import pytest

from symattn.judge.slips import digit_slip, digits
from tests.judge.common import run


@pytest.mark.parametrize(
    ("claimed", "expected", "cause"),
    [
        ("0.8390", "0.8930", "transposed-digits"),
        ("0.893", "0.893", None),
        ("0.893", "0.8930", "dropped-digit"),  # as digits go: 893 is 8930 without its 0
        ("0.93", "0.893", "dropped-digit"),
        ("-0.93", "0.893", None),  # a sign slip is not a digit slip
        ("0.1234", "0.4321", None),
    ],
)
def test_digit_slip(claimed: str, expected: str, cause: str | None) -> None:
    assert digit_slip(claimed, expected) == cause


def test_digits() -> None:
    assert digits("-0.0340") == "340" and digits("12.5") == "125"


@pytest.mark.parametrize(
    ("rows", "cause", "slip"),
    [
        ("scores = [5, -2]", "wrong-sign", "2.000"),  # the exact value shown
        ("scores = [2, 2]", "swapped-operand", "[0, 1]"),
        ("weights = [0.8390, 0.1070]", "transposed-digits", "0.8930"),
    ],
)
def test_slips_in_check(rows: str, cause: str, slip: str) -> None:
    (f,) = [f for f in run(rows, "d_k = 2").findings if f.cause is not None]
    assert (f.cause, f.params["slip"], f.message_key) == (cause, slip, "wrong-value-slip")
