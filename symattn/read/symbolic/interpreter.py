"""Expressions of the code a text shows, evaluated symbolically over their syntax trees.

Nothing is run: :class:`Interpreter` walks an ``ast`` expression and gives its :class:`Sym`.
It follows a whitelisted pure subset: the array calls of :mod:`.constructors` on literal or
exact arguments, elementwise arithmetic with broadcasting, ``@``, ``.T``, indexing and
slicing with literal integers, comprehensions over literal ranges or known rows, and the
stages of attention (:mod:`.sym`). User functions are inlined (:mod:`.functions`). Everything
else is ``unknown``, never guessed. Each statement has a budget of steps, and an expression
nested deeper than :data:`MAX_DEPTH` is not followed (:class:`NotFollowedDeep`).
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import partial
from typing import Final

from symattn.config import Limits
from symattn.read.python import expr_text
from symattn.read.symbolic import values as vals
from symattn.read.symbolic.masks import is_causal_ones
from symattn.read.symbolic.scale import BY_WIDTH, Scale
from symattn.read.symbolic.sym import (
    ARRAYS,
    DATA,
    NUMBERS,
    SAME_ROWS,
    SEQUENCES,
    SOFTMAX_BY_HAND,
    STAGES,
    UNKNOWN,
    VALUELIKE,
    WITH_VALUES,
    Sym,
    SymKind,
    collapse,
    exact,
    kind_of,
    product,
)
from symattn.read.symbolic.sym import weights as softmax_of
from symattn.read.symbolic.values import Array, NotFollowed

__all__ = ["MAX_DEPTH", "MODULES", "Interpreter", "NotFollowedDeep", "OutOfSteps"]

#: the deepest expression followed
MAX_DEPTH: Final = 60
#: evaluation steps one statement may take
MAX_STEPS: Final = 20_000
#: the most entries of one array the code builds (a worked example's arrays are small)
MAX_ENTRIES: Final = 4096
#: the most items a comprehension is followed over
MAX_ITEMS: Final = 256

#: names of array modules (``np.transpose(k)`` transposes its argument, not ``np``)
MODULES: Final = frozenset({"np", "numpy", "torch", "tf", "jnp", "jax", "mx", "math", "F", "nn"})

_OPS: Final[dict[type, Callable[[Fraction, Fraction], Fraction]]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


class NotFollowedDeep(Exception):
    """An expression nested deeper than :data:`MAX_DEPTH`."""


class OutOfSteps(Exception):
    """A statement that takes more than :data:`MAX_STEPS` steps to follow."""


def _num(v: Fraction, **kw: object) -> Sym:
    return Sym(SymKind.NUM, value=v, **kw)  # type: ignore[arg-type]


def _from_array(a: Array, like: Sym | None = None) -> Sym:
    if a.shape == ():
        return _num(a.data[0])
    if like is not None and like.kind not in DATA and like.kind is not SymKind.UNKNOWN:
        return replace(like, array=a)
    return Sym(SymKind.ARRAY, array=a)


class Interpreter:
    """The environment of a walk (names to values, user functions) and the evaluator."""

    def __init__(self, limits: Limits) -> None:
        self.env: dict[str, Sym] = {}
        self.functions: dict[str, ast.FunctionDef] = {}
        self.softmaxes: set[str] = set()  # user functions that compute a softmax
        self.limits = replace(limits, max_elements=min(limits.max_elements, MAX_ENTRIES))
        self.steps = 0
        self.calls: list[str] = []  # the user functions being inlined
        self.shown: dict[int, Sym] = {}  # id(expression printed inside a function) -> value
        self.watched: set[int] = set()  # ids of the expressions printed inside functions

    # -- the budget ---------------------------------------------------------------
    def reset(self) -> None:
        self.steps = 0

    def tick(self, depth: int) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise OutOfSteps
        if depth > MAX_DEPTH:
            raise NotFollowedDeep

    def exactly(self, f: Callable[[], Array], like: Sym | None = None) -> Sym:
        """The value ``f`` builds, or unknown when it cannot be followed exactly."""
        try:
            return _from_array(f(), like)
        except (NotFollowed, ZeroDivisionError, OverflowError, ValueError):
            return like if like is not None else UNKNOWN

    # -- expressions ----------------------------------------------------------------
    def ev(self, node: ast.expr, depth: int = 0) -> Sym:
        self.tick(depth)
        d = depth + 1
        if isinstance(node, ast.Constant):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            if node.id in self.functions:
                return Sym(SymKind.FUNC, name=node.id)
            return UNKNOWN
        if isinstance(node, ast.Attribute):
            return self.attribute(node, d)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, d)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, d)
        if isinstance(node, ast.BinOp):
            return self.binop(node, d)
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            return self.compare(node, d)
        if isinstance(node, ast.Call):
            return self.call(node, d)
        if isinstance(node, ast.List | ast.Tuple):
            return self.sequence(
                SymKind.LIST if isinstance(node, ast.List) else SymKind.TUPLE,
                tuple(self.ev(e, d) for e in node.elts),
            )
        if isinstance(node, ast.ListComp):
            return self.comprehension(node, d)
        if isinstance(node, ast.IfExp):
            test = self.truth(self.ev(node.test, d))
            return UNKNOWN if test is None else self.ev(node.body if test else node.orelse, d)
        return UNKNOWN

    def constant(self, value: object) -> Sym:
        if isinstance(value, bool) or value is None:
            return Sym(SymKind.CONST, name=str(value))
        if isinstance(value, int | float):
            try:
                return _num(Fraction(repr(value)))
            except (ValueError, OverflowError):
                return UNKNOWN
        return UNKNOWN

    def truth(self, s: Sym) -> bool | None:
        if s.kind is SymKind.CONST:
            return s.name == "True"
        if s.kind is SymKind.NUM and s.value is not None:
            return s.value != 0
        return None

    def sequence(self, kind: SymKind, items: tuple[Sym, ...]) -> Sym:
        """A list or tuple; its array when every item is exact (rows of one shape)."""
        parts = [exact(i) for i in items]
        arr = None
        if items and all(p is not None for p in parts):
            try:
                arr = vals.nested([_nested_list(p) for p in parts if p is not None], self.limits)
            except NotFollowed:
                arr = None
        return Sym(kind, items, array=arr)

    def attribute(self, node: ast.Attribute, d: int) -> Sym:
        text = expr_text(node)
        if text in self.env:
            return self.env[text]
        if node.attr in ("inf", "Inf", "infty"):
            return Sym(SymKind.INF)
        if node.attr in ("newaxis",):
            return Sym(SymKind.CONST, name="None")
        inner = self.ev(node.value, d)
        if node.attr in ("T", "mT"):
            a = inner.array
            out = Sym(SymKind.T, (inner,))
            if a is not None:
                return self.exactly(lambda: vals.transpose(a, None, self.limits), out)
            return out
        if node.attr == "shape" and inner.array is not None:
            return Sym(SymKind.TUPLE, tuple(_num(Fraction(n)) for n in inner.array.shape))
        if node.attr == "values" and inner.kind in WITH_VALUES:
            return inner.args[0] if inner.kind is SymKind.TUPLE and inner.args else inner
        return UNKNOWN

    def subscript(self, node: ast.Subscript, d: int) -> Sym:
        inner = self.ev(node.value, d)
        keys = self.keys(node.slice, d)
        if keys is None or inner.kind is SymKind.UNKNOWN:
            return UNKNOWN
        if inner.kind in SEQUENCES and len(keys) == 1 and isinstance(keys[0], int):
            k = keys[0]
            return inner.args[k] if -len(inner.args) <= k < len(inner.args) else UNKNOWN
        if inner.kind is SymKind.MAX:
            return inner if keys == [0] else UNKNOWN  # torch: max(dim=...)[0] is the values
        a = inner.array
        kind_known = inner.kind not in DATA
        out = UNKNOWN
        if kind_known and len(keys) == 1 and isinstance(keys[0], int) and inner.row is None:
            n = _rows(inner)
            out = replace(inner, row=keys[0] % n if n else keys[0], array=None)
        elif kind_known and inner.kind is SymKind.WEIGHTS and _is_column(keys):
            out = replace(inner, column=True, array=None)
        if a is not None:
            got = self.exactly(lambda: vals.index(a, keys, self.limits))
            if out.kind is SymKind.UNKNOWN:
                return got
            return replace(out, array=got.array) if got.kind is not SymKind.NUM else out
        return out

    def keys(self, node: ast.expr, d: int) -> list[int | slice | None] | None:
        """Literal indices: integers, slices of integers, ``None``/``np.newaxis``."""
        parts = node.elts if isinstance(node, ast.Tuple) else [node]
        out: list[int | slice | None] = []
        for p in parts:
            if isinstance(p, ast.Slice):
                ends: list[int | None] = []
                for e in (p.lower, p.upper, p.step):
                    if e is None:
                        ends.append(None)
                        continue
                    s = self.ev(e, d)
                    if s.kind is not SymKind.NUM or s.value is None or s.value.denominator != 1:
                        return None
                    ends.append(int(s.value))
                if ends[2] == 0:
                    return None
                out.append(slice(*ends))
                continue
            s = self.ev(p, d)
            if s.kind is SymKind.CONST and s.name == "None":
                out.append(None)
            elif s.kind is SymKind.NUM and s.value is not None and s.value.denominator == 1:
                out.append(int(s.value))
            else:
                return None
        return out

    def unary(self, node: ast.UnaryOp, d: int) -> Sym:
        inner = self.ev(node.operand, d)
        if isinstance(node.op, ast.USub):
            if inner.kind is SymKind.INF:
                return Sym(SymKind.NEGINF)
            got = exact(inner)
            if got is not None:
                arr: Array = got
                return self.exactly(lambda: arr.map(operator.neg))
        if isinstance(node.op, ast.UAdd):
            return inner
        if isinstance(node.op, ast.Invert | ast.Not) and inner.array is not None:
            a = inner.array
            return self.exactly(lambda: a.map(lambda x: Fraction(x == 0)))
        return UNKNOWN

    def compare(self, node: ast.Compare, d: int) -> Sym:
        left, right = self.ev(node.left, d), self.ev(node.comparators[0], d)
        op = node.ops[0]
        a, b = exact(left), exact(right)
        tests: dict[type, Callable[[Fraction, Fraction], bool]] = {
            ast.Eq: operator.eq,
            ast.NotEq: operator.ne,
            ast.Lt: operator.lt,
            ast.LtE: operator.le,
            ast.Gt: operator.gt,
            ast.GtE: operator.ge,
        }
        test = tests.get(type(op))
        if a is not None and b is not None and test is not None:
            t = test
            got = self.exactly(
                lambda: vals.broadcast(a, b, lambda x, y: Fraction(t(x, y)), self.limits)
            )
            if (
                a.shape == ()
                and b.shape == ()
                and got.kind is SymKind.NUM
                and got.value is not None
            ):
                return Sym(SymKind.CONST, name=str(bool(got.value)))
            return got
        if left.kind is SymKind.MASK:
            return left
        if isinstance(node.left, ast.Name) and node.left.id == "__name__":
            return Sym(SymKind.CONST, name="True")  # `if __name__ == "__main__":` runs
        return UNKNOWN

    # -- arithmetic -----------------------------------------------------------------------
    def binop(self, node: ast.BinOp, d: int) -> Sym:
        left, right = self.ev(node.left, d), self.ev(node.right, d)
        a, b = exact(left), exact(right)
        if isinstance(node.op, ast.MatMult):
            stage = product(left, right)
            if a is not None and b is not None:
                return self.exactly(lambda: vals.matmul(a, b, self.limits), stage)
            return stage
        stage = self.stage_binop(node, left, right)
        if stage.kind is not SymKind.UNKNOWN:
            return stage
        if a is None or b is None or left.kind in STAGES or right.kind in STAGES:
            return UNKNOWN
        if isinstance(node.op, ast.Pow):
            return self.power(a, b)
        f = _OPS.get(type(node.op))
        if f is None:
            return UNKNOWN
        return self.exactly(lambda: vals.broadcast(a, b, f, self.limits))

    def power(self, a: Array, b: Array) -> Sym:
        if b.shape != ():
            return UNKNOWN
        e = b.data[0]
        if e.denominator == 1 and abs(e) <= 64:
            n = int(e)
            return self.exactly(lambda: a.map(lambda x: x**n))
        if e == Fraction(1, 2) and a.shape == () and a.data[0] > 0:
            return self.root(a.data[0])
        return UNKNOWN

    def root(self, n: Fraction) -> Sym:
        """√n: exact when rational; it stands for the scale ÷√n when n is an integer."""
        scale = Scale.root(n) if n.denominator == 1 and n > 0 else None
        r = vals.sqrt_exact(n)
        return Sym(SymKind.NUM if r is not None else SymKind.ROOT, value=r, scale=scale)

    def stage_binop(self, node: ast.BinOp, left: Sym, right: Sym) -> Sym:
        """The stage an arithmetic operation on stages is (scaling, softmax by hand, masks)."""
        if isinstance(node.op, ast.Div):
            if left.kind is SymKind.SCORES:
                scale = self.divisor(node.right, right)
                if scale is None:
                    return UNKNOWN
                return Sym(SymKind.SCALED, (left,), row=left.row, scale=scale, causal=left.causal)
            if (left.kind, right.kind) in SOFTMAX_BY_HAND:
                return softmax_of(left.args[0] if left.args else UNKNOWN)
            if (
                left.kind is SymKind.ZEROED
                and right.kind is SymKind.ROWSUM
                and right.args[0] == left
            ):
                w = left.args[0]
                return replace(w, causal=True)
            return UNKNOWN
        if isinstance(node.op, ast.Sub):
            if right.kind is SymKind.MAX and right.args and right.args[0] == left:
                return Sym(SymKind.SHIFTED, (left,))
            return UNKNOWN
        if not isinstance(node.op, ast.Mult):
            return UNKNOWN
        a, b = (left, right) if right.kind in NUMBERS else (right, left)
        if a.kind is SymKind.LIT and b.kind is SymKind.NUM and b.value:
            a = Sym(SymKind.SCORES, (a,), row=a.row)
        if (
            a.kind is SymKind.SCORES
            and b.kind is SymKind.NUM
            and b.value is not None
            and b.value > 0
            and b.scale is None
        ):
            return Sym(SymKind.SCALED, (a,), row=a.row, scale=Scale.times(b.value), causal=a.causal)
        root = self.inverse_root(node.right, right) or self.inverse_root(node.left, left)
        if root is not None and a.kind is SymKind.SCORES:
            return Sym(SymKind.SCALED, (a,), row=a.row, scale=root, causal=a.causal)
        if root is not None and b.kind is SymKind.SCORES:
            return Sym(SymKind.SCALED, (b,), row=b.row, scale=root, causal=b.causal)
        for w, m in ((left, right), (right, left)):
            if w.kind is SymKind.WEIGHTS and not w.causal and w.row is None and is_causal_ones(m):
                # softmax times tril(ones): renormalised by its row sums it is the causal softmax
                return Sym(SymKind.ZEROED, (w,))
            if w.kind is SymKind.WEIGHTS and w.column and kind_of(m) in VALUELIKE:
                return Sym(SymKind.WEIGHTED, (replace(w, column=False), m), row=w.row)
        return UNKNOWN

    def divisor(self, node: ast.expr, s: Sym) -> Scale | None:
        """The scale a divisor stands for: ÷√N for √N, ÷x for a number x, ÷√(width of K)
        for ``keys.shape[-1] ** 0.5``, None when unknown."""
        if s.scale is not None:
            return s.scale
        text = expr_text(node)
        if isinstance(node, ast.BinOp | ast.Call) and ("shape" in text or "size" in text):
            return BY_WIDTH if ("0.5" in text or "sqrt" in text) else None
        if s.kind is SymKind.NUM and s.value is not None and s.value > 0:
            return Scale.divide(s.value)
        return None

    def inverse_root(self, node: ast.expr, s: Sym) -> Scale | None:
        """÷√N when a factor is 1/√N (``torch.rsqrt(N)``, ``N ** -0.5``), else None."""
        if isinstance(node, ast.Call) and node.args:
            if expr_text(node.func).rsplit(".", 1)[-1] == "rsqrt":
                n = self.ev(node.args[0])
                if n.kind is SymKind.NUM and n.value is not None and n.value > 0:
                    if n.value.denominator == 1:
                        return Scale.root(n.value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            e = self.ev(node.right)
            if e.value == Fraction(-1, 2):
                n = self.ev(node.left)
                if n.kind is SymKind.NUM and n.value is not None and n.value > 0:
                    if n.value.denominator == 1:
                        return Scale.root(n.value)
        return None

    # -- calls ----------------------------------------------------------------------------
    def receiver(self, node: ast.Call, d: int) -> Sym | None:
        """``x`` of ``x.sum()``; None for a module's function (``np.sum``): a name the code
        never binds is a module."""
        f = node.func
        if not isinstance(f, ast.Attribute):
            return None
        root: ast.expr = f.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id not in self.env and root.id not in ("self",):
            return None
        return self.ev(f.value, d)

    def call(self, node: ast.Call, d: int) -> Sym:
        """What a call gives (:class:`~.calls.Evaluator` follows them; this base none)."""
        del node, d
        return UNKNOWN

    def comprehension(self, node: ast.ListComp, d: int) -> Sym:
        """``[f(x) for x in xs]`` over a literal range, a list or the rows of a known value."""
        if len(node.generators) != 1:
            return UNKNOWN
        g = node.generators[0]
        if g.ifs or g.is_async or not isinstance(g.target, ast.Name):
            return UNKNOWN
        over = self.ev(g.iter, d)
        items = self.items(over)
        if items is None or len(items) > MAX_ITEMS:
            return UNKNOWN
        name = g.target.id
        saved = self.env.get(name)
        out = []
        try:
            for item in items:
                self.env[name] = item
                out.append(self.ev(node.elt, d))
        finally:
            if saved is None:
                self.env.pop(name, None)
            else:
                self.env[name] = saved
        return collapse(self.sequence(SymKind.LIST, tuple(out)), over)

    def items(self, s: Sym) -> list[Sym] | None:
        """What iterating over ``s`` gives: its items, or its rows."""
        if s.kind in SEQUENCES:
            return list(s.args)
        n = _rows(s)
        if n is None:
            return None
        if s.kind in ARRAYS:
            a = s.array
            if a is None or not a.shape:
                return None
            return [self.exactly(partial(vals.index, a, [i], self.limits)) for i in range(n)]
        if s.row is not None or s.kind is SymKind.UNKNOWN:
            return None
        return [replace(s, row=i, array=None) for i in range(n)]


def _nested_list(a: Array) -> object:
    if a.shape == ():
        return a.data[0]
    step = len(a.data) // a.shape[0] if a.shape[0] else 0
    return [
        _nested_list(Array(a.shape[1:], a.data[i * step : (i + 1) * step]))
        for i in range(a.shape[0])
    ]


def _rows(s: Sym) -> int | None:
    """How many rows a value has, when its array (or the array it comes from) says."""
    if s.array is not None:
        return s.array.shape[0] if s.array.shape else None
    if s.kind in SAME_ROWS and s.args:
        return _rows(s.args[0])
    return None


def _is_column(keys: list[int | slice | None]) -> bool:
    """``[:, None]``: all of a vector, as a column."""
    return (
        len(keys) == 2 and isinstance(keys[0], slice) and keys[0] == slice(None) and keys[1] is None
    )
