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
from enum import Enum, StrEnum
from fractions import Fraction
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.read.notations import PROJECTION_NAMES
from symattn.read.notations.roles import INPUT_ARRAYS, RoleName
from symattn.read.python import Assigned, Defined, Shown, Step, expr_text
from symattn.read.symbolic.functions import Runner, unpack
from symattn.read.symbolic.interpreter import NotFollowedDeep, OutOfSteps
from symattn.read.symbolic.loops import follow_loop
from symattn.read.symbolic.scale import Scale
from symattn.read.symbolic.sym import UNKNOWN, Sym, SymKind, projection_of, role_kind
from symattn.read.symbolic.values import Array

__all__ = ["Built", "Derivation", "Flows", "Start", "Sym", "built_inputs", "derive", "flows"]

#: the stages a name may give an array the code builds (an input of attention)
_BUILT_ROLES: Final = INPUT_ARRAYS
#: the stages above the scores a derivation goes down through (to the scores)
_ABOVE_SCORES: Final = frozenset({SymKind.WEIGHTS, SymKind.SCALED, SymKind.EXP, SymKind.SUM})
#: the projections of X
_PROJECTIONS: Final = frozenset({SymKind.Q, SymKind.K, SymKind.V})
#: the deepest statement nesting whose contexts are told apart
_MAX_NESTING: Final = 40

Fact = Assigned | Defined | Shown | Step


class Start(StrEnum):
    """What a :class:`Derivation` starts from (a StrEnum: a stage's spec claim field)."""

    #: X, projected by W_Q, W_K, W_V
    X = RoleName.X.value
    #: Q, K and V as written
    QKV = "qkv"
    #: scores as written (a softmax of an array the text writes)
    SCORES = RoleName.SCORES.value
    #: scaled scores as written
    SCALED = RoleName.SCALED.value


class _Context(Enum):
    """Where a statement is, for following it."""

    #: at the top of the code (or in a ``with``/``try`` body, a decided branch): followed
    TOP = "top"
    #: in a class body: followed as at the top
    CLASS = "class"
    #: in the body of a module-level function: followed where the function is called
    DEF = "def"
    #: in a loop's body or a branch the code does not decide: what it assigns is unknown
    UNKNOWN = "unknown"
    #: in the branch not taken: never followed
    SKIP = "skip"


#: contexts not followed in place: a function's body (followed where it is called), the
#: branch not taken
_ELSEWHERE: Final = frozenset({_Context.DEF, _Context.SKIP})
#: contexts whose statements are followed in place
_IN_PLACE: Final = frozenset({_Context.TOP, _Context.CLASS})


@dataclass(frozen=True)
class Derivation:
    """Which literal arrays (by the offset of their ``[``) a computed array comes from, and
    how: ``start`` (a :class:`Start`) is ``x`` (X with W_Q, W_K, W_V; ``w_t``: the weights
    are written as PyTorch stores them, transposed), ``qkv``, or the (scaled) scores; the
    :class:`~symattn.read.symbolic.scale.Scale` (None: unknown); a causal mask; the query
    row selected (0-based)."""

    start: Start
    refs: tuple[int, ...]  # x, w_q, w_k, w_v  |  q, k, v
    w_t: bool = False
    scale: Scale | None = None
    causal: bool = False
    row: int | None = None


def _lit(s: Sym) -> int:
    b = s.base
    return b.ref if b.kind is SymKind.LIT else -1


