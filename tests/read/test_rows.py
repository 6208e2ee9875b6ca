"""Tests of symattn.read.rows: the kinds of row the notation tables are made of."""

from __future__ import annotations

import pytest

from symattn.read.rows import Apply, Chars, Pattern, ex, pattern, words


def test_pattern_how() -> None:
    row = pattern("p", r"a+", "some a", ("aa",), ("b",), how=Apply.FULLMATCH)
    assert isinstance(row, Pattern)
    assert row.find("aa") is not None and row.find("aab") is None
    assert pattern("q", r"a", "a", ("a",), how=Apply.MATCH).find("ba") is None
    assert pattern("r", r"a", "a", ("a",)).find("ba") is not None


def test_last_match() -> None:
    row = pattern("n", r"\d", "a digit", ("1",))
    m = row.last("a1b2c3")
    assert m is not None and m.group() == "3"
    assert row.last("abc") is None


def test_examples_and_words() -> None:
    e = ex("q_1", role="q")
    assert e.groups == (("role", "q"),)
    w = words("w", "words", "a", "b", counterexamples=("c",))
    assert w.words == frozenset({"a", "b"}) and w.counterexamples == ("c",)
    c = Chars("c", frozenset("ab"), "chars", "ab", "c")
    assert "a" in c.chars


@pytest.mark.parametrize("how", list(Apply))
def test_every_how_is_known(how: Apply) -> None:
    assert pattern("x", "x", "x", ("x",), how=how).find("x") is not None
