"""Tests of symattn.read.syntax: the safe arithmetic grammar."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.errors import SymattnError
from symattn.read.audit import audit
from symattn.read.evaluate import evaluate, flatten
from symattn.read.syntax import literal_numbers, parse


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
