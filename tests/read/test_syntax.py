"""Tests of symattn.read.syntax: the safe arithmetic grammar."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.errors import SymattnError
from symattn.read.audit import audit
from symattn.read.evaluate import evaluate, flatten
from symattn.read.notations import TOKEN_RULES
from symattn.read.syntax import TokenKind, literal_numbers, parse
from symattn.read.tokens import normalize, tokenize


def test_literal_numbers_keep_their_written_form() -> None:
    got = literal_numbers(parse("[0.031, -0.110]"))
    assert got is not None
    assert [(w.text, w.decimals) for w, _ in got] == [("0.031", 3), ("-0.110", 3)]
    assert literal_numbers(parse("1 + 2")) is None


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


def test_softmax_of_its_arguments_is_judged_as_a_row() -> None:
    text = "Softmax(0.21, 0.65, 0.33) ≈ [0.2003, 0.5371, 0.2626]\n\nsoftmax(0, 0) = [0.5, 0.5]\n"
    r = audit(text, path="t.md")
    assert {(f.line, f.claimed) for f in r.findings if f.code == "wrong-value"} == {
        (1, "0.2003"),
        (1, "0.5371"),
        (1, "0.2626"),
    }


@pytest.mark.parametrize(
    ("text", "value", "half"),
    [
        ("7.5×10^9", "7500000000", "50000000"),
        ("6.7 \\times 10^{9}", "6700000000", "50000000"),
        ("2×10^{-3}", "1/500", "1/2000"),
    ],
)
def test_a_mantissa_times_a_power_of_ten_is_one_scientific_number(
    text: str, value: str, half: str
) -> None:
    got = literal_numbers(parse(text))
    assert got is not None
    ((w, pos),) = got
    assert (w.value, w.half_unit, pos) == (Fraction(value), Fraction(half), 0)


@pytest.mark.parametrize("text", ["7.5×2^9", "7.5×10^x", "7.5×10^{1.5}", "x×10^9", "7.5×10×9"])
def test_other_products_are_no_scientific_number(text: str) -> None:
    assert literal_numbers(parse(text)) is None


def test_a_sum_sign_sums_the_entries_of_the_power_after_it() -> None:
    """``\\sum e^{[…]}`` (a softmax's denominator written out) is the sum of the entries, and
    ``e^{[…]}`` is e raised to each entry; ``\\sum_j`` names terms the formula does not
    write: not read."""
    assert [x.rational() for x in flatten(evaluate(parse("\\sum [1, 2] + 1")))] == [4]
    text = "$$\n\\frac{e^{[0.5, 0.6]}}{\\sum e^{[0.5, 0.6]}} = [0.48, 0.6]\n$$\n"
    r = audit(text, path="t.md")  # (exact 0.4750, 0.5250)
    assert {f.claimed for f in r.findings if f.code == "wrong-value"} == {"0.6"}
    with pytest.raises(SymattnError):
        parse("\\sum_{j} e^{s_j}")


def test_token_kinds_are_the_token_rules() -> None:
    # one member per rule of the grammar's tokens (``space`` is dropped by the tokenizer)
    rules = {r.kind for r in TOKEN_RULES} - {"space"}
    assert {k.value for k in TokenKind} == rules
    assert {
        t.kind
        for t in tokenize("\\frac{1}{2} = [0.5, x_1] ... \\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix}")
    } == rules


@pytest.mark.parametrize(
    ("text", "value"),
    [("\\frac{1}{3}", "1/3"), ("2/3", "2/3"), ("\\frac{3}{3}", "1")],
)
def test_a_small_fraction_of_integers_is_a_value_as_written(text: str, value: str) -> None:
    node = parse(normalize(text)[0], normalized=True)
    assert node is not None
    ((w, _),) = literal_numbers(node) or [(None, 0)]
    assert w is not None and w.kind == "fraction" and str(w.value) == value


@pytest.mark.parametrize("text", ["512/8", "142/1375", "4.68/30.09", "1/0"])
def test_a_division_to_compute_is_no_value(text: str) -> None:
    node = parse(normalize(text)[0], normalized=True)
    assert node is not None and literal_numbers(node) is None
