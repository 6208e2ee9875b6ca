"""Tests of symattn.read.notations.grammar: spellings, tokens, signs and functions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.errors import SymattnError
from symattn.read.audit import audit
from symattn.read.evaluate import evaluate, flatten
from symattn.read.notations import (
    BARE_ARGUMENT_FUNCTIONS,
    GREEK_LETTERS,
    GREEK_NAMES,
    SAME_FUNCTION,
    VECTOR_FUNCTIONS,
)
from symattn.read.notations import grammar as table
from symattn.read.rows import Spelling, TokenRule, Word
from symattn.read.syntax import Call, Chain, VecNode, literal_shape, parse
from symattn.read.tokens import Token, normalize, tokenize

from ..texts import understood
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
    assert isinstance(node, Call) and node.fn == SAME_FUNCTION.get(row.text, row.text)


@pytest.mark.parametrize("fn", sorted(BARE_ARGUMENT_FUNCTIONS))
def test_a_bare_argument_function_takes_the_number_after_it(fn: str) -> None:
    node = parse(f"{fn} 2 + 1")
    assert isinstance(node, Chain) and isinstance(node.first, Call)
    assert node.first.fn == SAME_FUNCTION.get(fn, fn)


@pytest.mark.parametrize(("written", "same"), sorted(SAME_FUNCTION.items()))
def test_a_function_under_another_name_is_that_function(written: str, same: str) -> None:
    (a,) = flatten(evaluate(parse(f"{written}(3)")))
    (b,) = flatten(evaluate(parse(f"{same}(3)")))
    assert a == b


@pytest.mark.parametrize("command", ["\\lneq 2", "\\logical(2)"])
def test_a_function_command_is_respelled_only_whole(command: str) -> None:
    assert normalize(command)[0].startswith(command[:3])


def test_text_name_is_one_name() -> None:
    norm, _ = normalize("\\text{Attention Scores} = 1")
    assert norm.startswith("Attention_Scores")


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("(1, 0)", [1, 0]),
        ("\\left( 1, 0 \\right)", [1, 0]),
        ("(0.5, 0.25) + (0.5, 0.75)", [1, 1]),
        ("2 · (1, 0)", [2, 0]),
        ("0.5(2, 1)", [1, Fraction(1, 2)]),
    ],
)
def test_tuple_open_where_a_value_stands_is_a_vector(
    text: str, values: list[int | Fraction]
) -> None:
    norm, _ = normalize(text)
    node = parse(norm, normalized=True)
    assert [s.rational() for s in flatten(evaluate(node))] == [Fraction(v) for v in values]
    if isinstance(node, VecNode):
        assert literal_shape(node) == (2,)


@pytest.mark.parametrize("text", ["exp(1, 2)", "\\exp(1, 2)", "sqrt(1, 2)"])
def test_tuple_open_is_no_vector_as_arguments(text: str) -> None:
    with pytest.raises(SymattnError):
        parse(text)


@pytest.mark.parametrize("text", ["softmax(0, 0)", "Softmax(0, 0)", "\\text{softmax}(0, 0)"])
def test_arguments_of_a_vector_function_are_its_vector(text: str) -> None:
    assert "softmax" in VECTOR_FUNCTIONS
    norm, _ = normalize(text)
    half = [s.rational() for s in flatten(evaluate(parse(norm, normalized=True)))]
    assert half == [Fraction(1, 2), Fraction(1, 2)]


def test_tuple_open_reads_a_vector_in_prose_and_a_call_stays_a_label() -> None:
    u = understood("The query is q = (1, 0) and the keys are k_1 = (1, 0), k_2 = (0, 1).\n")
    assert [(f.role, f.index, f.dims) for f in u.facts] == [
        ("q", None, (2,)),
        ("k", 1, (2,)),
        ("k", 2, (2,)),
    ]
    u = understood("$$f(a, b) = 1$$\n\n$$\\text{softmax}(2, 0) = 0.88$$\n")
    assert not any(f.dims == (2,) for f in u.facts)


@pytest.mark.parametrize(
    ("written", "spelled"), [("K₂", "K_2"), ("√dₖ", "√d_k"), ("h₁₂", "h_{12}"), ("x²", "x²")]
)
def test_unicode_subscript_is_the_names_subscript(written: str, spelled: str) -> None:
    assert normalize(written)[0] == spelled


def test_unicode_subscripts_name_the_inputs_of_a_problem() -> None:
    text = (
        "q₁ = [1, 0], k₁ = [1, 0], k₂ = [0, 1], v₁ = [1, 2], v₂ = [3, 4], dₖ = 2\n\n"
        "softmax([1, 0]/√2) = [0.67, 0.33]\n"
    )
    u = understood(text)
    assert [(f.role, f.index) for f in u.facts if f.given] == [
        ("q", 1),
        ("k", 1),
        ("k", 2),
        ("v", 1),
        ("v", 2),
    ]
    assert len(u.problems) == 1


@pytest.mark.parametrize("sign", [*(s.written for s in table.STEP_SIGNS), "→"], ids=str)
def test_a_step_sign_ends_the_definition_before_it(sign: str) -> None:
    # en86: ``d_k = 2 \implies \sqrt{d_k} = \sqrt{2} ≈ 1.414`` gives d_k 2 and √d_k 1.414
    text = f"$d_k = 2$\n\n$d_k = 2 {sign} \\sqrt{{d_k}} = \\sqrt{{2}} \\approx 1.414$\n"
    u = understood(text)
    assert [c.text for c in u.reading.chains] == [
        "d_k = 2",
        "d_k = 2 → \\sqrt{d_k} = \\sqrt{2} ≈ 1.414",
    ]
    r = audit(text)
    assert [f.code for f in r.findings] == [], r.findings
    # and what follows the sign is judged as a formula of its own
    wrong = audit(f"$d_k = 2 {sign} \\sqrt{{d_k}} = \\sqrt{{2}} \\approx 1.6$\n")
    assert [f.code for f in wrong.findings] == ["wrong-value"]


@pytest.mark.parametrize(("name", "letter"), GREEK_LETTERS)
def test_a_greek_letter_is_a_name_by_command_and_by_letter(name: str, letter: str) -> None:
    assert normalize(f"\\{name}_1 = 0.5")[0] == f"{name}_1 = 0.5"
    assert normalize(f"{letter}_{{2}} = 0.5")[0] == f"{name}_{{2}} = 0.5"
    assert [t.kind for t in tokenize(normalize(f"\\{name}_1 = 0.5")[0])] == ["name", "rel", "num"]


def test_a_letter_command_matches_only_whole() -> None:
    # \nu is a letter; \nunito (no command of the grammar) is not read as \nu + "nito"
    assert normalize("\\nunito")[0] == "\\nunito"
    assert "pi" not in GREEK_NAMES  # π is a constant, not a name
