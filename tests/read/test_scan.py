"""Tests of symattn.read.scan: inputs and prose claims read line by line."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.read.audit import audit
from symattn.read.observations import texts
from symattn.read.scan import scan

from .texts import EXAMPLES, INPUTS


@pytest.mark.parametrize(
    "name",
    [
        "thinking_machines.en.md",
        "thinking_machines.zh.md",
        "thinking_machines.en.tex",
        "thinking_machines.zh.tex",
    ],
)
def test_two_tables_of_explain_are_one_problem(name: str) -> None:
    """``explain`` writes a queries table, then a keys-and-values table: one query, two keys."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    rec = audit(text).recognised
    assert rec is not None and rec.source == "table"
    assert (rec.q, rec.k, rec.v) == (
        ("Thinking",),
        ("Thinking", "Machines"),
        ("Thinking", "Machines"),
    )
    # the keys-and-values table is read: a changed key of Machines makes its score claim wrong
    wrong = text.replace("\\left[0,\\ 1\\right]", "\\left[0,\\ 3\\right]", 1)
    assert wrong != text
    assert audit(wrong).has_errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_latex_tabular_embeddings_are_recognised(lang: str) -> None:
    """LaTeX ``tabular`` rows (``a & b \\\\``, ``\\hline``) give the tokens, not indices."""
    rec = audit((EXAMPLES / f"animal_street.{lang}.tex").read_text(encoding="utf-8")).recognised
    assert rec is not None and rec.source == "embeddings"
    assert rec.x == rec.q == ("动物", "马路", "它")


def test_vectors_names_and_weight_matrices() -> None:
    sc = scan(
        INPUTS + "W_Q = [[1, 0], [0, 1]]\n$w_{2} \\approx 0.11$\n注意力权重： [0.89, 0.11]\n",
        DEFAULT_LIMITS,
    )
    assert {r: list(d) for r, d in sc.vectors.items()} == {
        "Q": ["1"],
        "K": ["1", "2"],
        "V": ["1", "2"],
    }
    assert dict(sc.names) == {"1": "Thinking", "2": "Machines"}
    assert [texts(row) for row in sc.w["W_Q"]] == [["1", "0"], ["0", "1"]]
    assert [(idx, s.written.text, s.line) for idx, s in sc.weights] == [("2", "0.11", 7)]
    assert [(kind, texts(row)) for kind, row in sc.prose] == [("weights", ["0.89", "0.11"])]


def test_positions_are_those_of_the_text() -> None:
    sc = scan("x\n  $k_1 = [1, \\; 20]$\n", DEFAULT_LIMITS)
    assert [(s.line, s.column) for s in sc.vectors["K"]["1"]] == [(2, 11), (2, 17)]


def test_a_weight_matrix_under_its_heading() -> None:
    sc = scan("$W^{K}$ \\\\\n$[1, 0]$ \\\\\n$[0, 1]$ \\\\\n", DEFAULT_LIMITS)
    assert [texts(row) for row in sc.w["W_K"]] == [["1", "0"], ["0", "1"]]


def test_an_unreadable_number_ends_the_table() -> None:
    text = "| | q |\n|---|---|\n| a | [1e999999999, 2] |\n| b | [1, 2] |\n"
    assert dict(scan(text, DEFAULT_LIMITS).table) == {}
