"""Tests of symattn.present.view: one 2-D attention inside a result."""

from __future__ import annotations

import numpy as np

from symattn import attention_from_scores, multi_head_attention, scaled_dot_product_attention
from symattn.present.view import is_multi_head, views_of


def test_a_plain_result_is_one_view() -> None:
    r = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    (v,) = views_of(r, ("q",), ("a", "b"))
    assert v.prefix == () and v.tag == "" and v.sym("s", "1,2") == "s_{1,2}"
    assert v.q_step is not None and v.q_step.name == "Q" and v.k_step is not None
    assert v.V.tolist() == [[10, 20], [30, 40]] and v.scores.tolist() == [[5, 2]]
    assert v.active(0) == [0, 1] and not v.has_mask and not v.starts_at_scores


def test_batch_items_are_tagged_in_brackets() -> None:
    q = np.arange(12).reshape(2, 3, 2) / 4
    r = scaled_dot_product_attention(q, q, q, is_causal=True)
    views = views_of(r, ("a", "b", "c"), ("a", "b", "c"))
    assert [v.prefix for v in views] == [(0,), (1,)]
    assert [v.tag for v in views] == ["^{[1]}", "^{[2]}"]
    assert views[1].Q.tolist() == (q[1]).tolist()
    assert views[0].active(0) == [0] and views[0].is_masked(0, 2)


def test_heads_are_tagged_in_parentheses() -> None:
    x = np.eye(3)
    r = multi_head_attention(x, np.eye(3, 4), np.eye(3, 4), np.eye(3, 4), num_heads=2)
    assert is_multi_head(r)
    views = views_of(r, ("a", "b", "c"), ("a", "b", "c"))
    assert [v.tag for v in views] == ["^{(1)}", "^{(2)}"]
    assert views[1].sym("Q") == "Q^{(2)}" and views[1].output_step.name == "head_outputs"
    assert views[1].Q.shape == (3, 2)


def test_an_example_that_starts_at_the_scores() -> None:
    r = attention_from_scores([[1, 2]], [[1, 0], [0, 1]], d_k=4)
    (v,) = views_of(r, ("q",), ("a", "b"))
    assert v.starts_at_scores and not v.starts_scaled and v.scores.tolist() == [[1, 2]]
    r = attention_from_scores([[1, 2]], [[1, 0], [0, 1]], scaled=True)
    (v,) = views_of(r, ("q",), ("a", "b"))
    assert v.starts_at_scores and v.starts_scaled and v.scores_step is None
