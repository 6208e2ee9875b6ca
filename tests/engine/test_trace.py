from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest

import symattn
from symattn.engine.trace import OPS, SCHEMA, Trace

Q1, K1, V1 = [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]]


def test_steps_in_order_with_ordered_inputs() -> None:
    r = symattn.scaled_dot_product_attention(Q1, K1, V1)
    ops = [(s.op, s.name) for s in r.trace]
    assert ops == [
        ("input", "Q"),
        ("input", "K"),
        ("input", "V"),
        ("transpose", "K^T"),
        ("matmul", "scores"),
        ("sqrt", "sqrt_d_k"),
        ("divide", "scaled_scores"),
        ("exp", "exp_scores"),
        ("sum", "exp_sums"),
        ("softmax", "weights"),
        ("matmul", "output"),
    ]
    scores = r.trace.get("scores")
    assert [s.name for s in r.trace.operands(scores)] == ["Q", "K^T"]  # ordered, not a set
    assert r.trace.get("scaled_scores").inputs == (scores.index, r.trace.get("sqrt_d_k").index)


def test_steps_are_frozen_and_trace_is_append_only() -> None:
    r = symattn.scaled_dot_product_attention(Q1, K1, V1)
    step = r.trace[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        step.attrs["x"] = 1  # type: ignore[index]
    assert isinstance(r.trace.steps, tuple)
    with pytest.raises(ValueError, match="unknown trace operation"):
        Trace().append("eval", "x", (), None)


def test_terms_expand_one_dot_product() -> None:
    r = symattn.scaled_dot_product_attention(Q1, K1, V1)
    terms = r.trace.terms(r.trace.get("scores"), (0, 0))
    assert [(t.left, t.right) for t in terms] == [(1, 1), (2, 2)]  # 1×1 + 2×2 = 5
    out_terms = r.trace.terms(r.trace.get("output"), (0, 1))
    assert [t.right for t in out_terms] == [20, 40]
    assert [t.left_at for t in out_terms] == [
        (0, 0),
        (0, 1),
    ]  # weights are looked up, not rounded here
    with pytest.raises(symattn.InputError, match="not a matrix product"):
        r.trace.terms(r.trace.get("exp_scores"), (0, 0))


def test_terms_with_batch_broadcast() -> None:
    r = symattn.scaled_dot_product_attention([[[1, 0]], [[0, 1]]], [[1, 2], [3, 4]], [[1], [2]])
    terms = r.trace.terms(r.trace.get("scores"), (1, 0, 1))
    assert [(t.left, t.right) for t in terms] == [(0, 3), (1, 4)]


def test_json_export_is_versioned_and_serialisable() -> None:
    r = symattn.self_attention(
        [[0.5, 1], [1, 0]],
        [[1, 0], [0, 1]],
        [[1, 0], [0, 1]],
        [[1, 0], [0, 1]],
        attn_mask=[[True, False], [True, True]],
        labels=["a", "b"],
    )
    data = json.loads(json.dumps(r.to_json(digits=6)))
    assert data["schema"] == SCHEMA
    assert data["query_labels"] == ["a", "b"]
    steps = {s["name"]: s for s in data["steps"]}
    assert steps["masked_scores"]["approx"][0][1] == "-Infinity"
    assert steps["attn_mask"]["exact"] == [[True, False], [True, True]]
    assert steps["weights"]["exact"][0] == ["1", "0"]
    assert steps["sqrt_d_k"]["attrs"]["d_k"] == "2"
    assert all(s["op"] in OPS for s in data["steps"])


def test_json_omits_exact_forms_of_large_steps() -> None:
    r = symattn.scaled_dot_product_attention([[1, 2]] * 3, [[1, 2]] * 3, [[1]] * 3)
    data = r.to_json(exact_limit=2)
    assert "exact" not in data["steps"][4]
    assert Fraction(data["steps"][4]["approx"][0][0]) == 5