def derive(s: Sym) -> Derivation | None:
    """The derivation of a computed value, when every input is a literal the text writes."""
    node = s
    scale, causal = s.scale, s.causal
    if node.kind is SymKind.OUTPUT:
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
    while node.kind in _ABOVE_SCORES and node.args:
        if node.scale is not None:
            scale = node.scale
        causal = causal or node.causal
        node = node.args[0]
    if node.kind is SymKind.SCORES and len(node.args) == 1 and _lit(node.args[0]) >= 0:
        return Derivation(Start.SCORES, (_lit(node.args[0]),), False, scale, causal, node.row)
    if node.kind is not SymKind.SCORES or len(node.args) != 2:
        return None
    causal = causal or node.causal
    q, k = node.args
    if q.kind in _PROJECTIONS and k.base.kind in _PROJECTIONS and q.args and k.base.args:
        x = _lit(q.args[0])
        kx = _lit(k.base.args[0])
        wq, wk = q.args[1], k.base.args[1]
        if x < 0 or x != kx or wq.ref < 0 or wk.ref < 0:
            return None
        w_t = wq.kind is SymKind.LAYER
        return Derivation(Start.X, (x, wq.ref, wk.ref, -1), w_t, scale, causal, q.row)
    qr, kr = _lit(q), _lit(k)
    if qr < 0 or kr < 0:
        return None
    return Derivation(Start.QKV, (qr, kr, -1), False, scale, causal, q.row)


def _v_ref(v: Sym, inner: Derivation) -> int | None:
    if inner.start == Start.X:
        if v.kind is SymKind.V and len(v.args) == 2 and _lit(v.args[0]) == inner.refs[0]:
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
                w.env[n] = Sym(SymKind.LIT, ref=fact.at, name=role, array=fact.value)
                projected = projection_of(role)
                if n.endswith(".weight") and projected is not None:
                    # nn.Linear: its weight is stored (out, in); the layer computes x @ weight.T
                    layer = Sym(SymKind.LAYER, name=projected, ref=fact.at)
                    w.env[n.removesuffix(".weight")] = layer
            return None
        context = (
            _Context.TOP if fact.expr is None else self.contexts.get(id(fact.expr), _Context.TOP)
        )
        if context in _ELSEWHERE:
            return None  # (a function's body is followed where it is called)
        if isinstance(fact, Defined):
            if fact.value:
                try:
                    w.env[fact.name] = Sym(SymKind.NUM, value=Fraction(fact.value))
                except (ValueError, ZeroDivisionError, OverflowError):
                    pass
            return None
        if isinstance(fact, Step):
            names = fact.unpack or (fact.name,)
            if context is _Context.UNKNOWN:
                for n in names:
                    w.env[n] = UNKNOWN
                return None
            value = w.ev(fact.expr)
            if fact.unpack:
                unpack(w.env, list(fact.unpack), value)
                return None
            if value.kind is SymKind.LIT and role_kind(fact.name) in _BUILT_ROLES:
                # `K = Q.copy()`: the same array, now the stage its new name says
                value = replace(value, name=role_kind(fact.name))
            if value.kind is SymKind.UNKNOWN:
                projected = projection_of(role_kind(fact.name))
                if projected is not None and isinstance(fact.expr, ast.Call):
                    value = Sym(SymKind.LAYER, name=projected)
            w.env[fact.name] = value
            if value.row is not None and role_kind(fact.name) == RoleName.Q:
                self.query_row = value.row
            return None
        if context is _Context.UNKNOWN:
            return None
        return w.ev(fact.expr)


def _is_softmax_def(fn: ast.FunctionDef) -> bool:
    """A user function that computes a softmax (named so, or ``exp(x) / exp(x).sum()``)."""
    if "softmax" in fn.name.lower():
        return True
    text = expr_text(fn)
    return "exp" in text and "sum" in text and "/" in text


def _uncertain(ctx: _Context) -> _Context:
    """The context of a body the code may or may not run (a loop's, a branch it does not
    decide, an exception handler), inside ``ctx``."""
    return ctx if ctx in _ELSEWHERE else _Context.UNKNOWN


