"""Tests of symattn.read.placing: where each claim of a problem goes."""

from __future__ import annotations

import pytest

from symattn.numbers import parse_number
from symattn.read.audit import audit
from symattn.read.dataflow import Derivation, Start
from symattn.read.facts import Fact
from symattn.read.kinds import RoleSource, WrittenIn
from symattn.read.observations import Spot
from symattn.read.placing import (
    Built,
    counting_base,
    place,
    score_zeros,
    written_exponent,
    zeros_mask,
)
from symattn.read.roles import RoleName


def _spot(text: str, at: int) -> Spot:
    return Spot(parse_number(text), 1, at + 1, at)


def test_a_row_written_key_by_key_is_one_row() -> None:
    built = Built()
    built.put(0, "a", "weights", ["1", "2"], [_spot("0.89", 0), None])
    built.put(1, "a", "weights", ["1", "2"], [None, _spot("0.11", 10)])
    assert built.rows == [{"a": {"weights": {"1": "0.89", "2": "0.11"}}}]
    assert built.owners[0] == {("weights", ("a", "1")): 0, ("weights", ("a", "2")): 1}


def test_a_repeated_row_is_another_layer() -> None:
    built = Built()
    for i in range(2):
        built.put(i, "a", "scores", ["1", "2"], [_spot("1", 4 * i), _spot("2", 4 * i + 2)])
    assert len(built.rows) == 2 and built.used == [{0}, {1}]


def test_the_zeros_mask_removes_keys_written_as_zero() -> None:
    rows: dict[str, dict[str, object]] = {
        "a": {"weights": ["1", "0"]},
        "b": {"weights": ["0.5", "0.5"]},
    }
    assert zeros_mask(rows, ("a", "b"), ("1", "2")) == [[True, False], [True, True]]
    assert zeros_mask({"a": {"weights": ["0", "0"]}}, ("a",), ("1", "2")) is None  # (a row of none)


def _fact(
    role: str, text: str, at: int, index: int | None = None, col: str = "", exponent: str = ""
) -> Fact:
    """A number the text states by its name (``A_{01} ≈ 0.69``, ``e^0 = 1``)."""
    spots = (_spot(text, at),)
    return Fact(
        RoleName(role),
        spots,
        (),
        False,
        role,
        at,
        0,
        "math",
        index,
        col=col,
        exponent=exponent,
        source=RoleSource.NAME,
    )


def test_the_counting_base_is_0_when_a_row_or_key_is_numbered_0() -> None:
    facts = [_fact("sum", "3.03", 0, index=1), _fact("weights", "0.6", 10, index=0, col="1")]
    assert counting_base(facts, [0]) == 1
    assert counting_base(facts, [0, 1]) == 0
    assert counting_base([_fact("weights", "0.6", 0, col="0")], [0]) == 0


def test_a_row_numbered_from_0_is_its_first_row() -> None:
    d = Derivation(Start.SCORES, (0,), False, "", False)
    for base, row in ((0, "b"), (1, "a")):
        built = Built()
        place(built, 0, _fact("sum", "3.03", 0, index=1), d, ("1", "2"), ("a", "b"), 0, base)
        assert built.rows == [{row: {"sum": "3.03"}}]


def test_a_numbered_key_counts_as_the_text_counts() -> None:
    d = Derivation(Start.SCORES, (0,), False, "", False)
    built = Built()
    f = _fact("weights", "0.69", 0, index=0, col="1")
    place(built, 0, f, d, ("1", "2"), ("a", "b"), 0, 0)
    assert built.rows == [{"a": {"weights": {"2": "0.69"}}}]  # A_{01}: row 0, key 1 (2nd)


def test_the_raw_scores_that_are_zero() -> None:
    inputs = {"Q": [["1", "0"], ["0", "1"]], "K": [["1", "0"], ["0", "1"], ["1", "1"]]}
    assert score_zeros(inputs, ("a", "b")) == {
        "a": (False, True, False),
        "b": (True, False, False),
    }
    x = {"X": [["1", "2"]], "W_Q": [["1"], ["0"]], "W_K": [["0"], ["1"]]}
    assert score_zeros(x, ("t",)) == {"t": (False,)}  # (1·2 ≠ 0)
    assert score_zeros({"Q": [["a"]], "K": [["1"]]}, ("t",)) == {}


