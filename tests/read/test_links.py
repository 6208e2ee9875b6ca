"""Tests of symattn.read.links: what the links of a chain say."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.errors import SymattnError
from symattn.read.audit import audit
from symattn.read.links import ParsedKind, label_of, read_first, read_link

from .texts import INPUTS


@pytest.mark.parametrize(
    "sentence",
    [
        "We assume that d_k = 4.",
        "The key width is d_k = 4 here.",
        "为了方便计算，假设 d_k = 4。",
        "设维度 $d_k = 4$，便于开方。",
    ],
)
def test_d_k_in_a_prose_sentence_is_the_stated_d_k(sentence: str) -> None:
    rec = audit(sentence + "\n" + INPUTS + "\nweights = [0.8, 0.2]\n").recognised
    assert rec is not None and (rec.d_k, rec.d_k_stated) == (4, True)


@pytest.mark.parametrize(
    ("text", "kind", "label", "offset"),
    [
        ("score(它,动物)", "label", "score(它,动物)", 0),
        ("{Attention Output}", "label", "Attention Output", 0),
        ("We assume that d_k", "label", "d_k", 15),
        ("总和：12.18 + 2.71", "expr", "", 3),
        ("1 + 1", "expr", "", 0),
        ("[", "none", "", 0),
        ("Scores become [10/4, 20/4]", "expr", "", 14),
        # a value, then a word: math the grammar does not know, not words before math
        ("[1, 0, 2] x [1, 4, 3]", "none", "", 0),
    ],
)
def test_read_first(text: str, kind: str, label: str, offset: int) -> None:
    got = read_first(text, DEFAULT_LIMITS)
    assert (got.kind, got.label, got.offset) == (kind, label, offset)
    assert (got.node is not None) == (kind == "expr")


@pytest.mark.parametrize(
    ("text", "value"),
    [("0.82, 即约 82%", "0.82"), ("2 here.", "2"), ("4.", "4"), ("2)", "2")],
)
def test_the_last_link_may_end_in_prose(text: str, value: str) -> None:
    got = read_link(text, True, DEFAULT_LIMITS)
    assert got.node == read_link(value, False, DEFAULT_LIMITS).node


def test_a_middle_link_is_math_or_an_error() -> None:
    with pytest.raises(SymattnError):
        read_link("2 here.", False, DEFAULT_LIMITS)


def test_label_of() -> None:
    assert label_of("output_{它}", DEFAULT_LIMITS) == "output_它"
    assert label_of("1 + x", DEFAULT_LIMITS) is None


@pytest.mark.parametrize("note", ["\\quad \\text{(animal)}", "(animal)", "\\text{（动物）}"])
def test_a_note_after_the_last_value_names_its_token(note: str) -> None:
    r = audit(f"$$ P_1 = \\frac{{1}}{{4}} \\approx {{26\\%}} {note} $$\n")
    assert r.unparsed == () and [f.code for f in r.findings] == ["wrong-value"]


def test_a_call_with_a_word_argument_is_no_note() -> None:
    """Only math that does not parse loses a note: ``softmax (scores)`` stays a call."""
    got = read_link("softmax (scores)", True, DEFAULT_LIMITS)
    assert got.kind == "expr" and type(got.node).__name__ == "Call"
    assert read_link("{26%} {(animal)}", True, DEFAULT_LIMITS).kind == "expr"


def test_the_operand_of_an_unknown_product_is_not_what_the_result_claims() -> None:
    """``[1, 0, 2] x [1, 4, 3] = [2, 4, 4]`` (q times the K^T written across three lines):
    the result is no restatement of the second vector."""
    text = "```\n            [0, 4, 2]\n[1, 0, 2] x [1, 4, 3] = [2, 4, 4]\n            [1, 0, 1]\n```\n"
    assert audit(text, path="t.md").findings == ()


def test_a_word_and_its_count_are_a_name() -> None:
    assert read_first("Score 1", DEFAULT_LIMITS).kind is ParsedKind.LABEL
    assert read_first("exp 2", DEFAULT_LIMITS).kind is ParsedKind.EXPR


@pytest.mark.parametrize("text", ["Output slot 1", "Context: slot 1", "the row score 2"])
def test_words_numbered_by_a_count_are_a_label(text: str) -> None:
    assert read_first(text, DEFAULT_LIMITS).kind is ParsedKind.LABEL
