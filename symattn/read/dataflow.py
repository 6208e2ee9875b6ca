"""What the code of a text computes, read symbolically (the code is never run).

Statements are walked in the order of the text with an environment from names to
:class:`Sym` values: a literal array, a projection ``X @ W_Q`` (or a layer ``W_q(x)``), the
scores ``Q @ K.T`` (``np.dot(k, q)``, a loop of ``torch.dot``), the scaled scores
``S / np.sqrt(3)`` (``/ d_k**0.5``, ``/ keys.shape[-1]**0.5``, ``* 0.5``), masks
(``masked_fill(tril == 0, -inf)``), the weights ``softmax(...)`` (``np.exp(x) /
np.exp(x).sum()``, a user's ``softmax``), the output ``weights @ V``. What a cell shows
(``print(w)``, a bare last expression) is evaluated where it is shown, so a printed array
knows what it is, which query row it is for, with which scale, from which literal inputs.
Anything else is ``unknown``: never guessed.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Final

from symattn.read.notations import (
    ARRAY_CALLS,
    CAUSAL_CALLS,
    EXP_CALLS,
    MATMUL_CALLS,
    PROJECTION_NAMES,
    SOFTMAX_CALLS,
    SQRT_CALLS,
    TRANSPOSE_CALLS,
)
from symattn.read.python import Assigned, Defined, Shown, Step, expr_text
from symattn.read.roles import symbol_role

__all__ = ["Derivation", "Flows", "Sym", "derive", "flows"]

_MAX_DEPTH: Final = 30


@dataclass(frozen=True)
class Sym:
    """The symbolic value of an expression."""

    #: lit num x w_q w_k w_v q k v kv layer scores scaled weights output exp sum mask T unknown
    kind: str
    args: tuple[Sym, ...] = ()
    ref: int = -1  # the offset of a literal array
    row: int | None = None  # one row selected (0-based)
    scale: str = ""  # "1", "sqrt:N", "frac:P/Q", "width", "" unknown
    causal: bool = False
    value: Fraction | None = None  # a number
    name: str = ""

    @property
    def base(self) -> Sym:
        """The value under transposes."""
        return self.args[0].base if self.kind == "T" and self.args else self


UNKNOWN: Final = Sym("unknown")


def _role_kind(name: str) -> str:
    r = symbol_role(name)
    if r is None:
        return ""
    return r.role


def _num(node: ast.expr, env: Mapping[str, Sym]) -> Fraction | None:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        try:
            return Fraction(str(node.value))
        except (ValueError, OverflowError):
            return None
    if isinstance(node, ast.Name) and node.id in env and env[node.id].kind == "num":
        return env[node.id].value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _num(node.operand, env)
        return -v if v is not None else None
    if isinstance(node, ast.BinOp):
        a, b = _num(node.left, env), _num(node.right, env)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.Div) and b != 0:
            return a / b
        if isinstance(node.op, ast.FloorDiv) and b != 0:
            return Fraction(a // b)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
    if isinstance(node, ast.Call) and expr_text(node.func).rsplit(".", 1)[-1] == "tensor":
        return _num(node.args[0], env) if node.args else None
    return None


def _root(node: ast.expr, env: Mapping[str, Sym]) -> str:
    """The scale a divisor stands for: ``sqrt:N`` for √N, ``frac:P/Q`` for a number, ``width``
    for ``keys.shape[-1] ** 0.5``, "" when unknown."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        e = _num(node.right, env)
        if e == Fraction(1, 2):
            n = _num(node.left, env)
            if n is not None and n > 0 and n.denominator == 1:
                return f"sqrt:{n}"
            if "shape" in expr_text(node.left) or "size" in expr_text(node.left):
                return "width"
        return ""
    if isinstance(node, ast.Call):
        fn = expr_text(node.func).rsplit(".", 1)[-1]
        if fn in SQRT_CALLS.words and node.args:
            n = _num(node.args[0], env)
            if n is not None and n > 0 and n.denominator == 1:
                return f"sqrt:{n}"
            if "shape" in expr_text(node.args[0]) or "size" in expr_text(node.args[0]):
                return "width"
        return ""
    if isinstance(node, ast.Name) and node.id in env and env[node.id].scale:
        return env[node.id].scale
    n = _num(node, env)
    if n is not None and n > 0:
        return f"frac:{n}"
    return ""


