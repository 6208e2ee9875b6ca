"""Tests of symattn.read.inputs: the inputs a text gives, and which a claim comes from."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.numbers import parse_number
from symattn.read.audit import audit
from symattn.read.dataflow import Derivation, Start
from symattn.read.inputs import (
    canon,
    complete,
    default,
    gather,
    input_mask,
    latest,
    one_slice,
    restated,
    row_restated,
    signatures,
    spec_inputs,
    spec_text,
    transposed,
)
from symattn.read.syntax import literal_numbers, parse

from .texts import INPUTS, understood


def test_vectors_of_one_role_are_one_matrix() -> None:
    u = understood(INPUTS, "text")
    inputs = gather(u.facts)
    ks = [i for i in inputs.values() if "k" in i.roles]
    assert len(ks) == 1 and ks[0].rows == (("1", "2"), ("0", "1"))
    assert ks[0].row_names == ("Thinking", "Machines")


def test_latest_before_a_claim_only() -> None:
    text = "Q = [[1, 0]]\n\nQ = [[0, 1]]\n"
    u = understood(text, "text")
    inputs = gather(u.facts)
    a, b = sorted(inputs)
    assert latest(inputs, ("q",), b + 1) == b and latest(inputs, ("q",), a) is None


def test_default_derivation_from_q_k_v() -> None:
    u = understood(INPUTS + "\n$$softmax = [0.8930, 0.1070]$$\n", "markdown")
    claim = u.facts[-1]
    got = default(u.facts, gather(u.facts), claim)
    assert got is not None and got[0].start is Start.QKV and got[1] is False


def test_spec_inputs_of_qkv() -> None:
    u = understood(INPUTS, "text")
    inputs = gather(u.facts)
    q, k, v = (next(a for a, i in inputs.items() if r in i.roles) for r in "qkv")
    from symattn.read.dataflow import Derivation

    got = spec_inputs(Derivation(Start.QKV, (q, k, v)), inputs)
    assert got is not None
    data, keys, queries, v_width, _ = got
    assert (
        data["K"] == [["1", "2"], ["0", "1"]] and keys == ("Thinking", "Machines") and v_width == 2
    )
    assert queries == ("Thinking",)  # q_1 beside k_1 (Thinking): token 1


def test_signatures_and_helpers() -> None:
    u = understood(INPUTS, "text")
    sig = signatures(gather(u.facts))
    assert ("1", "2") in sig and ("10", "20") in sig
    assert canon("0.50") == "1/2" and canon("x") == "x"
    assert transposed((("1", "2"), ("3", "4"))) == (("1", "3"), ("2", "4"))


#: the output stated in math, then printed by code the reader cannot follow (a loop)
_PRINTED = (
    INPUTS + "\n$$ z = [12.14, 22.15] $$\n\n```python\ncontext_vector = torch.zeros(2)\n"
    "for i, x in enumerate(q):\n    context_vector += w[i] * x\nprint(context_vector)\n```\n"
    "```\ntensor([12.14, {last}])\n```\n"
)


def test_a_printout_that_restates_a_claim_comes_from_its_inputs() -> None:
    u = understood(_PRINTED.format(last="22.15"), "markdown")
    printed = next(f for f in u.facts if f.how == "printout")
    stated = next(f for f in u.facts if f.how == "math" and f.role == "output")
    assert printed.computed and printed.derivation is None
    inputs = gather(u.facts)
    assert restated(u.facts, inputs, printed) == default(u.facts, inputs, stated)
    lines = [f.line for f in audit(_PRINTED.format(last="22.15")).findings]
    assert lines == [7, 16]  # the printout repeats the wrong 22.15: the same verdict


def test_a_printout_that_restates_nothing_is_not_judged() -> None:
    u = understood(_PRINTED.format(last="22.16"), "markdown")
    printed = next(f for f in u.facts if f.how == "printout")
    assert restated(u.facts, gather(u.facts), printed) is None
    assert [f.line for f in audit(_PRINTED.format(last="22.16")).findings] == [7]


@pytest.mark.parametrize(
    ("text", "value"),
    [("87%", "0.87"), ("3%", "0.03"), ("12.5%", "0.125"), ("100%", "1"), ("0.5", "0.5")],
)
def test_spec_text_keeps_a_percentage_as_written(text: str, value: str) -> None:
    """A spec reads ``87%`` as 0.87 itself: the claim keeps the author's text."""
    ((w, _),) = literal_numbers(parse(text, normalized=True)) or []
    assert spec_text(w) == text
    assert parse_number(spec_text(w)).value == Fraction(value)
    assert parse_number(spec_text(w)).half_unit == w.half_unit


