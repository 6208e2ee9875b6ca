"""Tests of symattn.read.defined: what a value a text gives a name is."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.read.defined import (
    integer_of,
    is_count,
    is_global,
    is_size,
    is_token_vector,
    key_of,
    width_of,
)
from symattn.read.evaluate import evaluate
from symattn.read.scalar import lit
from symattn.read.syntax import parse


def _value(text: str) -> object:
    return evaluate(parse(text), {})


@pytest.mark.parametrize(("name", "whole"), [("d_k", True), ("\\sqrt{d_k}", True), ("B", False)])
def test_a_parameter_of_the_whole_text(name: str, whole: bool) -> None:
    assert is_global(name) is whole


def test_sizes_counts_and_integers() -> None:
    assert integer_of(lit(3)) == 3 and integer_of(lit(Fraction(1, 2))) is None
    assert is_size(lit(2)) and not is_size(lit(0))
    assert is_count(lit(0)) and not is_count(lit(-1))


@pytest.mark.parametrize(
    ("name", "text", "vector"),
    [("Q", "[1, 0, 0, 1]", True), ("K", "[[1, 0], [0, 1]]", False), ("s", "[1, 2]", False)],
)
def test_one_token_s_vector_of_an_input(name: str, text: str, vector: bool) -> None:
    assert is_token_vector(name, _value(text)) is vector  # type: ignore[arg-type]


def test_width_and_key() -> None:
    assert width_of(_value("[[1, 2, 3]]")) == 3  # type: ignore[arg-type]
    assert width_of(lit(2)) is None
    assert key_of(_value("[0.5, 1]")) == (False, Fraction(1, 2), Fraction(1))  # type: ignore[arg-type]
    assert key_of(_value("\\sqrt{2}")) is None  # type: ignore[arg-type]
