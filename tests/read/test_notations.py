"""Tests of symattn.read.notations: every row against its own examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.read.evaluate import evaluate, flatten
from symattn.read.notations import (
    FUNCTIONS,
    LABEL_RULES,
    MARKUP,
    MULTIPLY_SIGNS,
    PATTERNS,
    PROSE_END,
    PROSE_RULES,
    QKV_HEADERS,
    SPELLINGS,
    TABLE_RULES,
    TOKEN_RULES,
    Chars,
    Pattern,
    Spelling,
    TokenRule,
    Word,
)
from symattn.read.scan import scan
from symattn.read.syntax import Call, parse
from symattn.read.tokens import Token, normalize, tokenize


def test_pattern_names_are_unique() -> None:
    names = [p.name for p in PATTERNS]
    assert len(names) == len(set(names))
    assert all(p.examples for p in PATTERNS)


@pytest.mark.parametrize("row", PATTERNS, ids=lambda p: p.name)
def test_pattern_finds_its_examples(row: Pattern) -> None:
    for example in row.examples:
        m = row.regex.search(example.text)
        assert m is not None, example.text
        for group, text in example.groups:
            assert m.group(int(group) if group.isdigit() else group) == text, example.text
    for text in row.counterexamples:
        assert row.regex.search(text) is None, text


@pytest.mark.parametrize("rules", [LABEL_RULES, PROSE_RULES], ids=["labels", "prose"])
def test_claim_rules_say_what_they_state(rules: tuple[Pattern, ...]) -> None:
    assert all(r.kind for r in rules)


@pytest.mark.parametrize("row", SPELLINGS, ids=lambda s: s.written)
def test_spelling_is_normalized(row: Spelling) -> None:
    norm, where = normalize(row.written)
    assert norm in (row.grammar, row.grammar + " ")
    assert set(where) <= {0}


@pytest.mark.parametrize("row", TOKEN_RULES, ids=lambda r: r.kind)
def test_token_rule_reads_its_examples(row: TokenRule) -> None:
    for text in row.examples:
        expected = () if row.kind == "space" else (Token(row.kind, text, 0),)
        assert tokenize(text) == expected, text


@pytest.mark.parametrize("row", MULTIPLY_SIGNS, ids=lambda s: s.written)
def test_multiply_sign(row: Spelling) -> None:
    (value,) = flatten(evaluate(parse(f"6 {row.written} 2")))
    assert value.rational() == (Fraction(12) if row.grammar == "*" else Fraction(3))


@pytest.mark.parametrize("row", FUNCTIONS, ids=lambda w: w.text)
def test_function_is_a_call(row: Word) -> None:
    node = parse(f"{row.text}(4)")
    assert isinstance(node, Call) and node.fn == row.text


@pytest.mark.parametrize("row", QKV_HEADERS, ids=lambda w: w.text)
def test_qkv_header_word_begins_a_table(row: Word) -> None:
    sc = scan(f"| token | {row.text.upper()} |\n|---|---|\n| a | [1, 2] |\n", DEFAULT_LIMITS)
    assert list(sc.table) == ["a"] and list(sc.table["a"]) == [row.means]


@pytest.mark.parametrize("row", TABLE_RULES, ids=lambda w: w.text)
def test_table_rule_does_not_end_a_table(row: Word) -> None:
    text = f" & $q$ \\\\\n\\{row.text}\na & $[1, 2]$ \\\\\n"
    assert list(scan(text, DEFAULT_LIMITS).table) == ["a"]


@pytest.mark.parametrize("row", [PROSE_END, MARKUP], ids=lambda c: c.name)
def test_character_class(row: Chars) -> None:
    assert all(c in row.chars for c in row.examples)
    assert not any(c in row.chars for c in row.counterexamples)
