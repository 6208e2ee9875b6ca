"""Tests of symattn.read.symbolic.sym: the stage algebra."""

from __future__ import annotations

from symattn.read.symbolic.sym import UNKNOWN, Sym, kind_of, product, role_kind, weights

from .helpers import lit


def test_products_are_stages() -> None:
    x, wq, q, k, v = lit("x", 1), lit("w_q", 2), lit("q", 3), lit("k", 4), lit("v", 5)
    assert product(x, wq).kind == "q"
    assert product(q, Sym("T", (k,))).kind == "scores"
    assert product(k, q).kind == "scores"  # np.dot(K, q): the scores of q
    w = weights(product(q, Sym("T", (k,))))
    assert w.kind == "weights" and w.scale == "1"
    assert product(w, v).kind == "output"


def test_anything_else_is_unknown() -> None:
    assert product(lit("v", 1), lit("v", 2)) == UNKNOWN
    assert weights(lit("v", 1)).kind == "weights"  # softmax of a written array: its scores
    assert weights(UNKNOWN) == UNKNOWN


def test_names_say_stages() -> None:
    assert role_kind("W_q") == "w_q"
    assert role_kind("frobnicate") == ""
    assert kind_of(Sym("T", (lit("k", 1),))) == "k"
