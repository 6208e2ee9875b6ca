"""Tests of symattn.read.notations.roles: names (matched whole, after clean_name) and phrases
that say what an array is."""

from __future__ import annotations

import pytest

from symattn.read.audit import audit
from symattn.read.notations import roles as table
from symattn.read.roles import clean_name, phrase_role, symbol_role
from symattn.read.rows import Pattern
from symattn.stages import BY_CLAIM

from .rows import check_pattern


def _symbol(row: Pattern) -> None:
    assert row.examples, row.name
    for example in row.examples:
        m = row.regex.fullmatch(clean_name(example.text))
        assert m is not None, f"{row.name}: {example.text!r}"
        for group, expected in example.groups:
            assert m.group(group) == expected, f"{row.name}: {example.text!r}"
    for text in row.counterexamples:
        assert row.regex.fullmatch(clean_name(text)) is None, f"{row.name}: {text!r}"


@pytest.mark.parametrize("row", table.SYMBOLS, ids=lambda r: r.name)
def test_symbol_matches_whole_names(row: Pattern) -> None:
    _symbol(row)


@pytest.mark.parametrize("row", table.SYMBOLS, ids=lambda r: r.name)
def test_symbol_states_its_role(row: Pattern) -> None:
    """The first example of each row reads as that row's stage (no row before it takes it)."""
    assert row.kind in table.ROLES or row.kind == "score"
    got = symbol_role(row.examples[0].text)
    assert got is not None
    assert got.role == ("scores" if row.kind == "score" else row.kind)


@pytest.mark.parametrize("row", table.PHRASES, ids=lambda r: r.name)
def test_phrase_is_found_in_words(row: Pattern) -> None:
    check_pattern(row)
    got = phrase_role(row.examples[0].text)
    assert got is not None and got.role == row.kind


def test_token_in_parens() -> None:
    check_pattern(table.TOKEN_IN_PARENS)
    got = symbol_role("k_1 (Thinking)")
    assert got is not None and (got.role, got.index, got.token) == ("k", 1, "Thinking")
    q = symbol_role("Query (Q)")
    assert q is None or q.token == ""


def test_symbol_names_are_unique() -> None:
    names = [r.name for r in (*table.SYMBOLS, *table.PHRASES)]
    assert len(names) == len(set(names))


def test_role_names_of_stages_are_the_spec_claim_fields() -> None:
    stages = [r for r in table.RoleName if r.value in BY_CLAIM]
    assert [r.value for r in stages] == list(BY_CLAIM)  # (in computation order)
    assert table.RoleName.WEIGHTS == "weights" and "divisor" not in table.ROLES


def test_the_row_before_softmax_is_the_softmax_input_judged_unscaled() -> None:
    before, after = phrase_role("Before softmax:"), phrase_role("After softmax:")
    assert before is not None and before.role == "scaled"
    assert after is not None and after.role == "weights"
    text = (
        "If d_k = 64, we divide by √64 = 8.\n\n"
        "```\nBefore softmax: [2.4, 1.2, 0.3]\nAfter softmax:  [0.66, 0.24, 0.10]\n```\n"
    )
    wrong = {(f.claimed, f.expected) for f in audit(text, path="t.md").findings}
    # (the softmax of the row itself, not of the row divided by √64: 0.70, 0.21, 0.09)
    assert {("0.66", "0.70"), ("0.24", "0.21"), ("0.10", "0.09")} <= wrong


def test_softmax_named() -> None:
    check_pattern(table.SOFTMAX_NAMED)


@pytest.mark.parametrize("word", table.STAGE_QUALIFIERS, ids=lambda w: w.text)
def test_a_stage_qualifier_is_no_token(word: table.Word) -> None:
    # `scores_<word>`: the version of the stage the word says, never a token's row
    r = symbol_role(f"scores_{word.text}")
    assert r is not None and r.token == ""
    assert r.role == (word.means or "scores")


def test_the_subscript_of_an_input_is_still_its_token() -> None:
    r = symbol_role("Q_scaled")
    assert r is not None and (r.role, r.token) == ("q", "scaled")


@pytest.mark.parametrize("word", table.STAGE_PREFIXES, ids=lambda w: w.text)
def test_a_prefix_keeps_the_stage_it_qualifies(word: table.Word) -> None:
    # `expected_Q`, `ref_weights`: whose value the array is; its stage is the symbol's
    r = symbol_role(f"{word.text}_{word.means}")
    assert r is not None and (r.role, r.token) == (word.means, "")
    assert symbol_role(f"{word.text} {word.means}") == r


def test_a_prefixed_symbol_keeps_its_token_and_a_bare_expected_is_the_output() -> None:
    r = symbol_role("expected_q_1")
    assert r is not None and (r.role, r.index) == ("q", 1)
    r = symbol_role("expected")
    assert r is not None and r.role == "output"
    r = symbol_role("expected_output")
    assert r is not None and r.role == "output"
