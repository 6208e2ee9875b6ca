"""What the code of a text computes, read symbolically (the code is never run).

Statements are walked in the order of the text with an environment from names to
:class:`~symattn.read.symbolic.sym.Sym` values (:mod:`symattn.read.symbolic`): literal arrays
and the exact arrays constructors build (``np.eye(4) * 0.5``, ``K = Q.copy()``), projections
``X @ W_Q`` (or a layer ``W_q(x)``), the scores ``Q @ K.T``, the scaled scores ``S /
np.sqrt(3)``, masks (``masked_fill``, ``where``, a product with ``tril`` renormalised by its
row sums), the weights ``softmax(...)`` (or ``np.exp(x) / np.exp(x).sum()``), the output
``weights @ V`` (or ``(w[:, None] * V).sum(0)``); user functions are inlined where they are
called. What a cell shows (``print(w)``, a bare last expression, a REPL line) is evaluated where
it is shown, so a printed array knows what it is, which query row it is for, with which scale,
from which literal inputs. Statements inside a loop or a branch the code does not decide
leave what they assign unknown. Anything else is ``unknown``: never guessed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.read.notations import PROJECTION_NAMES
from symattn.read.python import Assigned, Defined, Shown, Step, expr_text
from symattn.read.symbolic.functions import Runner, unpack
from symattn.read.symbolic.interpreter import NotFollowedDeep, OutOfSteps
from symattn.read.symbolic.loops import follow_loop
from symattn.read.symbolic.sym import UNKNOWN, Sym, role_kind
from symattn.read.symbolic.values import Array

__all__ = ["Built", "Derivation", "Flows", "Sym", "built_inputs", "derive", "flows"]

#: the stages a name may give an array the code builds (an input of attention)
_BUILT_ROLES: Final = frozenset({"x", "w_q", "w_k", "w_v", "w_o", "q", "k", "v", "kv"})
#: the deepest statement nesting whose contexts are told apart
_MAX_NESTING: Final = 40

Fact = Assigned | Defined | Shown | Step


@dataclass(frozen=True)
class Derivation:
    """Which literal arrays (by the offset of their ``[``) a computed array comes from, and
    how: ``start`` is ``x`` (X with W_Q, W_K, W_V; ``w_t``: the weights are written as
    PyTorch stores them, transposed) or ``qkv``; the scale (``1``, ``sqrt:N``, ``frac:P/Q``
    to divide by, ``inv:P/Q`` to multiply by, ``width``: √ of the keys' width, "" unknown);
    a causal mask; the query row selected (0-based)."""

    start: str
    refs: tuple[int, ...]  # x, w_q, w_k, w_v  |  q, k, v
    w_t: bool = False
    scale: str = ""
    causal: bool = False
    row: int | None = None


def _lit(s: Sym) -> int:
    b = s.base
    return b.ref if b.kind == "lit" else -1


def derive(s: Sym) -> Derivation | None:
    """The derivation of a computed value, when every input is a literal the text writes."""
    node = s
    scale, causal = s.scale, s.causal
    if node.kind == "output":
        w, v = node.args
        inner = derive(w)
        if inner is None:
            return None
        vr = _v_ref(v, inner)
        if vr is None:
            return None
        refs = list(inner.refs)
        refs[-1] = vr
        return replace(inner, refs=tuple(refs))
    while node.kind in ("weights", "scaled", "exp", "sum") and node.args:
        if node.scale:
            scale = node.scale
        causal = causal or node.causal
        node = node.args[0]
    if node.kind == "scores" and len(node.args) == 1 and _lit(node.args[0]) >= 0:
        return Derivation("scores", (_lit(node.args[0]),), False, scale, causal, node.row)
    if node.kind != "scores" or len(node.args) != 2:
        return None
    causal = causal or node.causal
    q, k = node.args
    if q.kind in ("q", "k", "v") and k.base.kind in ("q", "k", "v") and q.args and k.base.args:
        x = _lit(q.args[0])
        kx = _lit(k.base.args[0])
        wq, wk = q.args[1], k.base.args[1]
        if x < 0 or x != kx or wq.ref < 0 or wk.ref < 0:
            return None
        return Derivation("x", (x, wq.ref, wk.ref, -1), wq.kind == "layer", scale, causal, q.row)
    qr, kr = _lit(q), _lit(k)
    if qr < 0 or kr < 0:
        return None
    return Derivation("qkv", (qr, kr, -1), False, scale, causal, q.row)


def _v_ref(v: Sym, inner: Derivation) -> int | None:
    if inner.start == "x":
        if v.kind == "v" and len(v.args) == 2 and _lit(v.args[0]) == inner.refs[0]:
            return v.args[1].ref if v.args[1].ref >= 0 else None
        return None
    r = _lit(v)
    return r if r >= 0 else None


@dataclass(frozen=True)
class Flows:
    """What the code of a text computes: each shown expression's value (by its offset), the
    query row the code had selected when it showed it (``query = inputs[1]``), and whether
    the code uses projections anywhere (``W_query``, ``nn.Linear``): then a value it shows
    but this reading cannot follow may come from weights the text does not print."""

    shown: Mapping[int, Sym]
    query_row: Mapping[int, int]
    projections: bool


@dataclass(frozen=True)
class Built:
    """An input array the code builds (``Q = np.eye(2) * 0.5``): the statement that builds it
    (by index), the names it is given, where they are written, and its exact value."""

    statement: int
    names: tuple[str, ...]
    at: int
    value: Array


class _Walk:
    """One walk over the Python facts of a text, in order."""

    def __init__(self, trees: Sequence[ast.Module | None], limits: Limits) -> None:
        self.w = Runner(limits)
        self.contexts = _contexts(trees)
        self.query_row: int | None = None  # the row `query = inputs[1]` selected

    def take(self, fact: Fact, literal_roles: Mapping[int, str]) -> Sym | None:
        """Follow one fact; the value of a shown expression (None for other facts)."""
        w = self.w
        w.reset()
        try:
            return self._take(fact, literal_roles)
        except (NotFollowedDeep, OutOfSteps, RecursionError):
            if isinstance(fact, Step):
                for n in fact.unpack or (fact.name,):
                    w.env[n] = UNKNOWN
            return UNKNOWN

    def _take(self, fact: Fact, literal_roles: Mapping[int, str]) -> Sym | None:
        w = self.w
        if isinstance(fact, Assigned):
            for n in fact.names:
                role = literal_roles.get(fact.at, "") or role_kind(n)
                w.env[n] = Sym("lit", ref=fact.at, name=role, array=fact.value)
                if n.endswith(".weight") and role in ("w_q", "w_k", "w_v"):
                    # nn.Linear: its weight is stored (out, in); the layer computes x @ weight.T
                    w.env[n.removesuffix(".weight")] = Sym("layer", name=role[-1], ref=fact.at)
            return None
        context = self.contexts.get(id(fact.expr), "top") if fact.expr is not None else "top"
        if context in ("def", "skip"):
            return None  # (a function's body is followed where it is called)
        if isinstance(fact, Defined):
            if fact.value:
                try:
                    w.env[fact.name] = Sym("num", value=Fraction(fact.value))
                except (ValueError, ZeroDivisionError, OverflowError):
                    pass
            return None
        if isinstance(fact, Step):
            names = fact.unpack or (fact.name,)
            if context == "unknown":
                for n in names:
                    w.env[n] = UNKNOWN
                return None
            value = w.ev(fact.expr)
            if fact.unpack:
                unpack(w.env, list(fact.unpack), value)
                return None
            if value.kind == "lit" and role_kind(fact.name) in _BUILT_ROLES:
                # `K = Q.copy()`: the same array, now the stage its new name says
                value = replace(value, name=role_kind(fact.name))
            if value.kind == "unknown":
                role = role_kind(fact.name)
                if role in ("w_q", "w_k", "w_v") and isinstance(fact.expr, ast.Call):
                    value = Sym("layer", name=role[-1])
            w.env[fact.name] = value
            if value.row is not None and role_kind(fact.name) == "q":
                self.query_row = value.row
            return None
        if context == "unknown":
            return None
        return w.ev(fact.expr)


def _is_softmax_def(fn: ast.FunctionDef) -> bool:
    """A user function that computes a softmax (named so, or ``exp(x) / exp(x).sum()``)."""
    if "softmax" in fn.name.lower():
        return True
    text = expr_text(fn)
    return "exp" in text and "sum" in text and "/" in text


def _contexts(trees: Sequence[ast.Module | None]) -> dict[int, str]:
    """Where each expression inside a compound statement is (by its ``id``): ``def`` (the
    body of a module-level function, followed where it is called), ``unknown`` (a loop's
    body, a branch the code does not decide), ``skip`` (the branch not taken). Expressions
    at the top, in ``with``/``try`` bodies, decided branches and class bodies are not listed."""
    out: dict[int, str] = {}
    stack: list[tuple[ast.stmt, str, int]] = [
        (s, "top", 0) for t in trees if t is not None for s in t.body
    ]
    while stack:
        stmt, ctx, depth = stack.pop()
        if depth > _MAX_NESTING:
            continue
        inner: list[tuple[list[ast.stmt], str]] = []
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            inner.append((stmt.body, "def" if ctx == "top" else ctx))
        elif isinstance(stmt, ast.ClassDef):
            inner.append((stmt.body, ctx if ctx != "top" else "class"))
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            loop = ctx if ctx in ("def", "skip") else "unknown"
            inner += [(stmt.body, loop), (stmt.orelse, loop)]
        elif isinstance(stmt, ast.If):
            decided = _decided(stmt.test)
            if ctx in ("def", "skip", "unknown") or decided is None:
                both = ctx if ctx in ("def", "skip") else "unknown"
                inner += [(stmt.body, both), (stmt.orelse, both)]
            else:
                inner += [
                    (stmt.body, ctx if decided else "skip"),
                    (stmt.orelse, "skip" if decided else ctx),
                ]
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            inner.append((stmt.body, ctx))
        elif isinstance(stmt, ast.Try):
            inner += [(stmt.body, ctx), (stmt.finalbody, ctx)]
            side = ctx if ctx in ("def", "skip") else "unknown"
            inner += [(h.body, side) for h in stmt.handlers] + [(stmt.orelse, side)]
        else:
            if ctx not in ("top", "class"):
                for node in ast.walk(stmt):
                    out[id(node)] = ctx
            continue
        for body, c in inner:
            stack.extend((s, c, depth + 1) for s in body)
    return out


def _decided(test: ast.expr) -> bool | None:
    """Whether a condition the code writes is decided without running it: a constant
    (``if 1:``) or ``__name__ == "__main__"``."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
    ):
        return True
    return None


def _walk(
    code: Sequence[tuple[int, Fact]],
    trees: Sequence[ast.Module | None],
    literal_roles: Mapping[int, str],
    limits: Limits,
    on_fact: Callable[[int, Fact, _Walk], None] | None = None,
) -> tuple[_Walk, dict[int, Sym], dict[int, int], bool]:
    walk = _Walk(trees, limits)
    w = walk.w
    out: dict[int, Sym] = {}
    rows: dict[int, int] = {}
    projections = False
    by_statement: dict[int, list[Fact]] = {}
    for index, fact in code:
        by_statement.setdefault(index, []).append(fact)
    inside: list[Shown] = []
    for index, tree in enumerate(trees):
        if tree is None:
            continue
        for stmt in ast.walk(tree):
            if isinstance(stmt, ast.FunctionDef) and _is_softmax_def(stmt):
                w.softmaxes.add(stmt.name)
            elif isinstance(stmt, ast.Name | ast.Attribute) and not projections:
                name = stmt.id if isinstance(stmt, ast.Name) else stmt.attr
                projections = name in PROJECTION_NAMES.words or role_kind(name) in (
                    "w_q",
                    "w_k",
                    "w_v",
                )
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef):
                w.functions[stmt.name] = stmt
        for fact in by_statement.get(index, []):
            if isinstance(fact, Shown) and walk.contexts.get(id(fact.expr)) == "def":
                w.watched.add(id(fact.expr))
                inside.append(fact)
            value = walk.take(fact, literal_roles)
            if on_fact is not None:
                on_fact(index, fact, walk)
            if isinstance(fact, Shown) and value is not None:
                out[fact.at] = value
            if isinstance(fact, Shown) and walk.query_row is not None:
                rows[fact.at] = walk.query_row
        for loop in (s for s in tree.body if isinstance(s, ast.For)):
            w.reset()
            try:
                follow_loop(w, loop)
            except (NotFollowedDeep, OutOfSteps, RecursionError):
                pass
    for fact in inside:
        if id(fact.expr) in w.shown:
            out[fact.at] = w.shown[id(fact.expr)]
    return walk, out, rows, projections


