"""Calls, followed symbolically: the stages of attention (``softmax``, ``exp``, ``masked_fill``,
``where``, a layer ``W_q(x)``), the exact array calls of :mod:`.constructors`, and user
functions (inlined by :class:`~.functions.Runner`)."""

from __future__ import annotations

import ast
from dataclasses import replace
from fractions import Fraction
from typing import Final

from symattn.config import DEFAULT_LIMITS
from symattn.read.notations import (
    ARRAY_CALLS,
    CAUSAL_CALLS,
    EXP_CALLS,
    MATMUL_CALLS,
    SOFTMAX_CALLS,
    SQRT_CALLS,
    TRANSPOSE_CALLS,
)
from symattn.read.python import expr_text
from symattn.read.symbolic import values as vals
from symattn.read.symbolic.constructors import CALLS, IDENTITY_METHODS, Args, axis_of
from symattn.read.symbolic.interpreter import MODULES, Interpreter
from symattn.read.symbolic.masks import masks_future
from symattn.read.symbolic.sym import (
    SCORELIKE,
    STAGES,
    UNKNOWN,
    Sym,
    SymKind,
    collapse,
    exact,
    kind_of,
    product,
    projection_of,
    role_kind,
)
from symattn.read.symbolic.sym import weights as softmax_of
from symattn.read.symbolic.values import NotFollowed

__all__ = ["Evaluator"]

#: calls whose value is their first argument's, rounded or reshaped for printing
_SAME_VALUES: Final = frozenset({"round", "around", "squeeze"})
#: calls that stack rows into a matrix (a list of the rows of one stage is that stage)
_ROW_STACKS: Final = frozenset({"stack", "vstack"})
#: fill values that mask a score (``-inf``, or a large negative number such as ``-1e9``)
_MASK_FILL: Final = -(10**4)


