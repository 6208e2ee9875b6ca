"""Tests of symattn.read.sums: which number of a sum claims which term."""

from __future__ import annotations

from symattn.read.sums import pairs, signed_num, terms
from symattn.read.syntax import Num, parse


def test_terms_and_pairs() -> None:
    left, right = parse("0.82 * 10 + 0.18 * 30"), parse("8.2 + 5.4")
    got = pairs(left, right)
    assert got is not None and [(n.written.text, sign, comp) for n, sign, _, comp in got] == [
        ("8.2", 1, None),
        ("5.4", 1, None),
    ]
    assert terms(parse("1 * 2")) is None


def test_vectors_component_by_component() -> None:
    got = pairs(parse("0.5 * [1, 2] + 0.5 * [3, 4]"), parse("[0.5 + 1.5, 1 + 2]"))
    assert got is not None and [(n.written.text, comp) for n, _, _, comp in got] == [
        ("0.5", 0),
        ("1.5", 0),
        ("1", 1),
        ("2", 1),
    ]


def test_signed_numbers() -> None:
    n = signed_num(parse("-3"))
    assert n is not None and isinstance(n[0], Num) and n[1] == -1
    assert pairs(parse("1 + 2"), parse("x + 2")) is None