#: names of array modules (``np.transpose(k)`` transposes its argument, not ``np``)
_MODULES: Final = frozenset({"np", "numpy", "torch", "tf", "jnp", "jax.numpy", "mx"})


def _inverse_root(node: ast.expr, env: Mapping[str, Sym]) -> str:
    """``sqrt:N`` when ``node`` is 1/√N written as a factor (``torch.rsqrt(N)``,
    ``N ** -0.5``), else ""."""
    if isinstance(node, ast.Call) and node.args:
        if expr_text(node.func).rsplit(".", 1)[-1] == "rsqrt":
            n = _num(node.args[0], env)
            if n is not None and n > 0 and n.denominator == 1:
                return f"sqrt:{n}"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        if _num(node.right, env) == Fraction(-1, 2):
            n = _num(node.left, env)
            if n is not None and n > 0 and n.denominator == 1:
                return f"sqrt:{n}"
    return ""


def _kind_of(s: Sym) -> str:
    """A literal's stage (from its name), or the stage of a computed value."""
    b = s.base
    return b.name if b.kind == "lit" else b.kind


def _is_k(s: Sym) -> bool:
    return _kind_of(s) in ("k", "kv", "x")


class _Walker:
    def __init__(self) -> None:
        self.env: dict[str, Sym] = {}
        self.functions: dict[str, str] = {}  # user function -> what it computes (softmax)
        self.query_row: int | None = None  # the row `query = inputs[1]` selected

    def ev(self, node: ast.expr, depth: int = 0) -> Sym:
        if depth > _MAX_DEPTH:
            return UNKNOWN
        d = depth + 1
        if isinstance(node, ast.Name):
            return self.env.get(node.id, UNKNOWN)
        if isinstance(node, ast.Attribute):
            if node.attr in ("T", "mT"):
                return Sym("T", (self.ev(node.value, d),))
            return self.env.get(expr_text(node), UNKNOWN)
        if isinstance(node, ast.Subscript):
            inner = self.ev(node.value, d)
            idx = node.slice
            if (
                isinstance(idx, ast.Constant)
                and isinstance(idx.value, int)
                and inner.kind != "unknown"
            ):
                return replace(inner, row=idx.value)
            return UNKNOWN
        if isinstance(node, ast.BinOp):
            return self.binop(node, d)
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            inner = self.ev(node.left, d)
            return inner if inner.kind == "mask" else UNKNOWN
        if isinstance(node, ast.Call):
            return self.call(node, d)
        n = _num(node, self.env)
        if n is not None:
            return Sym("num", value=n)
        return UNKNOWN

    def product(self, a: Sym, b: Sym) -> Sym:
        ka, kb = _kind_of(a), _kind_of(b)
        if ka == "x" and kb in ("w_q", "w_k", "w_v"):
            return Sym(kb[-1], (a, b), row=a.row)
        if (
            ka in ("q", "x", "lit")
            and b.kind == "T"
            and _is_k(b.args[0])
            or (ka == "q" and b.kind == "T")
        ):
            return Sym("scores", (a, b.args[0]), row=a.row)
        if ka in ("k", "kv", "x") and kb == "q" and a.kind != "T":
            return Sym("scores", (b, a), row=b.row if b.row is not None else None)
        if ka == "weights" and kb in ("v", "kv", "x"):
            return Sym("output", (a, b), row=a.row, scale=a.scale, causal=a.causal)
        return UNKNOWN

    def binop(self, node: ast.BinOp, d: int) -> Sym:
        if isinstance(node.op, ast.MatMult):
            return self.product(self.ev(node.left, d), self.ev(node.right, d))
        left = self.ev(node.left, d)
        if isinstance(node.op, ast.Div):
            if left.kind == "scores":
                scale = _root(node.right, self.env)
                if not scale:
                    return UNKNOWN  # divided by something else (``/ s.sum()``): not a scaling
                return Sym("scaled", (left,), row=left.row, scale=scale, causal=left.causal)
            if left.kind == "exp":
                right = self.ev(node.right, d)
                if right.kind == "sum":
                    inner = left.args[0] if left.args else UNKNOWN
                    return self.weights(inner)
            return UNKNOWN
        if isinstance(node.op, ast.Mult):
            right = self.ev(node.right, d)
            a, b = (left, right) if right.kind == "num" else (right, left)
            if a.kind == "lit" and b.kind == "num" and b.value:
                a = Sym("scores", (a,), row=a.row)
            if a.kind == "scores" and b.kind == "num" and b.value:
                return Sym("scaled", (a,), row=a.row, scale=f"inv:{b.value}")
            root = _inverse_root(node.right, self.env) or _inverse_root(node.left, self.env)
            if root and a.kind == "scores":
                return Sym("scaled", (a,), row=a.row, scale=root)
            if root and b.kind == "scores":
                return Sym("scaled", (b,), row=b.row, scale=root)
            return UNKNOWN
        return UNKNOWN

    def weights(self, inner: Sym) -> Sym:
        if inner.kind == "lit":
            # softmax of an array the text writes: that array is the scores
            inner = Sym("scores", (inner,), row=inner.row)
        if inner.kind == "scaled":
            return Sym("weights", (inner,), row=inner.row, scale=inner.scale, causal=inner.causal)
        if inner.kind == "scores":
            return Sym("weights", (inner,), row=inner.row, scale="1", causal=inner.causal)
        return UNKNOWN

    def call(self, node: ast.Call, d: int) -> Sym:
        fn = expr_text(node.func)
        last = fn.rsplit(".", 1)[-1]
        args = node.args
        if isinstance(node.func, ast.Call) and args:
            # ``nn.Softmax(dim=-1)(scores)``: a module made and called at once
            made = expr_text(node.func.func).rsplit(".", 1)[-1]
            return self.weights(self.ev(args[0], d)) if made in SOFTMAX_CALLS.words else UNKNOWN
        if last in SOFTMAX_CALLS.words or self.functions.get(fn) == "softmax":
            if isinstance(node.func, ast.Attribute) and not args and last == "softmax":
                return self.weights(self.ev(node.func.value, d))  # t.softmax(dim=-1)
            return self.weights(self.ev(args[0], d)) if args else UNKNOWN
        if last in MATMUL_CALLS.words and len(args) >= 2:
            a, b = self.ev(args[0], d), self.ev(args[1], d)
            if any(k.arg == "transpose_b" for k in node.keywords):
                b = Sym("T", (b,))
            return self.product(a, b)
        if last in ("dot", "matmul", "mm") and isinstance(node.func, ast.Attribute) and args:
            return self.product(self.ev(node.func.value, d), self.ev(args[0], d))
        if last in TRANSPOSE_CALLS.words:
            module = isinstance(node.func, ast.Attribute) and expr_text(node.func.value) in _MODULES
            target = (
                args[0] if args and (module or not isinstance(node.func, ast.Attribute)) else None
            )
            if target is not None:
                return Sym("T", (self.ev(target, d),))
            if isinstance(node.func, ast.Attribute):
                return Sym("T", (self.ev(node.func.value, d),))
        if last in EXP_CALLS.words and args:
            inner = self.ev(args[0], d)
            if inner.kind in ("scores", "scaled"):
                return Sym("exp", (inner,))
        if last == "sum" and isinstance(node.func, ast.Attribute):
            inner = self.ev(node.func.value, d)
            if inner.kind == "exp":
                return Sym("sum", (inner,))
        if last == "masked_fill" and isinstance(node.func, ast.Attribute):
            inner = self.ev(node.func.value, d)
            causal = any(self.ev(a, d).kind == "mask" for a in args) or any(
                f"{w}(" in expr_text(node) for w in CAUSAL_CALLS.words
            )
            if inner.kind in ("scores", "scaled") and causal:
                return replace(inner, causal=True)
            return UNKNOWN
        if last in CAUSAL_CALLS.words:
            return Sym("mask")
        if last in ("bool", "float", "to", "detach", "clone", "numpy", "cpu") and isinstance(
            node.func, ast.Attribute
        ):
            return self.ev(node.func.value, d)
        if last in ("round", "around") and args:
            return self.ev(args[0], d)  # np.round(scores, 3): the same values, rounded
        if last == "round" and isinstance(node.func, ast.Attribute):
            return self.ev(node.func.value, d)
        if last in ARRAY_CALLS.words and args:
            return self.ev(args[0], d)
        callee = self.env.get(fn) or self.env.get(last)
        if callee is not None and callee.kind == "layer" and args:
            x = self.ev(args[0], d)
            if _kind_of(x) == "x":
                return Sym(callee.name, (x, callee), row=x.row)
            return UNKNOWN
        role = _role_kind(fn.split(".")[-1])
        if role in ("w_q", "w_k", "w_v") and args:
            x = self.ev(args[0], d)
            if _kind_of(x) == "x":
                return Sym(role[-1], (x, Sym("layer", name=role[-1], ref=-1)), row=x.row)
        return UNKNOWN

    def assign(self, name: str, value: ast.expr) -> None:
        s = self.ev(value)
        if s.kind == "unknown":
            role = _role_kind(name)
            if role in ("w_q", "w_k", "w_v") and isinstance(value, ast.Call):
                s = Sym("layer", name=role[-1])
        self.env[name] = s

    def loop(self, node: ast.For) -> None:
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
        over = self.ev(it.args[0])
        item = node.target.elts[1]
        if not isinstance(item, ast.Name) or _kind_of(over) != "x" or over.row is not None:
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
                            (
                                a
                                for a in v.args
                                if not (isinstance(a, ast.Name) and a.id == item.id)
                            ),
                            None,
                        )
                        q = self.ev(other) if other is not None else UNKNOWN
                        if _kind_of(q) in ("x", "q") and q.row is not None:
                            self.env[t.value.id] = Sym("scores", (q, over), row=q.row)
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
                            w = self.ev(w_node.value)
                            if w.kind == "weights":
                                self.env[stmt.target.id] = Sym(
                                    "output", (w, over), row=w.row, scale=w.scale
                                )


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


