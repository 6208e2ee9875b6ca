"""Tests of symattn.read.aligned: numbers written in place of an expression of the link
before."""

from __future__ import annotations

import pytest

from symattn.read.aligned import aligned
from symattn.read.syntax import Node, literal_numbers, parse
from symattn.read.tokens import normalize


def _p(text: str) -> Node:
    node = parse(normalize(text)[0], normalized=True)
    assert node is not None
    return node


def _claimed(left: str, right: str) -> list[list[str]] | None:
    got = aligned(_p(left), _p(right))
    if got is None:
        return None
    return [[w.text for w, _ in literal_numbers(b) or []] for _, b in got]


@pytest.mark.parametrize(
    ("left", "right", "claimed"),
    [
        # the scores written in place of their product, the rest of the formula the same
        ("softmax([1, 2, 3] · [[1, 0, 0], [0, 1, 0]]^T) · V", "softmax([1, 2]) · V", [["1", "2"]]),
        # the first operations of a product written as their value, then the same ones
        ("softmax(q · k / sqrt(2))", "softmax([1, 2] / 1.41)", [["1", "2"], ["1.41"]]),
    ],
)
def test_numbers_in_place_of_an_expression_claim_it(
    left: str, right: str, claimed: list[list[str]]
) -> None:
    assert _claimed(left, right) == claimed


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("2 × 3 + 1", "7"),  # a plain value: judged as such elsewhere
        ("a + b", "c + 2"),  # another formula
        ("0.2×[1, 0] + 0.8×[0, 1] + 0×[1, 1]", "[0.2, 0] + [0, 0.8]"),  # a term dropped
        ("softmax(e^{1.155} + 1)", "softmax(4.17)"),  # an exponential of a rounded number
        ("Q · K^T", "[1, 2] · [3, 4]"),  # the inputs written out: no computed value
    ],
)
def test_no_claim_where_the_formulas_differ_or_nothing_is_computed(left: str, right: str) -> None:
    assert not _claimed(left, right)
