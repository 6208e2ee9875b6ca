"""Tests of symattn.read.evaluate: exact values of syntax trees, with bounded work."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from symattn.errors import SymattnError
from symattn.read import evaluate as ev
from symattn.read.evaluate import Value, evaluate, flatten
from symattn.read.messages import not_checked
from symattn.read.scalar import Scalar, lit
from symattn.read.syntax import names, parse
from symattn.read.tokens import ExprError

from ..conftest import english


def values(text: str, env: dict[str, Value] | None = None) -> list[Fraction | None]:
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


def test_names_and_env() -> None:
    node = parse("\\sqrt{d_k}")
    assert names(node) == frozenset({"d_k"})
    assert values("\\sqrt{d_k}", {"d_k": lit(4)}) == [Fraction(2)]
    assert values("x_{1} + 1", {"x_1": lit(1)}) == [Fraction(2)]
    with pytest.raises(ExprError) as e:
        evaluate(parse("d_v + 1"))
    assert e.value.reason == not_checked("unknown-name", name="d_v")


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


@pytest.mark.parametrize("terms", [1000, 4000])
def test_a_long_sum_is_built_once(terms: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15 row 5: ``1+1+…+1`` of n terms builds one sum of n terms, not a sum per
    partial sum (n^2/2 terms copied); counted, not timed."""
    built = [0]
    original = ev._sum_of

    def counting(values: list[Scalar], ctx: object) -> Scalar:
        out = original(values, ctx)  # type: ignore[arg-type]
        built[0] += len(out.args)
        return out

    monkeypatch.setattr(ev, "_sum_of", counting)
    (total,) = values("+".join(["1"] * terms))
    assert total == terms
    assert built[0] <= terms
    vector = evaluate(parse(" + ".join(["[1, 2]"] * terms) + " - 1"))
    assert [s.rational() for s in flatten(vector)] == [terms - 1, 2 * terms - 1]
    assert built[0] <= 3 * terms + 2


def test_a_sum_of_lists_of_different_lengths_is_refused() -> None:
    with pytest.raises(ExprError) as e:
        evaluate(parse("1 + [1, 2] + [1, 2, 3]"))
    assert english(e.value.reason) == "lengths 2 and 3 do not match"


def test_a_number_raised_to_a_list_is_raised_to_each_entry() -> None:
    """``e^{[0.54, 0.38]}`` is ``[e^0.54, e^0.38]`` (as ``exp`` of a list is); a list as the
    base of a power is no number."""
    assert values("2^{[1, 3]}") == [Fraction(2), Fraction(8)]
    (a, b) = flatten(evaluate(parse("e^{[0, 1]}")))
    assert a.rational() == 1 and 2.718 < float(b.arb(64).mid()) < 2.719
    with pytest.raises(ExprError):
        evaluate(parse("[1, 2]^{2}"))
