"""What Python statements say, read from their syntax trees (never run).

- :class:`Assigned`: ``Q = K = V = [[1, 0], [0, 1]]``, ``keys = np.array([...])``,
  ``temp_q = tf.constant([[0, 10, 0]])``: names given a literal array (where it is written);
- :class:`Defined`: ``d_k = 2``, ``head_dim = 2``, ``d_k = keys.shape[1]``, keyword
  arguments ``SelfAttention(d_model=2)``: names given a number or an expression;
- :class:`Shown`: what a cell shows when run: ``print("Attention weights:", w)``,
  ``print(f"W_q: \\n{W_q}")``, a bare last expression ``attn_weights``;
- :class:`Step`: ``name = expression`` for every other assignment, kept for the dataflow
  (:mod:`symattn.read.dataflow`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from symattn.config import DEFAULT_LIMITS
from symattn.read.code import Statement, offset_of
from symattn.read.notations import ARRAY_CALLS
from symattn.read.symbolic.values import Array, NotFollowed, nested

__all__ = ["Assigned", "Defined", "Shown", "Step", "facts_of", "expr_text"]

#: the deepest expression walked
_MAX_DEPTH: Final = 40


@dataclass(frozen=True)
class Assigned:
    """Names given a literal array; ``at`` is where the array's ``[`` is written."""

    names: tuple[str, ...]
    at: int
    wrapper: str  # np.array, torch.tensor, ... or ""
    #: its exact value (the literal's numbers, or what the code builds: ``np.eye(2) * 0.5``)
    value: Array | None = None


@dataclass(frozen=True)
class Defined:
    """A name given a number (``value`` is its text and ``at`` where it is), or an
    expression (``expr``)."""

    name: str
    value: str
    at: int
    expr: ast.expr | None = None


@dataclass(frozen=True)
class Shown:
    """An expression a cell shows, with the label printed before it (``Attention weights:``)."""

    expr: ast.expr
    label: str
    at: int


@dataclass(frozen=True)
class Step:
    """``name = expr`` (the dataflow), ``name op= expr`` (as ``name = name op expr``), or
    ``a, b = expr`` (``unpack`` holds the names); ``at`` is where ``expr`` is written and
    ``target_at`` where the name is."""

    name: str
    expr: ast.expr
    at: int
    unpack: tuple[str, ...] = ()
    target_at: int = -1


def expr_text(node: ast.AST) -> str:
    """The expression as source text (``ast.unparse``; bounded)."""
    try:
        return ast.unparse(node)[:200]
    except (ValueError, RecursionError, AttributeError):
        return ""


def target_names(t: ast.expr) -> list[str]:
    """``a``, ``self.W_q``, ``a, b`` -> the names an assignment gives."""
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, ast.Attribute):
        return [expr_text(t)]
    if isinstance(t, ast.Tuple | ast.List):
        return [n for e in t.elts for n in target_names(e)]
    return []


def _literal_list(node: ast.expr, depth: int = 0) -> tuple[ast.List | ast.Tuple, str] | None:
    """The list literal an expression is (``[…]``, ``np.array([…])``, ``torch.tensor([…],
    dtype=…)``, ``np.transpose([…])``), and the call it is wrapped in."""
    if depth > 3:
        return None
    if isinstance(node, ast.List):
        return node, ""
    if isinstance(node, ast.Call) and node.args:
        fn = expr_text(node.func)
        last = fn.rsplit(".", 1)[-1]
        if last in ARRAY_CALLS.words or fn in ARRAY_CALLS.words:
            inner = _literal_list(node.args[0], depth + 1)
            if inner is not None:
                return inner[0], fn
    if isinstance(node, ast.Attribute) and node.attr in ("T",):
        inner = _literal_list(node.value, depth + 1)
        if inner is not None:
            return inner[0], inner[1] + ".T"
    return None


def _exact_list(node: ast.List | ast.Tuple) -> Array | None:
    """The exact value of a literal list of numbers (None when it holds anything else)."""
    try:
        return nested(_values(node, 0), DEFAULT_LIMITS)
    except NotFollowed:
        return None


