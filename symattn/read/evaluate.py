"""The value of a syntax tree: a :class:`~symattn.read.scalar.Scalar`, or a tuple of values
(vectors, matrices), built with bounded work; names are looked up in an environment."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.judge.findings import Join, Message
from symattn.read.messages import limit_exceeded, not_checked
from symattn.read.scalar import E, Fold, Op, Scalar, lit
from symattn.read.syntax import Chain, Node, Num, Percent, PowNode, Ref, Transpose, Unary, VecNode
from symattn.read.tokens import ExprError, ReadLimitError

__all__ = ["Value", "evaluate", "flatten", "shape"]

#: a scalar, or a tuple of values (vector, matrix)
Value = Scalar | tuple["Value", ...]

#: the grammar's functions taken entry by entry, as the node each builds
_ENTRYWISE: Final[Mapping[str, Op]] = MappingProxyType(
    {"exp": Op.EXP, "sqrt": Op.SQRT, "ln": Op.LN}
)


@dataclass(frozen=True)
class _Ctx:
    env: Mapping[str, Value]
    limits: Limits
    e: Scalar
    budget: list[int]  # remaining nodes to build (bounded work per expression)
    overrides: Mapping[int, Scalar]  # numbers (by offset) that stand for another value


def _spend(ctx: _Ctx, n: int) -> None:
    ctx.budget[0] -= n
    if ctx.budget[0] < 0:
        raise ReadLimitError(not_checked("too-much-work"))


def shape(v: Value) -> tuple[int, ...]:
    """The shape of a value: () for a scalar; a ragged list is an :class:`ExprError`."""
    if isinstance(v, Scalar):
        return ()
    if not v:
        raise ExprError(not_checked("empty-list"))
    inner = shape(v[0])
    if any(shape(x) != inner for x in v[1:]):
        raise ExprError(not_checked("ragged-list"))
    return (len(v), *inner)


def _map2(a: Value, b: Value, f: Callable[[Scalar, Scalar], Scalar], ctx: _Ctx) -> Value:
    if isinstance(a, Scalar) and isinstance(b, Scalar):
        _spend(ctx, 1)
        return f(a, b)
    if isinstance(a, Scalar):
        assert not isinstance(b, Scalar)
        return tuple(_map2(a, y, f, ctx) for y in b)
    if isinstance(b, Scalar):
        return tuple(_map2(x, b, f, ctx) for x in a)
    if len(a) != len(b):
        raise ExprError(not_checked("lengths-differ", a=len(a), b=len(b)))
    return tuple(_map2(x, y, f, ctx) for x, y in zip(a, b, strict=True))


def _negate(v: Value, ctx: _Ctx) -> Value:
    mb = ctx.limits.max_precision_bits
    return _map2(v, lit(0), lambda a, _z: Scalar(Op.NEG, (a,), max_bits=mb), ctx)


def _sum_of(terms: list[Scalar], ctx: _Ctx) -> Scalar:
    flat: list[Scalar] = []
    for t in terms:
        flat.extend(t.args if t.op is Op.SUM else (t,))
    return (
        flat[0]
        if len(flat) == 1
        else Scalar(Op.SUM, tuple(flat), max_bits=ctx.limits.max_precision_bits)
    )


def _add_all(values: list[Value], ctx: _Ctx) -> Value:
    """The sum of ``values`` (a number is added to every entry of a list), built at once:
    one sum of all the terms, never a sum per partial sum (a chain of n terms costs O(n),
    not O(n^2))."""
    scalars = [v for v in values if isinstance(v, Scalar)]
    if len(scalars) == len(values):
        _spend(ctx, len(values) - 1)
        return _sum_of(scalars, ctx)
    n = -1
    for v in values:
        if isinstance(v, Scalar):
            continue
        if n < 0:
            n = len(v)
        elif len(v) != n:
            raise ExprError(not_checked("lengths-differ", a=n, b=len(v)))
    return tuple(
        _add_all([v if isinstance(v, Scalar) else v[i] for v in values], ctx) for i in range(n)
    )


def _prod_of(a: Scalar, fold: Fold, b: Scalar, ctx: _Ctx) -> Scalar:
    if a.op is Op.PROD:
        return Scalar(
            Op.PROD, (*a.args, b), ops=(*a.ops, fold), max_bits=ctx.limits.max_precision_bits
        )
    return Scalar(Op.PROD, (a, b), ops=(Fold.MUL, fold), max_bits=ctx.limits.max_precision_bits)


#: why a dot product of lists of lists is not computed
_NON_VECTORS: Final = not_checked("dot-non-vectors")


def _scalars(v: tuple[Value, ...], what: Message) -> tuple[Scalar, ...]:
    out = tuple(x for x in v if isinstance(x, Scalar))
    if len(out) != len(v):
        raise ExprError(what)
    return out


def _dot(a: tuple[Value, ...], b: tuple[Value, ...], ctx: _Ctx) -> Scalar:
    if len(a) != len(b):
        raise ExprError(not_checked("multiply-lengths", a=len(a), b=len(b)))
    xs, ys = _scalars(a, _NON_VECTORS), _scalars(b, _NON_VECTORS)
    _spend(ctx, 2 * len(a))
    return _sum_of([_prod_of(x, Fold.MUL, y, ctx) for x, y in zip(xs, ys, strict=True)], ctx)


def _rows(v: Value) -> tuple[tuple[Value, ...], ...]:
    """The rows of a matrix (a value of shape (n, m))."""
    assert not isinstance(v, Scalar)
    return tuple(r for r in v if not isinstance(r, Scalar))


def _multiply(a: Value, b: Value, op: str, ctx: _Ctx) -> Value:
    sa, sb = shape(a), shape(b)
    if op == "⊙":
        return _map2(a, b, lambda x, y: _prod_of(x, Fold.MUL, y, ctx), ctx)
    if op == "/" or not sa or not sb:
        fold = Fold.DIV if op == "/" else Fold.MUL
        return _map2(a, b, lambda x, y: _prod_of(x, fold, y, ctx), ctx)
    assert not isinstance(a, Scalar) and not isinstance(b, Scalar)
    if len(sa) == 1 and len(sb) == 1:
        return _dot(a, b, ctx)
    if len(sa) <= 2 and len(sb) == 2:
        rows = [a] if len(sa) == 1 else list(_rows(a))
        cols = list(zip(*_rows(b), strict=True))
        _spend(ctx, len(rows) * len(cols) * sb[0])
        out = tuple(tuple(_dot(tuple(r), tuple(c), ctx) for c in cols) for r in rows)
        return out[0] if len(sa) == 1 else out
    if len(sa) == 2 and len(sb) == 1:
        return tuple(_dot(r, b, ctx) for r in _rows(a))
    raise ExprError(not_checked("multiply-shapes", a=Join(sa, "×"), b=Join(sb, "×")))


def _transpose(v: Value) -> Value:
    sv = shape(v)
    if len(sv) == 1:
        assert not isinstance(v, Scalar)
        return tuple((x,) for x in v)
    if len(sv) == 2:
        return tuple(tuple(col) for col in zip(*_rows(v), strict=True))
    raise ExprError(not_checked("transpose-shape", shape=Join(sv, "×")))


def _softmax_row(row: tuple[Scalar, ...], ctx: _Ctx) -> tuple[Scalar, ...]:
    mb = ctx.limits.max_precision_bits
    exps = tuple(Scalar(Op.EXP, (x,), max_bits=mb) for x in row)
    total = Scalar(Op.SUM, exps, max_bits=mb) if len(exps) > 1 else exps[0]
    _spend(ctx, 3 * len(row))
    return tuple(Scalar(Op.PROD, (e, total), ops=(Fold.MUL, Fold.DIV), max_bits=mb) for e in exps)


def _softmax(v: Value, ctx: _Ctx) -> Value:
    sv = shape(v)
    if len(sv) == 1:
        assert not isinstance(v, Scalar)
        return _softmax_row(_scalars(v, not_checked("softmax-of-lists")), ctx)
    if len(sv) == 2:
        return tuple(
            _softmax_row(_scalars(r, not_checked("softmax-of-matrix")), ctx) for r in _rows(v)
        )
    raise ExprError(not_checked("softmax-shape", shape=Join(sv, "×")))


def _scalar_arg(v: Value, fn: str) -> Scalar:
    if not isinstance(v, Scalar):
        raise ExprError(not_checked("function-of-list", fn=fn))
    return v


def _eval(node: Node, ctx: _Ctx) -> Value:
    mb = ctx.limits.max_precision_bits
    if isinstance(node, Num):
        _spend(ctx, 1)
        if node.pos in ctx.overrides:
            return ctx.overrides[node.pos]
        return Scalar(Op.LIT, value=node.written.value, max_bits=mb)
    if isinstance(node, Ref):
        if node.name in ctx.env:
            return ctx.env[node.name]
        if node.name == "e":
            return ctx.e
        raise ExprError(not_checked("unknown-name", name=node.name))
    if isinstance(node, VecNode):
        if len(node.items) > ctx.limits.max_elements:
            what = not_checked("too-many-items", n=len(node.items))
            raise ReadLimitError(limit_exceeded("max_elements", ctx.limits.max_elements, what))
        items = tuple(_eval(x, ctx) for x in node.items)
        shape(items)
        return items
    if isinstance(node, Unary):
        x = _eval(node.x, ctx)
        return x if node.op == "+" else _negate(x, ctx)
    if isinstance(node, Transpose):
        return _transpose(_eval(node.x, ctx))
    if isinstance(node, Percent):
        _spend(ctx, 1)
        return Scalar(Op.LIT, value=node.x.written.value / 100, max_bits=mb)
    if isinstance(node, Chain):
        acc = _eval(node.first, ctx)
        if node.rest and node.rest[0][0] in "+-":
            terms = [acc]
            for op, term in node.rest:
                y = _eval(term, ctx)
                terms.append(_negate(y, ctx) if op == "-" else y)
            return _add_all(terms, ctx)
        for op, term in node.rest:
            acc = _multiply(acc, _eval(term, ctx), op, ctx)
        return acc
    if isinstance(node, PowNode):
        base = _scalar_arg(_eval(node.base, ctx), "a power")
        raised = _eval(node.exponent, ctx)
        if not isinstance(raised, Scalar):
            # e^{[0.54, 0.38]}: a number raised to each entry, as exp(...) is taken entrywise
            _spend(ctx, len(_scalars(raised, not_checked("exponent-of-matrix"))))
            return _map2(raised, lit(0), lambda x, _z: Scalar(Op.POW, (base, x), max_bits=mb), ctx)
        _spend(ctx, 1)
        return Scalar(Op.POW, (base, raised), max_bits=mb)
    # a call: exp, sqrt (entry by entry) or sum
    arg = _eval(node.arg, ctx)
    if node.fn == "sum":
        if isinstance(arg, Scalar):
            return arg
        flat = _scalars(arg, not_checked("sum-of-matrix"))
        return Scalar(Op.SUM, flat, max_bits=mb) if len(flat) > 1 else flat[0]
    if node.fn == "softmax":
        if isinstance(arg, Scalar):
            raise ExprError(not_checked("softmax-single"))
        return _softmax(arg, ctx)
    fn = _ENTRYWISE.get(node.fn)
    if fn is None:
        raise ExprError(not_checked("unsupported-function", fn=node.fn))
    return _map2(arg, lit(0), lambda a, _z: Scalar(fn, (a,), max_bits=mb), ctx)


def evaluate(
    node: Node,
    env: Mapping[str, Value] | None = None,
    *,
    e: Scalar = E,
    limits: Limits = DEFAULT_LIMITS,
    overrides: Mapping[int, Scalar] | None = None,
) -> Value:
    """The exact value of a syntax tree; names from ``env``; ``e`` is Euler's number unless
    given; the numbers at the offsets of ``overrides`` stand for the values given there."""
    ctx = _Ctx(env or {}, limits, e, [max(1000, limits.max_line_length)], overrides or {})
    return _eval(node, ctx)


def flatten(v: Value) -> tuple[Scalar, ...]:
    """The scalars of a value in row-major order."""
    if isinstance(v, Scalar):
        return (v,)
    out: list[Scalar] = []
    for x in v:
        out.extend(flatten(x))
    return tuple(out)
