"""Tests of symattn.read.symbolic.interpreter: expressions followed, and their bounds."""

from __future__ import annotations

import ast
from fractions import Fraction

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.read.symbolic.functions import Runner
from symattn.read.symbolic.interpreter import MAX_DEPTH, NotFollowedDeep, OutOfSteps
from symattn.read.symbolic.scale import UNSCALED, Scale
from symattn.read.symbolic.sym import Sym, SymKind, collapse, exact

from .helpers import lit, value


def test_arithmetic_is_exact() -> None:
    assert value("1 / 3 + 0.1").value == Fraction(13, 30)
    assert value("4 ** 0.5").value == 2
    r = value("2 ** 0.5")
    assert r.kind is SymKind.ROOT and r.scale == Scale.root(2)  # irrational: it stands for a scale


def test_broadcasting_and_slicing() -> None:
    a = exact(value("(m[:, None] * m)[1]", m="np.array([1, 2])"))
    assert a is not None and a.shape == (2,) and list(a.data) == [2, 4]


def test_a_comprehension_over_a_literal_range() -> None:
    a = exact(value("np.array([[i + j for j in range(3)] for i in range(2)])"))
    assert a is not None and a.shape == (2, 3) and list(a.data) == [0, 1, 2, 1, 2, 3]


def test_a_comprehension_of_the_rows_of_a_stage_is_that_stage() -> None:
    s = Sym(SymKind.SCORES, (lit("q", 1), lit("k", 2)))
    rows = Sym(
        SymKind.LIST, tuple(Sym(SymKind.WEIGHTS, (s,), row=i, scale=UNSCALED) for i in range(2))
    )
    assert collapse(rows) == Sym(SymKind.WEIGHTS, (s,), scale=UNSCALED)
    assert collapse(Sym(SymKind.LIST, rows.args[::-1])).kind is SymKind.LIST  # rows out of order


def test_the_shape_of_a_literal() -> None:
    assert value("m.shape[-1]", m="np.zeros((2, 5))").value == 5


def test_unknown_names_are_unknown() -> None:
    assert value("np.random.rand(2) * 2").kind is SymKind.UNKNOWN
    assert value("x + 1").kind is SymKind.UNKNOWN


def test_a_deep_expression_is_not_followed() -> None:
    r = Runner(DEFAULT_LIMITS)
    tree = ast.parse("-" * (MAX_DEPTH + 5) + "1", mode="eval").body
    with pytest.raises(NotFollowedDeep):
        r.ev(tree)


def test_each_statement_has_a_budget_of_steps() -> None:
    r = Runner(DEFAULT_LIMITS)
    expr = "[[i * j for j in range(200)] for i in range(200)]"  # 40 000 products
    with pytest.raises(OutOfSteps):
        r.ev(ast.parse(expr, mode="eval").body)
    r.reset()
    assert r.ev(ast.parse("1 + 1", mode="eval").body).value == 2


def test_a_comprehension_of_dot_products_is_the_scores_of_one_query() -> None:
    q = Sym(SymKind.LIT, ref=1, name="q", row=1)
    k = value("np.eye(2)")
    got = value("[q @ k for k in K]", q=q, K=Sym(SymKind.LIT, ref=2, name="k", array=k.array))
    assert got.kind is SymKind.SCORES and got.row == 1 and got.args[1].ref == 2
    kk = Sym(SymKind.LIT, ref=2, name="k", array=k.array)
    assert value("[q @ K[i] for i in range(1)]", q=q, K=kk).kind is SymKind.LIST  # not every key