def flows(
    code: Sequence[tuple[int, Assigned | Defined | Shown | Step]],
    trees: Sequence[ast.Module | None],
    literal_roles: Mapping[int, str],
) -> Flows:
    """What each shown expression computes, by the offset where it is written.

    ``code`` is the reading's Python facts (statement index, fact) in order; ``trees`` the
    parsed statements (for loops and function definitions); ``literal_roles`` the stage the
    name of each literal array says (by the offset of its ``[``).
    """
    w = _Walker()
    out: dict[int, Sym] = {}
    rows: dict[int, int] = {}
    projections = False
    by_statement: dict[int, list[Assigned | Defined | Shown | Step]] = {}
    for index, fact in code:
        by_statement.setdefault(index, []).append(fact)
    for index, tree in enumerate(trees):
        if tree is None:
            continue
        for stmt in ast.walk(tree):
            if isinstance(stmt, ast.FunctionDef) and _is_softmax_def(stmt):
                w.functions[stmt.name] = "softmax"
            elif isinstance(stmt, ast.Name | ast.Attribute) and not projections:
                name = stmt.id if isinstance(stmt, ast.Name) else stmt.attr
                projections = name in PROJECTION_NAMES.words or _role_kind(name) in (
                    "w_q",
                    "w_k",
                    "w_v",
                )
        for fact in by_statement.get(index, []):
            _take(w, fact, literal_roles, out)
            if isinstance(fact, Shown) and w.query_row is not None:
                rows[fact.at] = w.query_row
        for loop in (s for s in tree.body if isinstance(s, ast.For)):
            w.loop(loop)
    return Flows(out, rows, projections)


