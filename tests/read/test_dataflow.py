"""Tests of symattn.read.dataflow: what code computes, read symbolically (never run)."""

from __future__ import annotations

import pytest

from symattn.read.dataflow import Derivation

from .texts import understood

HEAD = (
    "```python\nimport numpy as np\nX = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])\n"
    "W_q = np.array([[1.0, 0.0], [0.0, 1.0]])\nW_k = np.array([[1.0, 0.0], [0.0, 1.0]])\n"
    "W_v = np.array([[1.0, 2.0], [3.0, 4.0]])\n"
)


def derivation_of_printed(code: str) -> Derivation | None:
    text = HEAD + code + "\n```\n\n```\n[[0.5 0.5]]\n```\n"
    u = understood(text)
    (claim,) = [f for f in u.facts if not f.given and f.dims]
    return claim.derivation


@pytest.mark.parametrize(
    ("code", "start", "scale", "causal", "row"),
    [
        (
            "Q = X @ W_q\nK = X @ W_k\nV = X @ W_v\nS = Q @ K.T / np.sqrt(2)\nprint(S)",
            "x",
            "sqrt:2",
            False,
            None,
        ),
        (
            # K's width is known exactly (X @ W_k is followed): 2
            "Q = X @ W_q\nK = X @ W_k\nS = Q @ K.T / K.shape[-1] ** 0.5\nprint(S)",
            "x",
            "sqrt:2",
            False,
            None,
        ),
        ("Q = X @ W_q\nK = X @ W_k\nS = (Q @ K.T) * 0.5\nprint(S)", "x", "inv:1/2", False, None),
        ("Q = X @ W_q\nK = X @ W_k\nq = Q[1]\nS = q @ K.T\nprint(S)", "x", "", False, 1),
        (
            "Q = X @ W_q\nK = X @ W_k\nS = Q @ K.T\nS = S.masked_fill(torch.tril(torch.ones(3, 3)) == 0, float('-inf'))\nprint(torch.softmax(S, dim=-1))",
            "x",
            "1",
            True,
            None,
        ),
    ],
)
def test_derivations(code: str, start: str, scale: str, causal: bool, row: int | None) -> None:
    d = derivation_of_printed(code)
    assert d is not None
    assert (d.start, d.scale, d.causal, d.row) == (start, scale, causal, row)


def test_a_user_softmax_is_a_softmax() -> None:
    code = (
        "def softmax(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n"
        "Q = X @ W_q\nK = X @ W_k\nprint(softmax(Q @ K.T))"
    )
    d = derivation_of_printed(code)
    assert d is not None and d.scale == "1"


def test_output_needs_its_values() -> None:
    code = "Q = X @ W_q\nK = X @ W_k\nV = X @ W_v\nprint(torch.softmax(Q @ K.T, dim=-1) @ V)"
    d = derivation_of_printed(code)
    assert d is not None and len(d.refs) == 4 and d.refs[3] >= 0


def test_anything_else_is_unknown() -> None:
    code = "Q = X @ W_q\nK = some_function(X)\nprint(Q @ K.T)"
    assert derivation_of_printed(code) is None


def test_loop_of_dot_products_is_the_scores_of_one_query() -> None:
    text = (
        "```python\ninputs = torch.tensor([[1.0, 0.0], [0.0, 1.0]])\nquery = inputs[1]\n"
        "attn_scores_2 = torch.empty(inputs.shape[0])\nfor i, x_i in enumerate(inputs):\n"
        "    attn_scores_2[i] = torch.dot(x_i, query)\nprint(attn_scores_2)\n```\n\n"
        "```\ntensor([0., 1.])\n```\n"
    )
    u = understood(text)
    (claim,) = [f for f in u.facts if f.derivation is not None]
    assert claim.derivation is not None and claim.derivation.row == 1
