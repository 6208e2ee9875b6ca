"""Tests of symattn.read.symbolic.loops: loops recognised by their shape."""

from __future__ import annotations

import ast

from symattn.config import DEFAULT_LIMITS
from symattn.read.symbolic.functions import Runner
from symattn.read.symbolic.loops import follow_loop
from symattn.read.symbolic.scale import UNSCALED
from symattn.read.symbolic.sym import Sym, SymKind

from .helpers import lit


def run(loop: str, **env: Sym) -> Runner:
    r = Runner(DEFAULT_LIMITS)
    r.env.update(env)
    (node,) = ast.parse(loop).body
    assert isinstance(node, ast.For)
    follow_loop(r, node)
    return r


def test_a_loop_of_dot_products_is_the_scores_of_one_query() -> None:
    x = lit("x", 1)
    r = run(
        "for i, x_i in enumerate(X):\n    s[i] = torch.dot(x_i, q)",
        X=x,
        q=Sym(SymKind.LIT, ref=1, name="x", row=1),
    )
    assert r.env["s"].kind is SymKind.SCORES and r.env["s"].row == 1


def test_a_weighted_sum_is_the_output() -> None:
    w = Sym(
        SymKind.WEIGHTS, (Sym(SymKind.SCORES, (lit("q", 1), lit("x", 2))),), row=0, scale=UNSCALED
    )
    r = run("for i, x_i in enumerate(X):\n    c += w[i] * x_i", X=lit("x", 2), w=w)
    assert r.env["c"].kind is SymKind.OUTPUT


def test_any_other_loop_assigns_nothing() -> None:
    r = run("for i in range(3):\n    s = s * 2", s=lit("x", 1))
    assert r.env["s"] == lit("x", 1)
