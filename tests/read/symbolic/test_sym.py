"""Tests of symattn.read.symbolic.sym: the stage algebra."""

from __future__ import annotations

from symattn.read.notations.roles import RoleName
from symattn.read.symbolic.scale import UNSCALED
from symattn.read.symbolic.sym import (
    KEYLIKE,
    STAGES,
    UNKNOWN,
    VALUELIKE,
    Sym,
    SymKind,
    kind_of,
    product,
    projection_of,
    role_kind,
    weights,
)

from .helpers import lit


def test_products_are_stages() -> None:
    x, wq, q, k, v = lit("x", 1), lit("w_q", 2), lit("q", 3), lit("k", 4), lit("v", 5)
    assert product(x, wq).kind is SymKind.Q
    assert product(q, Sym(SymKind.T, (k,))).kind is SymKind.SCORES
    assert product(k, q).kind is SymKind.SCORES  # np.dot(K, q): the scores of q
    w = weights(product(q, Sym(SymKind.T, (k,))))
    assert w.kind is SymKind.WEIGHTS and w.scale == UNSCALED
    assert product(w, v).kind is SymKind.OUTPUT


def test_anything_else_is_unknown() -> None:
    assert product(lit("v", 1), lit("v", 2)) == UNKNOWN
    assert weights(lit("v", 1)).kind is SymKind.WEIGHTS  # softmax of a written array: its scores
    assert weights(UNKNOWN) == UNKNOWN


def test_names_say_stages() -> None:
    assert role_kind("W_q") == "w_q"
    assert role_kind("frobnicate") == ""
    assert kind_of(Sym(SymKind.T, (lit("k", 1),))) == "k"


def test_kinds_of_inputs_and_stages_are_their_roles() -> None:
    # the kind of a computed value is the role it reproduces: same spelling as RoleName
    roles = {r.value for r in RoleName}
    assert {k for k in SymKind if k.value in roles} >= STAGES | KEYLIKE | VALUELIKE
    assert kind_of(lit("w_o", 1)) is None  # a literal whose name says no kind of value
    assert kind_of(lit("w_q", 1)) is SymKind.W_Q
    assert projection_of("w_k") is SymKind.K and projection_of("q") is None
