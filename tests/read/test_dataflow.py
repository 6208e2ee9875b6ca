"""Tests of symattn.read.dataflow: what code computes, read symbolically (never run)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.read.dataflow import Derivation, Start
from symattn.read.symbolic.scale import UNSCALED, Scale

from ..conftest import english
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
            Start.X,
            Scale.root(2),
            False,
            None,
        ),
        (
            # K's width is known exactly (X @ W_k is followed): 2
            "Q = X @ W_q\nK = X @ W_k\nS = Q @ K.T / K.shape[-1] ** 0.5\nprint(S)",
            Start.X,
            Scale.root(2),
            False,
            None,
        ),
        (
            "Q = X @ W_q\nK = X @ W_k\nS = (Q @ K.T) * 0.5\nprint(S)",
            Start.X,
            Scale.times(Fraction(1, 2)),
            False,
            None,
        ),
        ("Q = X @ W_q\nK = X @ W_k\nq = Q[1]\nS = q @ K.T\nprint(S)", Start.X, None, False, 1),
        (
            "Q = X @ W_q\nK = X @ W_k\nS = Q @ K.T\nS = S.masked_fill(torch.tril(torch.ones(3, 3)) == 0, float('-inf'))\nprint(torch.softmax(S, dim=-1))",
            Start.X,
            UNSCALED,
            True,
            None,
        ),
    ],
)
def test_derivations(
    code: str, start: Start, scale: Scale | None, causal: bool, row: int | None
) -> None:
    d = derivation_of_printed(code)
    assert d is not None
    assert (d.start, d.scale, d.causal, d.row) == (start, scale, causal, row)


def test_a_user_softmax_is_a_softmax() -> None:
    code = (
        "def softmax(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n"
        "Q = X @ W_q\nK = X @ W_k\nprint(softmax(Q @ K.T))"
    )
    d = derivation_of_printed(code)
    assert d is not None and d.scale == UNSCALED


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


BUILT = (
    "```python\nimport torch\nQ = torch.eye(3) * 0.5\nK = torch.arange(9.0).reshape(3, 3) / 4\n"
    "V = torch.ones(3, 2)\n"
)


def printed_derivations(code: str, printout: str) -> list[Derivation | None]:
    u = understood(BUILT + code + "\n```\n\n```\n" + printout + "\n```\n")
    return [f.derivation for f in u.facts if not f.given and f.dims]


SQUARE = "[[0.3 0.3 0.4]\n [0.3 0.3 0.4]\n [0.3 0.3 0.4]]"
ROW = "[0.3 0.3 0.4]"


@pytest.mark.parametrize(
    ("code", "printout", "scale", "causal", "row"),
    [
        # masking by multiplying with tril, renormalised by the row sums
        (
            "w = torch.softmax(Q @ K.T, dim=-1)\nw = w * torch.tril(torch.ones(3, 3))\n"
            "w = w / w.sum(dim=-1, keepdim=True)\nprint(w)",
            SQUARE,
            UNSCALED,
            True,
            None,
        ),
        # masked_fill with the future keys (triu, diagonal=1), told from the mask's values
        (
            "mask = torch.triu(torch.ones(3, 3), diagonal=1).bool()\n"
            "s = (Q @ K.T).masked_fill(mask, float('-inf'))\nprint(torch.softmax(s, dim=-1))",
            SQUARE,
            UNSCALED,
            True,
            None,
        ),
        # where(tril, scores, -inf)
        (
            "s = torch.where(torch.tril(torch.ones(3, 3)) == 1, Q @ K.T, -torch.inf)\n"
            "print(torch.softmax(s / 2, dim=-1))",
            SQUARE,
            Scale.divide(2),
            True,
            None,
        ),
        # a comprehension of softmax rows is the softmax of the whole
        (
            "S = Q @ K.T\nW = torch.stack([torch.softmax(S[i], dim=-1) for i in range(3)])\nprint(W)",
            SQUARE,
            UNSCALED,
            False,
            None,
        ),
        # broadcasting and .sum(dim=0): the weighted sum of the rows of V
        (
            "w = torch.softmax(Q[1] @ K.T, dim=-1)\nout = (w[:, None] * V).sum(dim=0)\nprint(out)",
            "[0.5 0.5]",
            UNSCALED,
            False,
            1,
        ),
        # the stable softmax written out
        (
            "s = Q @ K.T / 3 ** 0.5\ne = torch.exp(s - s.max(dim=-1, keepdim=True).values)\n"
            "print(e / e.sum(dim=-1, keepdim=True))",
            SQUARE,
            Scale.root(3),
            False,
            None,
        ),
    ],
)
def test_followed(
    code: str, printout: str, scale: Scale | None, causal: bool, row: int | None
) -> None:
    (d,) = printed_derivations(code, printout)
    assert d is not None and d.start == Start.QKV
    assert (d.scale, d.causal, d.row) == (scale, causal, row)


def test_a_mask_of_the_past_is_not_causal() -> None:
    """``masked_fill(tril, -inf)`` hides the past, not the future: not a causal mask."""
    code = (
        "mask = torch.tril(torch.ones(3, 3)).bool()\n"
        "s = (Q @ K.T).masked_fill(mask, float('-inf'))\nprint(torch.softmax(s, dim=-1))"
    )
    assert printed_derivations(code, SQUARE) == [None]


def test_a_loop_with_a_data_dependent_branch_is_unknown() -> None:
    code = (
        "s = Q @ K.T\nfor i in range(3):\n    if s[i].max() > 1:\n        s = s / 2\n"
        "print(torch.softmax(s, dim=-1))"
    )
    assert printed_derivations(code, SQUARE) == [None]


def test_a_decided_branch_is_followed() -> None:
    code = "if __name__ == '__main__':\n    print(torch.softmax(Q @ K.T, dim=-1))"
    (d,) = printed_derivations(code, SQUARE)
    assert d is not None and d.scale == UNSCALED


def test_arrays_the_code_builds_are_inputs() -> None:
    u = understood(
        BUILT + "print(torch.softmax(Q @ K.T, dim=-1))\n```\n\n```\n" + SQUARE + "\n```\n"
    )
    given = {f.name: f for f in u.facts if f.given}
    assert {"Q", "K", "V"} <= set(given)
    assert [s.written.text for s in given["K"].spots if s is not None][:3] == ["0", "0.25", "0.5"]
    assert given["Q"].dims == (3, 3) and given["V"].dims == (3, 2)


def test_a_deep_expression_is_not_followed_alone() -> None:
    deep = "x = " + "-" * 3000 + "1\n"
    u = understood(
        BUILT + deep + "print(torch.softmax(Q @ K.T, dim=-1))\n```\n\n```\n" + SQUARE + "\n```\n"
    )
    assert [s.reason.key for s in u.reading.skipped] == ["not-followed-deep"]
    assert [english(s.reason) for s in u.reading.skipped] == ["not followed (nested too deeply)"]
    (d,) = [f.derivation for f in u.facts if not f.given and f.dims]
    assert d is not None


def test_a_comprehension_of_dot_products_is_printed_as_scores() -> None:
    code = "q = Q[1]\nscores = torch.tensor([q @ k for k in K])\nprint(scores)"
    (d,) = printed_derivations(code, "[0.3 0.3 0.4]")
    assert d is not None and d.start == Start.QKV and d.row == 1


def test_a_literal_given_again_under_another_input_name_is_that_input() -> None:
    code = "```python\nQ = np.array([[1, 2], [0, 1]])\nK = np.array([[1, 0], [2, 1]])\nV = K\n```\n"
    u = understood(code + "\nWeights = [[0.107, 0.893], [0.330, 0.670]]\n")
    given = {f.role: [s.written.value for s in f.spots if s] for f in u.facts if f.given}
    assert given["v"] == given["k"] == [1, 0, 2, 1]


def test_a_row_selected_from_a_literal_is_no_copy_of_it() -> None:
    code = "```python\ninputs = np.array([[1, 2], [0, 1]])\nquery = inputs[1]\n```\n"
    u = understood(code)
    assert [f.role for f in u.facts if f.given] == ["x"]


def test_the_body_of_a_script_s_main_is_followed_in_place() -> None:
    code = (
        "```python\nimport torch\n\ndef main():\n"
        "    Q = torch.tensor([[1.0, 0.0], [0.0, 1.0]])\n    K = Q.clone()\n"
        "    print(torch.softmax(Q @ K.T, dim=-1))\n\n"
        "if __name__ == '__main__':\n    main()\n```\n\n```\n[[0.7311 0.2689]\n [0.2689 0.7311]]\n```\n"
    )
    u = understood(code)
    assert {f.role for f in u.facts if f.given} >= {"q", "k"}
    (d,) = [f.derivation for f in u.facts if not f.given and f.dims]
    assert d is not None and d.scale == UNSCALED


def test_a_function_called_with_arguments_is_not_a_program() -> None:
    code = "```python\ndef main(Q):\n    K = Q.clone()\n    return K\n\nmain(torch.eye(2))\n```\n"
    u = understood(code)
    assert not [f for f in u.facts if f.given]
