"""Tests for symattn.engine.result: the result's stages and its text repr."""

from __future__ import annotations

from pathlib import Path

import symattn
from symattn.engine.result import AttentionResult
from symattn.engine.trace import Trace
from symattn.spec import load_spec

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_repr_shows_shape_and_values_like_numpy() -> None:
    result = symattn.scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    text = repr(result)
    assert text.splitlines()[0] == "AttentionResult: 1 query \u00d7 2 keys"
    assert "[[0.8929582, 0.1070418]]" in text and "[[12.140836, 22.140836]]" in text


def test_repr_of_a_spec_run_shows_values_not_the_trace_object() -> None:
    result = load_spec(EXAMPLES / "thinking_machines.toml").run()
    text = repr(result)
    assert text.startswith("AttentionResult: 1 query \u00d7 2 keys\nweights = SoftmaxTensor([")
    assert "object at 0x" not in text


def test_repr_of_batched_heads_names_the_leading_axes() -> None:
    q = [[[[1, 0], [0, 1]]], [[[1, 1], [0, 1]]]]  # (B=2, H=1, L=2, E=2)
    result = symattn.scaled_dot_product_attention(q, q, q)
    assert (
        repr(result).splitlines()[0]
        == "AttentionResult: 2 queries \u00d7 2 keys, batch of 2 \u00d7 1"
    )


def test_repr_of_an_empty_trace_never_raises() -> None:
    assert repr(AttentionResult(Trace())) == "AttentionResult"
