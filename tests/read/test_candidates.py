"""Tests of symattn.read.candidates: the derivations a claim may come from, likeliest first."""

from __future__ import annotations

from symattn.read.candidates import alternatives, nearest, projected
from symattn.read.dataflow import Derivation, Start
from symattn.read.inputs import Input, gather
from symattn.read.roles import RoleName

from .texts import understood

#: a decoder's states X_q, an encoder's X, and the three weights (no row labels)
CROSS = (
    "X_q = [[1, 0, 1], [0, 1, 1]]\n\nX = [[1, 0, 0], [0, 1, 0], [1, 1, 1]]\n\n"
    "W_Q = [[1, 0], [0, 1], [1, 1]]\n\nW_K = [[1, 0], [0, 1], [0.5, 0.5]]\n\n"
    "W_V = [[2, 0], [0, 2], [1, 1]]\n\n"
)


def _setup() -> tuple[dict[int, Input], int, int, tuple[int, ...]]:
    inputs = gather(understood(CROSS).facts)
    xs = sorted(k for k, i in inputs.items() if RoleName.X in i.roles)
    ws = tuple(next(k for k, i in inputs.items() if r in i.roles) for r in ("w_q", "w_k", "w_v"))
    return inputs, xs[0], xs[1], ws


def test_a_matrix_of_embeddings_named_by_its_sequence_is_an_input() -> None:
    inputs, xq, x, _ = _setup()
    assert inputs[xq].rows == (("1", "0", "1"), ("0", "1", "1"))
    assert nearest(inputs, (RoleName.X,), 10**9) == [x, xq]


def test_the_query_side_and_the_key_side_may_come_from_different_x() -> None:
    inputs, xq, x, ws = _setup()
    d = Derivation(Start.X, (x, *ws))
    got = list(alternatives(inputs, {}, 10**9, None, d, True))
    cross = Derivation(Start.X, (x, *ws, xq))
    assert cross in got and projected(cross) == (xq, x, *ws)
    assert Derivation(Start.X, (xq, *ws, x)) in got  # (the other way round, tried too)
    assert Derivation(Start.X, (x, *ws), True) in got  # (the weights transposed)
    assert projected(d) == (x, x, *ws)
    # (the default's X first: its own readings before the cross ones)
    xw = [a for a in got if a.start is Start.X]
    assert xw[0].refs == d.refs and xw[0].w_t


def test_given_q_k_v_are_candidates_beside_x_w() -> None:
    text = CROSS + "Q = [[2, 1], [1, 2]]\n\nK = [[1, 0], [0, 1], [1.5, 1.5]]\n\n"
    text += "V = [[2, 0], [0, 2], [3, 3]]\n\n"
    inputs = gather(understood(text).facts)
    q, k, v = (next(a for a, i in inputs.items() if r in i.roles) for r in "qkv")
    d = Derivation(Start.QKV, (q, k, v))
    got = list(alternatives(inputs, {}, 10**9, None, d, True))
    assert any(a.start is Start.X and len(a.refs) == 5 for a in got)
    assert d not in got