def _values(node: ast.expr, depth: int) -> object:
    if depth > 8:
        raise NotFollowed("nested too deeply")
    if isinstance(node, ast.List | ast.Tuple):
        return [_values(e, depth + 1) for e in node.elts]
    text = _number_text(node)
    if text is None:
        raise NotFollowed("not a number")
    try:
        return Fraction(text)
    except (ValueError, OverflowError) as e:
        raise NotFollowed(text) from e


def _number_text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return repr(node.value)
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) in (int, float)
    ):
        return "-" + repr(node.operand.value)
    return None


def _shown(st: Statement, call: ast.Call) -> Iterator[Shown]:
    """The expressions ``print(...)`` shows, each with the text printed before it."""
    label = ""
    for arg in call.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            label = (label + " " + arg.value).strip()
            continue
        if isinstance(arg, ast.JoinedStr):
            for part in arg.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    label = (label + " " + part.value).strip()
                elif isinstance(part, ast.FormattedValue):
                    yield Shown(part.value, label, offset_of(st, part.value))
                    label = ""
            continue
        yield Shown(arg, label, offset_of(st, arg))
        label = ""


def facts_of(st: Statement) -> Iterator[Assigned | Defined | Shown | Step]:
    """What one parsed statement says (nothing for a statement that is not Python)."""
    if st.tree is None:
        return
    for stmt in _flat(st.tree.body, 0):
        if isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value = stmt.value
            if value is None:
                continue
            names = [n for t in targets for n in target_names(t)]
            lit = _literal_list(value)
            if lit is not None and names:
                at = offset_of(st, lit[0])
                yield Assigned(tuple(names), at, lit[1], _exact_list(lit[0]))
                continue
            num = _number_text(value)
            for n in names:
                if num is not None:
                    yield Defined(n, num, offset_of(st, value))
                elif len(names) == 1:
                    yield Defined(n, "", offset_of(st, value), value)
            if num is None:
                yield from _steps(st, list(targets), value)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            # `w /= w.sum(-1, keepdims=True)`: w = w / w.sum(-1, keepdims=True)
            op = ast.BinOp(ast.Name(stmt.target.id, ast.Load()), stmt.op, stmt.value)
            value = ast.copy_location(op, stmt.value)
            yield Step(stmt.target.id, value, offset_of(st, stmt.value), (), offset_of(st, stmt))
        elif isinstance(stmt, ast.Expr):
            call = stmt.value
            if isinstance(call, ast.Call) and expr_text(call.func) == "print":
                yield from _shown(st, call)
            elif (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "copy_"
                and call.args
                and (lit := _literal_list(call.args[0])) is not None
            ):
                # w.weight.copy_(torch.tensor([...])): w.weight is given this array
                yield Assigned((expr_text(call.func.value),), offset_of(st, lit[0]), lit[1])
            elif not isinstance(call, ast.Constant):
                yield Shown(call, "", offset_of(st, call))
        if not isinstance(stmt, ast.Assign | ast.AnnAssign | ast.Expr):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    num = _number_text(kw.value) if kw.arg else None
                    if kw.arg and num is not None:
                        yield Defined(kw.arg, num, offset_of(st, kw.value))


def _steps(st: Statement, targets: list[ast.expr], value: ast.expr) -> Iterator[Step]:
    """One step per target: ``Q = K = expr`` gives two, ``a, b = expr`` one that unpacks."""
    for t in targets:
        names = target_names(t)
        if isinstance(t, ast.Tuple | ast.List):
            if names and len(names) == len(t.elts):
                yield Step("", value, offset_of(st, value), tuple(names), offset_of(st, t))
        elif len(names) == 1:
            yield Step(names[0], value, offset_of(st, value), (), offset_of(st, t))


def _flat(body: list[ast.stmt], depth: int) -> Iterator[ast.stmt]:
    """Statements, with the bodies of ``with``/``if``/``for``/``def``/``class`` opened."""
    if depth > _MAX_DEPTH:
        return
    for stmt in body:
        yield stmt
        for attr in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, attr, None)
            if isinstance(inner, list) and not isinstance(stmt, ast.Expr):
                yield from _flat([s for s in inner if isinstance(s, ast.stmt)], depth + 1)