def test_given_scores_carry_their_minus_inf_as_a_mask() -> None:
    facts = understood("scores = [[3.1, 0.4, -inf], [1.0, 2.0, 0.5]]\n").facts
    (f,) = facts
    assert not complete(f) and complete(f, masked=True)
    inputs = gather(facts)
    (key,) = inputs
    assert inputs[key].masked == ((False, False, True), (False, False, False))
    assert input_mask(Derivation(Start.SCORES, (key,)), inputs) == [
        [True, True, False],
        [True, True, True],
    ]
    assert input_mask(Derivation(Start.QKV, (key, key, key)), inputs) is None


def test_a_row_of_scores_that_names_its_query_is_given_when_no_q_or_k_is() -> None:
    text = "```\nq1 的原始分数：   [2.1, 0.3, 0.1]\n注意力权重：   [0.5, 0.3, 0.2]\n```\n"
    (i,) = gather(understood(text).facts).values()
    assert i.roles == {"scores"} and i.rows == (("2.1", "0.3", "0.1"),)
    with_q = "Q = [[1, 0], [0, 1]]\n\nK = [[1, 0], [0, 1]]\n\n" + text
    assert all("scores" not in i.roles for i in gather(understood(with_q).facts).values())


def test_rows_before_p_v_need_no_v_but_the_problem_is_then_assumed() -> None:
    u = understood("Q = [[1, 2], [0, 1]]\n\nK = [[1, 0], [2, 1]]\n\nWeights = [[0.107, 0.893]]\n")
    inputs = gather(u.facts)
    (claim,) = [f for f in u.facts if f.role == "weights"]
    got = default(u.facts, inputs, claim)
    assert got is not None and got[0].refs[2] == -1 and got[1]  # (assumed: judged if confirmed)


def test_a_score_that_names_its_query_and_key_makes_q_and_k_a_problem() -> None:
    text = (
        "```\nq_2 = [0.5, 0.1, 0.3, 0.2]\n```\n\n"
        "$k_0 = [0.2, 0.8, 0.1, 0.4]$\n\n$k_1 = [0.7, 0.3, 0.5, 0.1]$\n\n"
        "Scores: [0.29, 0.72]\n\n$q_2 \\cdot k_1 = 0.72$\n"
    )
    report = audit(text, path="t.md")
    assert ("wrong-value", "0.72") in {(f.code, f.claimed) for f in report.findings}


def test_a_vector_given_alone_that_is_a_row_of_an_input_restates_it() -> None:
    # (fresh en74: "closest to the Value of math ([5, 6])" is V's row 3, no V of its own)
    text = "$$V = [[1, 2], [3, 4], [5, 6]]$$\n\nThe value vector ($[5, 6]$) again.\n"
    vs = [i for i in gather(understood(text).facts).values() if "v" in i.roles]
    assert [i.rows for i in vs] == [(("1", "2"), ("3", "4"), ("5", "6"))]
    # a vector given with other inputs is a new problem's (dev en20: a single query)
    text = (
        "Input: attention([[1,0],[0,1]],[[1,0],[0,1]],[[1,2],[3,4]])\n\n"
        "Input: attention([[1,0]],[[1,0],[0,1]],[[10,20],[30,40]])\n"
    )
    qs = [i for i in gather(understood(text, "text").facts).values() if "q" in i.roles]
    assert [i.rows for i in qs] == [(("1", "0"), ("0", "1")), (("1", "0"),)]


