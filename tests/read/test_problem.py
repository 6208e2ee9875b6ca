"""Tests of symattn.read.problem: the attention problem rebuilt from what the text gives."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.read.extract import chains
from symattn.read.level1 import judge_chains
from symattn.read.problem import build, inputs_of, label_kind
from symattn.read.scan import scan

from .texts import INPUTS


@pytest.mark.parametrize(
    ("label", "kind", "row"),
    [
        ("score(它,动物)", "scores", "它"),
        ("q_{1} \\cdot k_{2}", None, None),
        ("q_1·k_2", "scores", "1"),
        ("总和", "sum", None),
        ("weights_{它}", "weights", "它"),
        ("output_它", "output", "它"),
        ("d_k", None, None),
    ],
)
def test_label_kind(label: str, kind: str | None, row: str | None) -> None:
    got = label_kind(label)
    assert (got[0] if got else None) == kind
    if got is not None:
        assert got[1].groupdict().get("row") == row


def test_vectors_are_the_inputs() -> None:
    got = inputs_of(scan(INPUTS, DEFAULT_LIMITS))
    assert got is not None
    assert (got.source, got.keys, got.queries) == (
        "vectors",
        ("Thinking", "Machines"),
        ("Thinking",),  # q_1 is named after k_1 (Thinking)
    )
    assert got.data["K"] == [["1", "2"], ["0", "1"]]
    assert [s.line for s in got.spots] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def test_no_inputs_no_problem() -> None:
    assert inputs_of(scan("q_1 = [1, 2]\n", DEFAULT_LIMITS)) is None


def test_build_states_the_claims_where_they_were_written() -> None:
    text = INPUTS + "d_k = 2\n$q_1 \\cdot k_2 = 2$\nweights = [0.89, 0.11]\n"
    found, _ = chains(text)
    level1 = judge_chains(found, accepted=DEFAULT_ACCEPTED, limits=DEFAULT_LIMITS)
    problem = build(level1.stated, scan(text, DEFAULT_LIMITS))
    assert problem is not None
    assert problem.data["d_k"] == 2
    assert problem.data["claims"] == {
        "rows": {"Thinking": {"scores": {"Machines": "2"}, "weights": ["0.89", "0.11"]}}
    }
    assert problem.spots[("scores", ("Thinking", "Machines"))].line == 7
    assert problem.recognised.d_k_stated and problem.recognised.claims == 3