def _contexts(trees: Sequence[ast.Module | None]) -> dict[int, _Context]:
    """Where each expression inside a compound statement is (by its ``id``): ``def`` (the
    body of a module-level function, followed where it is called), ``unknown`` (a loop's
    body, a branch the code does not decide), ``skip`` (the branch not taken). Expressions
    at the top, in ``with``/``try`` bodies, decided branches and class bodies are not listed."""
    out: dict[int, _Context] = {}
    tops = [s for t in trees if t is not None for s in t.body]
    programs = _programs(tops)
    stack: list[tuple[ast.stmt, _Context, int]] = [(s, _Context.TOP, 0) for s in tops]
    while stack:
        stmt, ctx, depth = stack.pop()
        if depth > _MAX_NESTING:
            continue
        inner: list[tuple[list[ast.stmt], _Context]] = []
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            # (a script's `def main():`, called once at the top: its body is the program)
            program = ctx is _Context.TOP and stmt.name in programs
            inner.append((stmt.body, ctx if program or ctx is not _Context.TOP else _Context.DEF))
        elif isinstance(stmt, ast.ClassDef):
            inner.append((stmt.body, _Context.CLASS if ctx is _Context.TOP else ctx))
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            loop = _uncertain(ctx)
            inner += [(stmt.body, loop), (stmt.orelse, loop)]
        elif isinstance(stmt, ast.If):
            decided = _decided(stmt.test)
            if ctx not in _IN_PLACE or decided is None:
                both = _uncertain(ctx)
                inner += [(stmt.body, both), (stmt.orelse, both)]
            else:
                inner += [
                    (stmt.body, ctx if decided else _Context.SKIP),
                    (stmt.orelse, _Context.SKIP if decided else ctx),
                ]
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            inner.append((stmt.body, ctx))
        elif isinstance(stmt, ast.Try):
            inner += [(stmt.body, ctx), (stmt.finalbody, ctx)]
            side = _uncertain(ctx)
            inner += [(h.body, side) for h in stmt.handlers] + [(stmt.orelse, side)]
        else:
            if ctx not in _IN_PLACE:
                for node in ast.walk(stmt):
                    out[id(node)] = ctx
            continue
        for body, c in inner:
            stack.extend((s, c, depth + 1) for s in body)
    return out


def _programs(tops: Sequence[ast.stmt]) -> frozenset[str]:
    """The module-level functions a script runs as its program: defined once without
    parameters, and called exactly once, with no arguments, as a statement at the top (or in
    ``if __name__ == "__main__":``). Their bodies are followed in place, as if written at
    the top: ``def main(): X = …; print(X @ W)`` then ``main()``."""
    defined: dict[str, int] = {}
    plain: set[str] = set()
    for s in tops:
        if isinstance(s, ast.FunctionDef):
            defined[s.name] = defined.get(s.name, 0) + 1
            a = s.args
            if not (a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg):
                plain.add(s.name)
    calls: dict[str, int] = {}
    top_calls: list[str] = []
    for s in tops:
        body = s.body if isinstance(s, ast.If) and _decided(s.test) else [s]
        for b in body:
            if (
                isinstance(b, ast.Expr)
                and isinstance(b.value, ast.Call)
                and isinstance(b.value.func, ast.Name)
                and not b.value.args
                and not b.value.keywords
            ):
                top_calls.append(b.value.func.id)
    for t in tops:
        for node in ast.walk(t):
            if isinstance(node, ast.Name) and node.id in plain:
                calls[node.id] = calls.get(node.id, 0) + 1
    return frozenset(n for n in set(top_calls) if n in plain and defined[n] == 1 and calls[n] == 1)


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
                projections = (
                    name in PROJECTION_NAMES.words or projection_of(role_kind(name)) is not None
                )
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef):
                w.functions[stmt.name] = stmt
        for fact in by_statement.get(index, []):
            if isinstance(fact, Shown) and walk.contexts.get(id(fact.expr)) is _Context.DEF:
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
            and value.kind is SymKind.LIT
            and value.row is None
            and value.ref >= 0
            and role_kind(fact.name) not in named.get(value.ref, {role_kind(fact.name)})
        )
        if (
            value is None
            or (value.kind is not SymKind.ARRAY and not alias)
            or value.array is None
            or len(value.array.shape) not in (1, 2)
            or value.array.size == 0
            or role_kind(fact.name) not in _BUILT_ROLES
        ):
            return
        b = Built(index, (fact.name,), fact.target_at, value.array)
        found.append((position[id(fact)], b))
        named[b.at] = {role_kind(fact.name)}
        walk.w.env[fact.name] = Sym(SymKind.LIT, ref=b.at, name=role_kind(fact.name), array=b.value)

    _walk(code, trees, {}, limits, seen)
    return found