def test_a_batch_of_identical_items_is_one_item() -> None:
    text = (
        "```python\nq = tf.constant([[[0, 1, 0], [0, 0, 1]], [[0, 1, 0], [0, 0, 1]]])\n"
        "k = tf.constant([[[1, 2, 0], [0, 1, 1]], [[1, 2, 0], [0, 2, 1]]])\n```\n"
    )
    facts = understood(text).facts
    q, k = (next(f for f in facts if f.role == r) for r in "qk")
    assert one_slice(q).dims == (2, 3) and len(one_slice(q).spots) == 6
    assert one_slice(k) is k  # (its items differ: no one problem)
    (got,) = gather(facts).values()
    assert got.rows == (("0", "1", "0"), ("0", "0", "1"))


def test_a_row_said_again_comes_from_the_array_it_repeats() -> None:
    # (fresh zh58: z = […] worked by hand, then z_1 = its first row, z_2 its second)
    text = (
        "$$Q = [[1, 0], [0, 1]]$$\n\n$$K = [[1, 0], [0, 1]]$$\n\n$$V = [[1, 0], [2, 0]]$$\n\n"
        "$$z = [[1.3302, 0], [1.6698, 0]]$$\n\n$$z_2 = [1.6698, 0]$$\n"
    )
    u = understood(text)
    facts = list(u.facts)
    z2 = next(i for i, f in enumerate(facts) if f.name == "z_2")
    z = next(i for i, f in enumerate(facts) if f.name == "z")
    d = Derivation(Start.QKV, (1, 2, 3))
    assert row_restated(facts, {z: d}, z2) == Derivation(Start.QKV, (1, 2, 3), row=1)
    assert row_restated(facts, {}, z2) is None


def test_a_v_written_as_one_column_beside_several_keys_is_one_value_per_key() -> None:
    u = understood("Q = [[1, 0], [0, 1]]\nK = [[1, 0], [0, 1], [1, 1]]\nV = [2, 0, 1]\n", "text")
    inputs = gather(u.facts)
    q, k, v = (next(a for a, i in inputs.items() if r in i.roles) for r in "qkv")
    got = spec_inputs(Derivation(Start.QKV, (q, k, v)), inputs)
    assert got is not None
    data, keys, _, v_width, _ = got
    assert data["V"] == [["2"], ["0"], ["1"]] and v_width == 1 and len(keys) == 3


_EXERCISE = (
    "$$Q = \\begin{{bmatrix}} 1.0 & 0.0 \\\\ 0.0 & 2.0 \\\\ 1.0 & 1.0 \\end{{bmatrix}}, "
    "K = \\begin{{bmatrix}} 1.0 & 0.0 \\\\ 0.0 & 2.0 \\\\ 1.0 & 1.0 \\end{{bmatrix}}, "
    "V = \\begin{{bmatrix}} 10.0 & 0.0 \\\\ 0.0 & 20.0 \\\\ 5.0 & 5.0 \\end{{bmatrix}}$$\n\n"
    "$$\\text{{Output}} = [3.984, 10.028]$$\n\n"
    "## Exercise\n\n"
    "$$\\text{{scores}} = \\begin{{bmatrix}} {scores} \\end{{bmatrix}}$$\n"
)


def test_scores_foreign_to_q_and_k_after_their_output_start_a_new_problem() -> None:
    # no row is its row of Q Kᵀ = [[1,0,1],[0,4,2],[1,2,2]] in any frame: given, not judged
    scores = "2.0 & 5.0 & 1.0 \\\\ 3.0 & 3.0 & 7.0 \\\\ 6.0 & 0.0 & 4.0"
    report = audit(_EXERCISE.format(scores=scores), path="t.md")
    assert not [f for f in report.findings if f.line == 7 and f.severity == "error"]


