"""User functions, inlined where they are called: ``def attention(Q, K, V): ...`` followed
with its parameters bound to the values of the call's arguments.

Only straight-line bodies are followed (assignments, ``print``, one ``return``); a body with a
loop, a branch, a nested function or a call with effects gives ``unknown``, and so do
recursion and calls nested deeper than :data:`MAX_CALLS`.
"""

from __future__ import annotations

import ast
from typing import Final

from symattn.read.symbolic.calls import Evaluator
from symattn.read.symbolic.sym import SEQUENCES, UNKNOWN, Sym

__all__ = ["MAX_CALLS", "Runner", "unpack"]

#: user functions inlined inside one another, at most
MAX_CALLS: Final = 8


class Runner(Evaluator):
    """The evaluator with user functions inlined."""

    def inline(self, fdef: ast.FunctionDef, node: ast.Call, d: int) -> Sym:
        if fdef.name in self.calls or len(self.calls) >= MAX_CALLS:
            return UNKNOWN
        bound = self.bind(fdef.args, node, d)
        if bound is None:
            return UNKNOWN
        saved = self.env
        self.env = {**saved, **bound}
        self.calls.append(fdef.name)
        try:
            return self.body(fdef.body, d)
        finally:
            self.calls.pop()
            self.env = saved

    def bind(self, spec: ast.arguments, node: ast.Call, d: int) -> dict[str, Sym] | None:
        """The parameters bound to the call's arguments (defaults evaluated at the call)."""
        if spec.vararg or spec.kwarg or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        params = [*spec.posonlyargs, *spec.args]
        if len(node.args) > len(params):
            return None
        out: dict[str, Sym] = {}
        for p, a in zip(params, node.args, strict=False):
            out[p.arg] = self.ev(a, d)
        names = {p.arg for p in [*params, *spec.kwonlyargs]}
        for k in node.keywords:
            if k.arg is None or k.arg not in names or k.arg in out:
                return None
            out[k.arg] = self.ev(k.value, d)
        defaults = dict(
            zip(
                [p.arg for p in params][len(params) - len(spec.defaults) :],
                spec.defaults,
                strict=True,
            )
        )
        for p, dflt in zip(spec.kwonlyargs, spec.kw_defaults, strict=True):
            if dflt is not None:
                defaults[p.arg] = dflt
        for p in [*params, *spec.kwonlyargs]:
            if p.arg not in out:
                if p.arg not in defaults:
                    return None
                out[p.arg] = self.ev(defaults[p.arg], d)
        return out

    def body(self, stmts: list[ast.stmt], d: int) -> Sym:
        """Run a straight-line body; the value it returns."""
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.Return):
                return self.ev(stmt.value, d) if stmt.value is not None else UNKNOWN
            if isinstance(stmt, ast.Pass):
                continue
            if isinstance(stmt, ast.Expr):
                if i == 0 and isinstance(stmt.value, ast.Constant):
                    continue  # the docstring
                if not self.printed(stmt.value, d):
                    return UNKNOWN
                continue
            if isinstance(stmt, ast.Assign):
                value = self.ev(stmt.value, d)
                for t in stmt.targets:
                    if not self.store(t, value):
                        return UNKNOWN
                continue
            if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                if not self.store(stmt.target, self.ev(stmt.value, d)):
                    return UNKNOWN
                continue
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                op = ast.BinOp(
                    left=ast.Name(id=stmt.target.id, ctx=ast.Load()), op=stmt.op, right=stmt.value
                )
                self.env[stmt.target.id] = self.ev(ast.copy_location(op, stmt), d)
                continue
            return UNKNOWN  # a loop, a branch, a nested function: not followed
        return UNKNOWN

    def store(self, target: ast.expr, value: Sym) -> bool:
        """Bind ``target`` (a name, or a tuple of names unpacked); False for anything else."""
        if isinstance(target, ast.Name):
            self.env[target.id] = value
            return True
        if isinstance(target, ast.Tuple | ast.List):
            names = [e.id for e in target.elts if isinstance(e, ast.Name)]
            if len(names) != len(target.elts):
                return False
            unpack(self.env, names, value)
            return True
        return False

    def printed(self, call: ast.expr, d: int) -> bool:
        """``print(...)`` in a body: the value of each expression it shows is kept; False for
        any other call (its effects are not followed)."""
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "print"
        ):
            return False
        for arg in call.args:
            parts = (
                [p.value for p in arg.values if isinstance(p, ast.FormattedValue)]
                if isinstance(arg, ast.JoinedStr)
                else [arg]
            )
            for p in parts:
                if id(p) in self.watched and id(p) not in self.shown:
                    self.shown[id(p)] = self.ev(p, d)
        return True


def unpack(env: dict[str, Sym], names: list[str], value: Sym) -> None:
    """``a, b = value``: each name its item, or unknown when the value is no such tuple."""
    items = value.args if value.kind in SEQUENCES else ()
    same = len(items) == len(names)
    for k, n in enumerate(names):
        env[n] = items[k] if same else UNKNOWN