def flows(
    code: Sequence[tuple[int, Fact]],
    trees: Sequence[ast.Module | None],
    literal_roles: Mapping[int, str],
    limits: Limits = DEFAULT_LIMITS,
) -> Flows:
    """What each shown expression computes, by the offset where it is written.

    ``code`` is the reading's Python facts (statement index, fact) in order; ``trees`` the
    parsed statements (for loops and function definitions); ``literal_roles`` the stage the
    name of each literal array says (by the offset of its ``[``).
    """
    _, out, rows, projections = _walk(code, trees, literal_roles, limits)
    return Flows(out, rows, projections)


def built_inputs(
    code: Sequence[tuple[int, Fact]], trees: Sequence[ast.Module | None], limits: Limits
) -> list[tuple[int, Built]]:
    """The input arrays the code builds from constructors and exact operations, each with
    the position of its :class:`Step` in ``code``: a name that says an input of attention
    (``Q``, ``W_k``, ``inputs``) given a vector or matrix whose every entry is exact."""
    found: list[tuple[int, Built]] = []
    position = {id(f): k for k, (_, f) in enumerate(code)}
    #: the roles each literal array is given under, by where it is written
    named: dict[int, set[str]] = {}
    for _, f in code:
        if isinstance(f, Assigned):
            named.setdefault(f.at, set()).update(role_kind(n) for n in f.names)

    def seen(index: int, fact: Fact, walk: _Walk) -> None:
        if not isinstance(fact, Step) or fact.unpack:
            return
        value = walk.w.env.get(fact.name)
        # `V = K`, `K = Q.copy()`: a literal given again under another input's name is
        # that input too
        alias = (
            value is not None
            and value.kind == "lit"
            and value.row is None
            and value.ref >= 0
            and role_kind(fact.name) not in named.get(value.ref, {role_kind(fact.name)})
        )
        if (
            value is None
            or (value.kind != "array" and not alias)
            or value.array is None
            or len(value.array.shape) not in (1, 2)
            or value.array.size == 0
            or role_kind(fact.name) not in _BUILT_ROLES
        ):
            return
        b = Built(index, (fact.name,), fact.target_at, value.array)
        found.append((position[id(fact)], b))
        named[b.at] = {role_kind(fact.name)}
        walk.w.env[fact.name] = Sym("lit", ref=b.at, name=role_kind(fact.name), array=b.value)

    _walk(code, trees, {}, limits, seen)
    return found
