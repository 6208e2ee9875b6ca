"""Tests of symattn.read.symbolic.functions: user functions inlined where they are called."""

from __future__ import annotations

from symattn.read.dataflow import Derivation, Start
from symattn.read.symbolic.scale import Scale

from ..texts import understood

GIVEN = (
    "```python\nimport numpy as np\nQ = np.eye(2) * 0.5\nK = Q.copy()\n"
    "V = np.array([[1.0, 2.0], [3.0, 4.0]])\n"
)


def printed(code: str, printout: str = "[[0.5 0.5]\n [0.5 0.5]]") -> list[Derivation | None]:
    u = understood(GIVEN + code + "\n```\n\n```\n" + printout + "\n```\n")
    return [f.derivation for f in u.facts if not f.given and f.dims]


def test_a_user_attention_function_is_inlined() -> None:
    code = (
        "def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
        "    return e / e.sum(axis=-1, keepdims=True)\n\n"
        "def attention(Q, K, V):\n    d_k = Q.shape[-1]\n    s = Q @ K.T / np.sqrt(d_k)\n"
        "    w = softmax(s)\n    return w @ V, w\n\nout, w = attention(Q, K, V)\nprint(w)"
    )
    (d,) = printed(code)
    assert d is not None and d.start == Start.QKV and d.scale == Scale.root(2)
    assert min(d.refs[:2]) >= 0
    # K is Q's copy: an input of its own, with Q's values
    u = understood(GIVEN + code + "\n```\n")
    values = {
        f.role: [s.written.value for s in f.spots if s is not None] for f in u.facts if f.given
    }
    assert values["k"] == values["q"] == [0.5, 0, 0, 0.5]


def test_parameters_shadow_the_text_names() -> None:
    code = "def scores(a, b):\n    return a @ b.T\n\nprint(scores(K, Q))"
    (d,) = printed(code)
    assert d is not None and d.start == Start.QKV


def test_a_print_inside_a_function_shows_the_call_values() -> None:
    code = "def attend(q, k):\n    s = q @ k.T\n    print(s)\n    return s\n\nattend(Q, K)"
    (d,) = printed(code)
    assert d is not None and d.scale is None


def test_a_function_with_a_branch_is_not_followed() -> None:
    code = (
        "def attention(Q, K, V):\n    s = Q @ K.T\n    if s.max() > 1:\n        s = s / 2\n"
        "    return s\n\nprint(attention(Q, K, V))"
    )
    assert printed(code) == [None]


def test_recursion_is_unknown() -> None:
    code = "def f(x):\n    return f(x)\n\nprint(f(Q) @ K.T)"
    assert printed(code) == [None]


def test_an_unknown_function_is_unknown() -> None:
    assert printed("print(mystery(Q) @ K.T)") == [None]
