"""Tests of symattn.read.notations.grammar: spellings, tokens, signs and functions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.read.evaluate import evaluate, flatten
from symattn.read.notations import grammar as table
from symattn.read.rows import Spelling, TokenRule, Word
from symattn.read.syntax import Call, parse
from symattn.read.tokens import Token, normalize, tokenize

from .rows import Row, check_row, rows_of

ROWS = [(n, r) for n, r in rows_of(table) if not isinstance(r, (Spelling, TokenRule, Word))]


@pytest.mark.parametrize(("name", "row"), ROWS, ids=[n for n, _ in ROWS])
def test_row_recognises_its_examples(name: str, row: Row) -> None:
    check_row(row)


@pytest.mark.parametrize("row", table.SPELLINGS, ids=lambda s: s.written)
def test_spelling_is_respelled(row: Spelling) -> None:
    norm, where = normalize(row.written)
    assert norm.strip() == row.grammar.strip()
    assert all(0 <= w <= len(row.written) for w in where)


def test_spellings_are_unique() -> None:
    written = [s.written for s in table.SPELLINGS]
    assert len(written) == len(set(written))


@pytest.mark.parametrize("row", table.TOKEN_RULES, ids=lambda r: r.kind)
def test_token_rule_reads_its_examples(row: TokenRule) -> None:
    for text in row.examples:
        expected = () if row.kind == "space" else (Token(row.kind, text, 0),)
        assert tokenize(text) == expected, text


@pytest.mark.parametrize("row", table.MULTIPLY_SIGNS, ids=lambda s: s.written)
def test_multiply_sign(row: Spelling) -> None:
    (value,) = flatten(evaluate(parse(f"6 {row.written} 2")))
    expected = Fraction(3) if row.grammar == "/" else Fraction(12)
    assert value.rational() == expected


@pytest.mark.parametrize("row", table.FUNCTIONS, ids=lambda w: w.text)
def test_function_is_a_call(row: Word) -> None:
    node = parse(f"{row.text}(4)")
    assert isinstance(node, Call) and node.fn == row.text


def test_text_name_is_one_name() -> None:
    norm, _ = normalize("\\text{Attention Scores} = 1")
    assert norm.startswith("Attention_Scores")
