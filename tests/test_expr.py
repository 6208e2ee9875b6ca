"""Tests of symattn.expr: the safe arithmetic grammar and exact Scalar trees."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.config import Limits
from symattn.errors import LimitError, SymattnError
from symattn.exact import Ball
from symattn.read.expr import (
    ExprError,
    evaluate,
    flatten,
    lit,
    literal_numbers,
    names,
    normalize,
    parse,
)


def values(text: str, env: dict | None = None) -> list[Fraction | None]:
    return [s.rational() for s in flatten(evaluate(parse(text), env))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 \\times 1 + 2 \\times 2", [Fraction(5)]),
        ("1 × 1 + 2 × 2", [Fraction(5)]),
        ("[5, 2] \\div 2", [Fraction(5, 2), Fraction(1)]),
        ("[5, 2] ÷ 2", [Fraction(5, 2), Fraction(1)]),
        ("[0.47, -0.15] * [[0.22]，[-0.175]]", [Fraction("0.12965")]),
        ("0.47*0.22+(-0.15)*(-0.175)", [Fraction("0.12965")]),
        ("（1 − 0.5）× 2", [Fraction(1)]),
        ("\\frac{12}{4}", [Fraction(3)]),
        ("\\sqrt{4}", [Fraction(2)]),
        ("√9", [Fraction(3)]),
        ("根号16", [Fraction(4)]),
        ("2^3^2", [Fraction(512)]),
        ("2^{-1}", [Fraction(1, 2)]),
        ("4^{0.5}", [Fraction(2)]),
        ("e^{0}", [Fraction(1)]),
        ("exp(0)", [Fraction(1)]),
        ("\\mathbf{5} + \\text{2}", [Fraction(7)]),
        ("\\left(1 + 2\\right) \\cdot 3", [Fraction(9)]),
        ("5\\sqrt{4}", [Fraction(10)]),
        ("sum([1, 2, 3])", [Fraction(6)]),
        ("0.331*[0.238, 0.009]+0.34*[-0.075, 0.248]", [Fraction("0.053278"), Fraction("0.087299")]),
        ("[1, 2] · [3, 4]", [Fraction(11)]),
        ("[[1, 0], [0, 1]] * [2, 3]", [Fraction(2), Fraction(3)]),
        ("0 * e^{5}", [Fraction(0)]),
    ],
)
def test_rational_values(text: str, expected: list[Fraction]) -> None:
    assert values(text) == expected


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("e^{2.5}", "12.18249", "12.18250"),
        ("e^1", "2.71828", "2.71829"),
        ("\\sqrt{2}", "1.41421", "1.41422"),
        ("sum([e^0.092,e^0.119,e^0.086])", "3.312541", "3.312542"),
        ("2^{0.5}", "1.41421", "1.41422"),
    ],
)
def test_irrational_values_are_certified(text: str, low: str, high: str) -> None:
    (s,) = flatten(evaluate(parse(text)))
    assert s.rational() is None
    ball = Ball.from_arb(s.arb(128))
    assert Fraction(low) < ball.lower <= ball.upper < Fraction(high)


def test_names_and_env() -> None:
    node = parse("\\sqrt{d_k}")
    assert names(node) == frozenset({"d_k"})
    assert values("\\sqrt{d_k}", {"d_k": lit(4)}) == [Fraction(2)]
    assert values("x_{1} + 1", {"x_1": lit(1)}) == [Fraction(2)]
    with pytest.raises(ExprError, match="unknown name"):
        evaluate(parse("d_v + 1"))


def test_e_replaced_gives_the_double_precision_sum_of_seed_001() -> None:
    (s,) = flatten(evaluate(parse("sum([e^0.092,e^0.119,e^0.086])")))
    alt = s.with_e(lit(Fraction("2.718")))
    assert (
        repr(alt.float64())
        == "3.3125069954097492"
        == repr(2.718**0.092 + 2.718**0.119 + 2.718**0.086)
    )
    assert s.uses_e and not alt.uses_e


def test_literal_numbers_keep_their_written_form() -> None:
    got = literal_numbers(parse("[0.031, -0.110]"))
    assert got is not None
    assert [(w.text, w.decimals) for w, _ in got] == [("0.031", 3), ("-0.110", 3)]
    assert literal_numbers(parse("1 + 2")) is None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1 +",
        "(1 + 2",
        "[1, 2",
        "score(它，动物)",
        "1 / 0",
        "\\sqrt{-1}",
        "[1, 2] + [1, 2, 3]",
        "[[1, 2], [3]]",
        "\\unknown{1}",
        "1 … 2",
        "import os",
        "__import__('os')",
        "\\sqrt[3]{8}",
    ],
)
def test_bad_input_is_a_clear_error(text: str) -> None:
    with pytest.raises(SymattnError):
        [s.rational() for s in flatten(evaluate(parse(text)))]


@pytest.mark.parametrize(
    "text",
    ["10^10^10", "2^{99999999}", "9^9^9^9", "(" * 200 + "1" + ")" * 200, "1e999999", "e^{1e9}"],
)
def test_hostile_input_is_refused_quickly(text: str) -> None:
    start = time.monotonic()
    with pytest.raises(SymattnError):
        for s in flatten(evaluate(parse(text))):
            if s.rational() is None:
                s.arb(64)
    assert time.monotonic() - start < 2


def test_normalize_maps_positions() -> None:
    norm, where = normalize("a \\times b")
    assert norm == "a × b"
    assert len(where) == len(norm) and where[2] == 2 and where[-1] == len("a \\times b") - 1


def test_long_literal_is_limited() -> None:
    with pytest.raises(LimitError):
        parse("1" * 50, limits=Limits(max_literal_length=10))


_ALPHABET = "0123456789.+-*/^()[]{},=≈ eπ\\fracsqrt√×÷·_dk总和，（）−"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60))
def test_fuzz_parser_raises_only_its_own_errors(text: str) -> None:
    start = time.monotonic()
    try:
        for s in flatten(evaluate(parse(text))):
            if s.rational() is None:
                s.arb(64)
    except SymattnError:
        pass
    assert time.monotonic() - start < 2