def _take(
    w: _Walker,
    fact: Assigned | Defined | Shown | Step,
    literal_roles: Mapping[int, str],
    out: dict[int, Sym],
) -> None:
    if isinstance(fact, Assigned):
        for n in fact.names:
            role = literal_roles.get(fact.at, "") or _role_kind(n)
            lit = Sym("lit", ref=fact.at, name=role)
            w.env[n] = lit
            if n.endswith(".weight") and role in ("w_q", "w_k", "w_v"):
                # nn.Linear: its weight is stored (out, in); the layer computes x @ weight.T
                w.env[n.removesuffix(".weight")] = Sym("layer", name=role[-1], ref=fact.at)
    elif isinstance(fact, Defined) and fact.value:
        try:
            w.env[fact.name] = Sym("num", value=Fraction(fact.value))
        except (ValueError, ZeroDivisionError, OverflowError):
            pass
    elif isinstance(fact, Step):
        w.assign(fact.name, fact.expr)
        value = w.env.get(fact.name)
        if value is not None and value.row is not None and _role_kind(fact.name) == "q":
            w.query_row = value.row
    elif isinstance(fact, Shown):
        out[fact.at] = w.ev(fact.expr)


def _is_softmax_def(fn: ast.FunctionDef) -> bool:
    """A user function that computes a softmax (named so, or ``exp(x) / exp(x).sum()``)."""
    if "softmax" in fn.name.lower():
        return True
    text = expr_text(fn)
    return "exp" in text and "sum" in text and "/" in text