class Evaluator(Interpreter):
    """The interpreter with calls followed."""

    def inline(self, fdef: ast.FunctionDef, node: ast.Call, d: int) -> Sym:
        """A user function's value at a call (:class:`~.functions.Runner` inlines it)."""
        del fdef, node, d
        return UNKNOWN

    def call(self, node: ast.Call, d: int) -> Sym:
        fn = expr_text(node.func)
        last = fn.rsplit(".", 1)[-1]
        args = node.args
        if isinstance(node.func, ast.Call) and args:
            # ``nn.Softmax(dim=-1)(scores)``: a module made and called at once
            made = expr_text(node.func.func).rsplit(".", 1)[-1]
            return softmax_of(self.ev(args[0], d)) if made in SOFTMAX_CALLS.words else UNKNOWN
        if isinstance(node.func, ast.Name) and node.func.id in self.functions:
            got = self.inline(self.functions[node.func.id], node, d)
            if got.kind is not SymKind.UNKNOWN or node.func.id not in self.softmaxes:
                return got
            return softmax_of(self.ev(args[0], d)) if args else UNKNOWN
        if any(isinstance(a, ast.Starred) for a in args):
            return UNKNOWN
        recv = self.receiver(node, d)
        if last in SOFTMAX_CALLS.words:
            if recv is not None and not args:
                return softmax_of(recv)  # t.softmax(dim=-1)
            return softmax_of(self.ev(args[0], d)) if args else UNKNOWN
        if last in ("float", "int") and isinstance(node.func, ast.Name) and args:
            if isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                word = args[0].value.strip().lower()
                return (
                    Sym(SymKind.NEGINF)
                    if word == "-inf"
                    else Sym(SymKind.INF)
                    if word == "inf"
                    else UNKNOWN
                )
            return self.ev(args[0], d)
        evaluated = tuple(self.ev(a, d) for a in args)
        kwargs = {k.arg: self.ev(k.value, d) for k in node.keywords if k.arg}
        stage = self.stage_call(node, last, recv, evaluated, kwargs, d)
        if stage is not None:
            return stage
        if last in IDENTITY_METHODS and recv is not None:
            return recv
        if last == "bool" and recv is not None and exact(recv) is None:
            return recv  # (a mask that is not known exactly stays that mask)
        if last in _SAME_VALUES:
            return recv if recv is not None else evaluated[0] if evaluated else UNKNOWN
        if last == "len" and evaluated and evaluated[0].array is not None:
            shape = evaluated[0].array.shape
            return Sym(SymKind.NUM, value=Fraction(shape[0])) if shape else UNKNOWN
        if last in SQRT_CALLS.words and last == "sqrt":
            x = recv if recv is not None else evaluated[0] if evaluated else UNKNOWN
            if x.kind is SymKind.NUM and x.value is not None and x.value > 0:
                return self.root(x.value)
        return self.exact_call(last, recv, evaluated, kwargs, fn, node, d)

    def stage_call(
        self,
        node: ast.Call,
        last: str,
        recv: Sym | None,
        args: tuple[Sym, ...],
        kwargs: dict[str, Sym],
        d: int,
    ) -> Sym | None:
        """The stage a call computes (None: not a stage call)."""
        operand = recv if recv is not None else args[0] if args else UNKNOWN
        if last in MATMUL_CALLS.words and len(args) >= 2 and recv is None:
            a, b = args[0], args[1]
            if any(k.arg == "transpose_b" for k in node.keywords):
                b = Sym(SymKind.T, (b,))
            return self.matmul(a, b)
        if last in ("dot", "matmul", "mm") and recv is not None and args:
            return self.matmul(recv, args[0])
        if last in TRANSPOSE_CALLS.words:
            t = Sym(SymKind.T, (operand,))
            base = exact(operand)
            if base is None:
                return t if operand.kind is not SymKind.UNKNOWN else UNKNOWN
            try:
                got = CALLS[last](Args(args, kwargs, recv, self.limits))
            except (NotFollowed, KeyError):
                return t
            return replace(t, array=got)
        if last in EXP_CALLS.words:
            if operand.kind in SCORELIKE:
                return Sym(SymKind.EXP, (operand,))
            if operand.kind is SymKind.SHIFTED:
                return Sym(SymKind.EXP_SHIFTED, operand.args)
            return UNKNOWN  # (an exponential is never followed as a float)
        if last in ("sum", "reduce_sum"):
            axis = _axis(args, kwargs, recv)
            if operand.kind is SymKind.EXP:
                return Sym(SymKind.SUM, (operand,))
            if operand.kind is SymKind.EXP_SHIFTED:
                return Sym(SymKind.SUM_SHIFTED, operand.args)
            if operand.kind is SymKind.ZEROED and axis in (-1, 1):
                return Sym(SymKind.ROWSUM, (operand,))
            if operand.kind is SymKind.WEIGHTED and axis == 0:
                w, v = operand.args
                return Sym(SymKind.OUTPUT, (w, v), row=w.row, scale=w.scale, causal=w.causal)
            return None
        if last in ("max", "amax", "reduce_max") and operand.kind in SCORELIKE:
            if "dim" in kwargs or (recv is None and expr_text(node.func).startswith("torch")):
                return Sym(SymKind.TUPLE, (Sym(SymKind.MAX, (operand,)), UNKNOWN))
            return Sym(SymKind.MAX, (operand,))
        if last == "masked_fill" and recv is not None:
            if recv.kind not in SCORELIKE or len(args) < 2:
                return UNKNOWN
            if not (_fills_mask(args[1]) or args[1].kind is SymKind.UNKNOWN):
                return UNKNOWN
            future = masks_future(args[0])
            if future is None:
                causal = args[0].kind is SymKind.MASK or any(
                    f"{w}(" in expr_text(node) for w in CAUSAL_CALLS.words
                )
            else:
                causal = future
            return replace(recv, causal=True) if causal else UNKNOWN
        if last == "where" and recv is None and len(args) == 3:
            cond, a, b = args
            if a.kind in SCORELIKE and _fills_mask(b):
                return replace(a, causal=True) if _lower(cond) else UNKNOWN
            if b.kind in SCORELIKE and _fills_mask(a):
                return replace(b, causal=True) if masks_future(cond) else UNKNOWN
            return None
        if last in CAUSAL_CALLS.words and exact(operand) is None:
            return Sym(SymKind.MASK)
        del d
        return None

    def matmul(self, a: Sym, b: Sym) -> Sym:
        stage = product(a, b)
        x, y = exact(a), exact(b)
        if x is not None and y is not None:
            return self.exactly(lambda: vals.matmul(x, y, self.limits), stage)
        return stage

    def exact_call(
        self,
        last: str,
        recv: Sym | None,
        args: tuple[Sym, ...],
        kwargs: dict[str, Sym],
        fn: str,
        node: ast.Call,
        d: int,
    ) -> Sym:
        """An array call followed exactly, else the layers and the array wrappers."""
        if (last in ARRAY_CALLS.words or last in _ROW_STACKS) and args:
            got = collapse(args[0])
            if got.kind in STAGES:
                return got
        if last in CALLS and (recv is None or recv.kind is not SymKind.UNKNOWN):
            module = recv is None and (fn.split(".")[0] in MODULES or fn == last)
            if recv is not None or module:
                try:
                    return self.exactly(lambda: CALLS[last](Args(args, kwargs, recv, self.limits)))
                except NotFollowed:
                    return UNKNOWN
        if last in ARRAY_CALLS.words and args:
            return args[0]
        callee = self.env.get(fn) or self.env.get(last)
        if callee is not None and callee.kind is SymKind.LAYER and args:
            x = args[0]
            if kind_of(x) is SymKind.X:
                return Sym(SymKind(callee.name), (x, callee), row=x.row)
            return UNKNOWN
        projected = projection_of(role_kind(last))
        if projected is not None and args:
            x = args[0]
            if kind_of(x) is SymKind.X:
                layer = Sym(SymKind.LAYER, name=projected, ref=-1)
                return Sym(projected, (x, layer), row=x.row)
        del node, d
        return UNKNOWN


def _axis(args: tuple[Sym, ...], kwargs: dict[str, Sym], recv: Sym | None) -> int | None:
    try:
        return axis_of(Args(args, kwargs, recv, DEFAULT_LIMITS), 0)
    except NotFollowed:
        return None


def _fills_mask(s: Sym) -> bool:
    """``-inf``, ``float('-inf')``, or a large negative number such as ``-1e9``."""
    return s.kind is SymKind.NEGINF or (
        s.kind is SymKind.NUM and s.value is not None and s.value <= _MASK_FILL
    )


def _lower(s: Sym) -> bool:
    """Whether the true entries of ``s`` are exactly the past and present keys (``j <= i``)."""
    a = s.array
    if a is None or len(a.shape) != 2 or a.shape[0] != a.shape[1]:
        return False
    n = a.shape[0]
    return all((a.data[i * n + j] != 0) == (j <= i) for i in range(n) for j in range(n))
