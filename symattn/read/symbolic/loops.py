"""Loops the code of a text writes, recognised by their shape (never unrolled): a loop of
dot products over the rows of X is the scores of one query, a loop that adds ``w[i] * x_i``
is the weighted sum. Any other loop leaves what it assigns unknown."""

from __future__ import annotations

import ast

from symattn.read.python import expr_text
from symattn.read.symbolic.interpreter import Interpreter
from symattn.read.symbolic.sym import QUERYLIKE, UNKNOWN, Sym, SymKind, kind_of

__all__ = ["follow_loop"]


def follow_loop(w: Interpreter, node: ast.For) -> None:
    """``for i, x_i in enumerate(X): s[i] = torch.dot(x_i, q)`` (the scores of ``q``) and
    ``c += w[i] * x_i`` (the weighted sum)."""
    it = node.iter
    if not (
        isinstance(it, ast.Call)
        and expr_text(it.func) == "enumerate"
        and it.args
        and isinstance(node.target, ast.Tuple)
        and len(node.target.elts) == 2
    ):
        return
    over = w.ev(it.args[0])
    item = node.target.elts[1]
    if not isinstance(item, ast.Name) or kind_of(over) is not SymKind.X or over.row is not None:
        return
    for stmt in node.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            t = stmt.targets[0]
            v = stmt.value
            if (
                isinstance(t, ast.Subscript)
                and isinstance(t.value, ast.Name)
                and isinstance(v, ast.Call)
            ):
                if expr_text(v.func).rsplit(".", 1)[-1] == "dot" and len(v.args) == 2:
                    other = next(
                        (a for a in v.args if not (isinstance(a, ast.Name) and a.id == item.id)),
                        None,
                    )
                    q = w.ev(other) if other is not None else UNKNOWN
                    if kind_of(q) in QUERYLIKE and q.row is not None:
                        w.env[t.value.id] = Sym(SymKind.SCORES, (q, over), row=q.row)
        if (
            isinstance(stmt, ast.AugAssign)
            and isinstance(stmt.op, ast.Add)
            and isinstance(stmt.target, ast.Name)
        ):
            v = stmt.value
            if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult):
                names = {expr_text(v.left), expr_text(v.right)}
                if item.id in names:
                    w_node = v.left if expr_text(v.right) == item.id else v.right
                    if isinstance(w_node, ast.Subscript):
                        p = w.ev(w_node.value)
                        if p.kind is SymKind.WEIGHTS:
                            w.env[stmt.target.id] = Sym(
                                SymKind.OUTPUT, (p, over), row=p.row, scale=p.scale
                            )