def test_scores_of_q_and_k_with_a_slip_stay_their_claims() -> None:
    # Q Kᵀ but for one entry: judged against Q and K
    scores = "1.0 & 0.0 & 1.0 \\\\ 0.0 & 4.0 & 2.0 \\\\ 1.0 & 2.0 & 9.0"
    report = audit(_EXERCISE.format(scores=scores), path="t.md")
    assert ("wrong-value", "9.0") in {(f.code, f.claimed) for f in report.findings}


def test_the_vectors_of_a_second_example_are_its_own_matrix() -> None:
    # (k1, k2 again with other numbers: a new example's keys; given again with the same
    # numbers, the same keys)
    text = (
        "Example 1: $q = [1, 0]$, $k1 = [1, 0]$, $k2 = [0, 1]$.\n\n"
        "Example 2: $q = [0, 2]$, $k1 = [1, 1]$, $k2 = [0, 1]$.\n\n"
        "Example 3: $k1 = [1, 1]$, $k2 = [0, 1]$.\n"
    )
    keys = [i.rows for i in gather(understood(text).facts).values() if "k" in i.roles]
    assert keys == [(("1", "0"), ("0", "1")), (("1", "1"), ("0", "1"))]


def test_rows_said_again_after_the_inputs_are_no_inputs_of_their_own() -> None:
    # a run's printout: X, Q, K, V, then the last token's x and q again (rows 2 of them)
    block = "\n".join(
        f"{name}:\n tensor([[ 1.0000,  0.0000],\n        [ 0.0000,  1.0000]])"
        for name in ("Embeddings", "Q", "K", "V")
    )
    text = (
        f"```\n{block}\nEmbedding for last token: tensor([[ 0.0000,  1.0000]])\n"
        "Q for last token: tensor([[ 0.0000,  1.0000]])\n```\n"
    )
    inputs = gather(understood(text).facts)
    assert sorted(len(i.rows) for i in inputs.values()) == [2, 2, 2, 2]


_TWO_HEADS = (
    "$$\nQ_1 = \\begin{bmatrix}2 & 2\\\\1 & 2\\\\3 & 1\\end{bmatrix},\\;\n"
    "K_1 = \\begin{bmatrix}3 & 1\\\\2 & 2\\\\1 & 2\\end{bmatrix},\\;\n"
    "V_1 = \\begin{bmatrix}1 & 1\\\\1 & 3\\\\3 & 3\\end{bmatrix}.\n$$\n\n"
    "$$\nQ_2 = \\begin{bmatrix}3 & 2\\\\2 & 1\\\\2 & 3\\end{bmatrix},\\;\n"
    "K_2 = \\begin{bmatrix}3 & 3\\\\2 & 2\\\\3 & 1\\end{bmatrix},\\;\n"
    "V_2 = \\begin{bmatrix}1 & 2\\\\3 & 3\\\\3 & 4\\end{bmatrix}.\n$$\n\n"
    "With $d_k = 2$:\n\n"
    "$$\n\\text{head}_1 \\approx \\begin{bmatrix} 1.22 & 2.11\\\\ 1.50 & 2.50\\\\ "
    "1.05 & LAST \\end{bmatrix}\n$$\n"
)


@pytest.mark.parametrize(("last", "errors"), [("1.43", 0), ("1.53", 1)])
def test_a_claim_named_by_its_head_comes_from_that_heads_inputs(last: str, errors: int) -> None:
    """``head_1`` after head 2's Q, K, V is head 1's output: judged against Q_1, K_1, V_1."""
    r = audit(_TWO_HEADS.replace("LAST", last))
    assert r.checked == 6
    assert [(f.claimed, f.exact) for f in r.findings] == [("1.53", "1.42799")][:errors]
