"""Entry points of symattn.engine.attention that start later or elsewhere than Q, K, V:
a given score matrix, given scaled scores, cross-attention (queries from another sequence)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symattn.engine import (
    attention_from_scores,
    cross_attention,
    multi_head_attention,
    scaled_dot_product_attention,
    self_attention,
)
from symattn.errors import InputError, ShapeError
from symattn.exact import inv_sqrt

Q = [[1, 2], [0, 1]]
K = [[1, 2], [0, 1], [1, 1]]
V = [[10, 20], [30, 40], [50, 60]]


def _scores() -> list[list[Fraction]]:
    return [[sum(Fraction(a) * b for a, b in zip(q, k, strict=True)) for k in K] for q in Q]


def test_scores_with_d_k_give_the_same_weights_and_output_as_q_and_k() -> None:
    want = scaled_dot_product_attention(Q, K, V)
    got = attention_from_scores(_scores(), V, d_k=2)
    assert (got.weights.evalf(30) == want.weights.evalf(30)).all()
    assert (got.output.evalf(30) == want.output.evalf(30)).all()
    assert got.d_k == 2 and got.scale == want.scale
    assert got.start == "scores" and want.start == "qkv"


def test_scores_with_a_scale_multiply() -> None:
    want = scaled_dot_product_attention(Q, K, V, scale="0.5")
    got = attention_from_scores(_scores(), V, scale="0.5")
    assert (got.output.evalf(25) == want.output.evalf(25)).all()


def test_scale_one_means_plain_softmax_of_the_scores() -> None:
    got = attention_from_scores([[2, 1, 0]], [[1], [0], [0]], scale=1)
    e = np.exp([2.0, 1.0, 0.0])
    assert float(got.weights.to_numpy()[0, 0]) == pytest.approx(e[0] / e.sum(), rel=1e-15)


def test_given_scaled_scores_are_the_exponents() -> None:
    scaled = [[2.5, 1.0]]
    got = attention_from_scores(scaled, [[10, 20], [30, 40]], scaled=True)
    want = scaled_dot_product_attention(
        [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]], scale="0.5"
    )
    assert (got.weights.evalf(30) == want.weights.evalf(30)).all()
    assert got.start == "scaled" and got.scale.p == 1 and got.scale.is_rational and got.d_k is None


def test_masks_apply_to_given_scores() -> None:
    got = attention_from_scores([[1, 2, 0], [0, 1, 1]], [[1], [2], [3]], is_causal=True, scale=1)
    assert got.weights.exact()[0].tolist() == [1, 0, 0]
    assert got.weights.rational((1, 2)) == 0
    boolean = attention_from_scores(
        [[1, 2, 0]], [[1], [2], [3]], attn_mask=[[True, False, True]], scale=1
    )
    assert boolean.weights.rational((0, 1)) == 0


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({}, InputError),
        ({"d_k": 2, "scale": 1}, InputError),
        ({"scaled": True, "d_k": 2}, InputError),
        ({"d_k": 0}, InputError),
        ({"d_k": -3}, InputError),
    ],
)
def test_scores_need_exactly_one_way_of_scaling(kw: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        attention_from_scores(_scores(), V, **kw)  # type: ignore[arg-type]


def test_scores_and_values_must_fit() -> None:
    with pytest.raises(ShapeError, match="3 columns"):
        attention_from_scores(_scores(), [[1], [2]], d_k=2)


def test_labels_are_checked_against_the_score_matrix() -> None:
    r = attention_from_scores(_scores(), V, d_k=2, query_labels=["a", "b"], key_labels="xyz")
    assert r.query_labels == ("a", "b") and r.key_labels == ("x", "y", "z")
    with pytest.raises(ShapeError):
        attention_from_scores(_scores(), V, d_k=2, query_labels=["a"])


X_Q = [[1, 0], [Fraction(1, 2), 1]]
X = [[1, 2], [0, 1], [2, 0]]
W_Q = [[1, 0], [1, 1]]
W_K = [[0, 1], [1, 0]]
W_V = [[2, 0], [0, 3]]


def _matmul(a: list[list[object]], b: list[list[object]]) -> list[list[Fraction]]:
    return [
        [
            sum((Fraction(x) * Fraction(y) for x, y in zip(row, col, strict=True)), Fraction(0))
            for col in zip(*b, strict=True)
        ]
        for row in a
    ]


def test_cross_attention_projects_queries_from_their_own_sequence() -> None:
    got = cross_attention(X_Q, X, W_Q, W_K, W_V, query_labels=["p", "q"], key_labels="abc")
    want = scaled_dot_product_attention(_matmul(X_Q, W_Q), _matmul(X, W_K), _matmul(X, W_V))
    assert (got.output.evalf(30) == want.output.evalf(30)).all()
    assert got.query.shape == (2, 2) and got.key.shape == (3, 2)
    assert got.start == "x" and got.query_labels == ("p", "q")
    names = [s.name for s in got.trace if s.op == "input"]
    assert names[:2] == ["X", "X_q"]


def test_self_attention_is_cross_attention_of_a_sequence_with_itself() -> None:
    a = self_attention(X, W_Q, W_K, W_V)
    b = cross_attention(X, X, W_Q, W_K, W_V)
    assert (a.output.evalf(30) == b.output.evalf(30)).all()


def test_multi_head_cross_attention() -> None:
    wq = [[1, 0, 1, 0], [0, 1, 0, 1]]
    wk = [[1, 1, 0, 0], [0, 0, 1, 1]]
    wv = [[1, 2, 3, 4], [4, 3, 2, 1]]
    got = multi_head_attention(X, wq, wk, wv, num_heads=2, x_q=X_Q, scale=inv_sqrt(2))
    heads = []
    for h in range(2):
        cols = slice(2 * h, 2 * h + 2)
        q = [row[cols] for row in _matmul(X_Q, wq)]
        k = [row[cols] for row in _matmul(X, wk)]
        v = [row[cols] for row in _matmul(X, wv)]
        heads.append(scaled_dot_product_attention(q, k, v).output.evalf(30))
    want = np.concatenate(heads, axis=-1)
    assert (got.output.evalf(30) == want).all()


def test_cross_attention_shape_errors_name_the_sequence() -> None:
    with pytest.raises(ShapeError, match="X_q has width 3"):
        cross_attention([[1, 2, 3]], X, W_Q, W_K, W_V)