def test_an_exponential_goes_on_the_key_its_exponent_is() -> None:
    # scores of row a [1, 0]: e^0 is the second key's whatever the text's order, e^{1/√2} the
    # first's; a third e^0 has no key whose score is 0 left: not placed
    d = Derivation(Start.SCORES, (0,), False, "", False)
    built = Built(zero_scores={"a": (False, True)})
    one = _fact("exp", "1", 0, exponent="0")
    place(built, 0, one, d, ("1", "2"), ("a",), 0)
    place(built, 1, _fact("exp", "2.03", 10, exponent="1/\\sqrt{2}"), d, ("1", "2"), ("a",), 0)
    assert built.rows == [{"a": {"exp": {"2": "1", "1": "2.03"}}}]
    place(built, 2, _fact("exp", "1", 20, exponent="0"), d, ("1", "2"), ("a",), 0)
    assert built.used == [{0, 1}]
    # without the raw scores: the next key in the text's order
    free = Built()
    place(free, 0, one, d, ("1", "2"), ("a",), 0)
    assert free.rows == [{"a": {"exp": {"1": "1"}}}]


def test_a_layer_of_results_alone_takes_the_numbers_before_them_from_the_layer_before() -> None:
    built = Built()
    built.put(0, "a", "weights", ["1", "2"], [_spot("0.25", 0), _spot("0.75", 5)])
    built.put(1, "a", "output", ["0"], [_spot("2.5", 10)])
    built.put(2, "a", "output", ["0"], [_spot("2.5", 20)])  # (the output said again)
    built.put(3, "b", "output", ["0"], [_spot("1", 30)])
    built.inherit()
    assert built.rows[1] == {"a": {"output": ["2.5"], "weights": ["0.25", "0.75"]}}
    # (taken as the author's numbers, not as claims of that layer: nothing located there)
    assert set(built.spots[1]) == {("output", ("a", "0"))}
    assert built.rows[0]["b"] == {"output": ["1"]}


def test_a_layer_with_results_of_its_own_takes_nothing_from_the_layer_before() -> None:
    built = Built()
    built.put(0, "a", "scaled", ["1", "2"], [_spot("1", 0), _spot("0", 5)])
    built.put(1, "a", "weights", ["1", "2"], [_spot("0.73", 10), _spot("0.27", 15)])
    built.put(2, "a", "weights", ["1", "2"], [_spot("0.62", 20), _spot("0.38", 25)])
    built.inherit()
    assert built.rows[1] == {"a": {"weights": ["0.62", "0.38"]}}


def test_numbers_of_a_row_wider_than_the_problem_s_are_not_placed_and_say_why() -> None:
    # (two keys; the pooled weights p_0 … p_2 of another softmax are three)
    text = (
        "$q = [1, 0]$, $K = [[1, 0], [0, 1]]$, $V = [[1, 2], [3, 4]]$, $d_k = 2$.\n\n"
        "The weights are $[0.6698, 0.3302]$.\n\n"
        "$$\np_0=0.200,\\ p_1=0.300,\\ p_2=0.500\n$$\n"
    )
    report = audit(text, path="t.md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert [u.text for u in report.unparsed if u.reason.key == "wide-row"] == ["p_0", "p_1", "p_2"]


@pytest.mark.parametrize(
    ("exponent", "value"), [("2.0", "2.0"), ("{0.7071}", "0.7071"), ("", None), ("s_1", None)]
)
def test_the_exponent_an_exponential_writes(exponent: str, value: str | None) -> None:
    f = Fact(RoleName.EXP, (), (), False, "e", 0, 0, WrittenIn.MATH, exponent=exponent)
    got = written_exponent(f)
    assert (got.text if got is not None else None) == value
