"""A safe grammar for the arithmetic people write in worked examples.

``tokenize`` + a recursive-descent ``Parser`` (bounded depth, bounded literals, bounded
work) turn text such as ``0.47*0.22+(-0.15)*(-0.175)``, ``e^{2.5}``, ``\\frac{12.18}{14.89}``,
``[5, 2] \\div 2`` or ``sum([e^0.092, e^0.119])`` into a small frozen syntax tree; nothing is
ever evaluated as code. ``evaluate`` turns a syntax tree into a :class:`Scalar` (a frozen tree
implementing the ``Quantity`` protocol: ``rational()`` exactly when the value is rational,
``arb(prec)`` a certified ball otherwise) or a tuple of them (vectors, matrices).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Final, Union

import flint

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError
from symattn.exact import arb_of
from symattn.numbers import Written, parse_number

__all__ = [
    "E",
    "ExprError",
    "Node",
    "Scalar",
    "Token",
    "Value",
    "evaluate",
    "lit",
    "normalize",
    "parse",
    "tokenize",
]


class ExprError(InputError):
    """Text that is not an expression of the safe grammar (or breaks one of its bounds)."""


# --------------------------------------------------------------------------- normalizing

#: LaTeX and unicode spellings mapped to the grammar's own characters (rules as data)
_REPLACEMENTS: Final[tuple[tuple[str, str], ...]] = (
    ("\\times", "×"),
    ("\\cdot", "·"),
    ("\\div", "÷"),
    ("\\approx", "≈"),
    ("\\simeq", "≈"),
    ("\\thickapprox", "≈"),
    ("约等于", "≈"),
    ("≒", "≈"),
    ("≃", "≈"),
    ("根号", "√"),
    ("\\dfrac", "\\frac"),
    ("\\tfrac", "\\frac"),
    ("\\exp", "exp"),
    ("\\left", ""),
    ("\\right", ""),
    ("\\bigl", ""),
    ("\\bigr", ""),
    ("\\Bigl", ""),
    ("\\Bigr", ""),
    ("\\big", ""),
    ("\\Big", ""),
    ("\\mathbf", ""),
    ("\\boldsymbol", ""),
    ("\\mathrm", ""),
    ("\\mathit", ""),
    ("\\textbf", ""),
    ("\\text", ""),
    ("\\operatorname", ""),
    ("\\displaystyle", ""),
    ("\\quad", " "),
    ("\\qquad", " "),
    ("\\,", " "),
    ("\\;", " "),
    ("\\:", " "),
    ("\\!", ""),
    ("\\ ", " "),
    ("&", " "),
    ("\u2212", "-"),
    ("\u2013", "-"),
    ("\uff0c", ","),
    ("\u3001", ","),
    ("\uff08", "("),
    ("\uff09", ")"),
    ("\uff1d", "="),
    ("\uff0b", "+"),
    ("\uff0d", "-"),
    ("\uff3b", "["),
    ("\uff3d", "]"),
    ("\u00d7", "×"),
    ("\u2217", "*"),
    ("\u22c5", "·"),
    ("\u2022", "·"),
    ("\u221a", "√"),
)
_REPL_RE: Final = re.compile(
    "|".join(re.escape(a) for a, _ in sorted(_REPLACEMENTS, key=lambda p: -len(p[0])))
    + r"|[\uff10-\uff19\uff0e]"
)
_REPL: Final = dict(_REPLACEMENTS)


def normalize(text: str) -> tuple[str, tuple[int, ...]]:
    """The text in the grammar's spelling, and for each character its offset in ``text``."""
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for m in _REPL_RE.finditer(text):
        for i in range(pos, m.start()):
            out.append(text[i])
            where.append(i)
        old = m.group()
        new = _REPL.get(old)
        if new is None:  # fullwidth digit or point
            new = chr(ord(old) - 0xFEE0)
        if old.startswith("\\") and old[-1].isalpha() and new and new[-1].isalpha():
            new += " "  # \exp{x}: keep the name apart from what follows
        for ch in new:
            out.append(ch)
            where.append(m.start())
        pos = m.end()
    for i in range(pos, len(text)):
        out.append(text[i])
        where.append(i)
    return "".join(out), tuple(where)


# --------------------------------------------------------------------------- tokens


@dataclass(frozen=True)
class Token:
    """One token: its kind (``num``, ``name``, ``cmd``, ``op``, ``rel``, ``dots``) and text."""

    kind: str
    text: str
    pos: int


_CJK: Final = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE: Final = re.compile(
    rf"""
    (?P<space>\s+)
  | (?P<num>(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?)
  | (?P<name>(?:[A-Za-z]+|[{_CJK}]+)(?:_(?:\{{[^{{}}]{{0,40}}\}}|[A-Za-z0-9{_CJK}]+))?'*)
  | (?P<dots>\\(?:cdots|ldots|dots|vdots|ddots)|\.\.\.|…|⋯)
  | (?P<cmd>\\[A-Za-z]+)
  | (?P<rel>≈|=)
  | (?P<op>[-+×*·÷/^()\[\]{{}},√])
    """,
    re.VERBOSE,
)


def tokenize(text: str, *, limits: Limits = DEFAULT_LIMITS) -> tuple[Token, ...]:
    """The tokens of already normalized text; anything else is an :class:`ExprError`."""
    if len(text) > limits.max_line_length:
        raise LimitError(
            f"expression of {len(text)} characters exceeds max_line_length={limits.max_line_length}"
        )
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise ExprError(f"unexpected character {text[pos]!r} at offset {pos}")
        kind = m.lastgroup or ""
        if kind != "space":
            if kind == "num" and len(m.group()) > limits.max_literal_length:
                raise LimitError(
                    f"number literal of {len(m.group())} characters exceeds max_literal_length={limits.max_literal_length}"
                )
            tokens.append(Token(kind, m.group(), pos))
        pos = m.end()
    return tuple(tokens)


# --------------------------------------------------------------------------- syntax tree


@dataclass(frozen=True)
class Num:
    """A number as written, and its offset in the parsed text."""

    written: Written
    pos: int = field(default=-1, compare=False)


@dataclass(frozen=True)
class Ref:
    """A name (``d_k``, ``sum``, ``e``, ``v_1``)."""

    name: str


@dataclass(frozen=True)
class VecNode:
    """A bracketed list ``[a, b]`` (nested for matrices)."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Unary:
    """``-x`` or ``+x``."""

    op: str
    x: Node


@dataclass(frozen=True)
class Chain:
    """``a op b op c`` of one precedence level, left to right; ops are ``+ -`` or ``* / ·``."""

    first: Node
    rest: tuple[tuple[str, Node], ...]


@dataclass(frozen=True)
class PowNode:
    """``base ^ exponent``."""

    base: Node
    exponent: Node


@dataclass(frozen=True)
class Call:
    """``exp(x)``, ``sqrt(x)``, ``sum(v)``."""

    fn: str
    arg: Node


Node = Union[Num, Ref, VecNode, Unary, Chain, PowNode, Call]

_MUL_OPS: Final = {"×": "*", "*": "*", "·": "*", "÷": "/", "/": "/"}
_FUNCTIONS: Final = frozenset({"exp", "sqrt", "sum"})
_OPEN_CLOSE: Final = {"(": ")", "{": "}", "[": "]"}


class Parser:
    """Recursive descent over tokens with a bounded depth."""

    def __init__(self, tokens: tuple[Token, ...], limits: Limits = DEFAULT_LIMITS) -> None:
        self.tokens = tokens
        self.i = 0
        self.limits = limits
        self.depth = 0
        self.max_depth = 4 * limits.max_nesting + 16

    # helpers
    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def at(self, text: str) -> bool:
        t = self.peek()
        return t is not None and t.kind in ("op", "rel") and t.text == text

    def take(self) -> Token:
        t = self.peek()
        if t is None:
            raise ExprError("the expression ends too early")
        self.i += 1
        return t

    def expect(self, text: str) -> None:
        t = self.take()
        if t.text != text:
            raise ExprError(f"expected {text!r}, found {t.text!r}")

    def enter(self) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            raise LimitError(f"expression nested deeper than {self.max_depth} levels")

    # grammar
    def parse(self) -> Node:
        node = self.expr()
        if self.peek() is not None:
            raise ExprError(f"unexpected {self.peek().text!r}")  # type: ignore[union-attr]
        return node

    def expr(self) -> Node:
        self.enter()
        first = self.term()
        rest: list[tuple[str, Node]] = []
        while self.at("+") or self.at("-"):
            op = self.take().text
            rest.append((op, self.term()))
        self.depth -= 1
        return Chain(first, tuple(rest)) if rest else first

    def term(self) -> Node:
        first = self.unary()
        rest: list[tuple[str, Node]] = []
        prev = first
        while (t := self.peek()) is not None:
            if t.kind == "op" and t.text in _MUL_OPS:
                self.take()
                prev = self.unary()
                rest.append((_MUL_OPS[t.text], prev))
            elif _implicit(prev, t):  # 5\sqrt{2}, 2(3 + 1), 2x
                prev = self.power()
                rest.append(("*", prev))
            else:
                break
        return Chain(first, tuple(rest)) if rest else first

    def unary(self) -> Node:
        if self.at("-") or self.at("+"):
            self.enter()
            op = self.take().text
            node: Node = Unary(op, self.unary())
            self.depth -= 1
            return node
        return self.power()

    def power(self) -> Node:
        base = self.primary()
        if self.at("^"):
            self.take()
            self.enter()
            exponent = self.unary()
            self.depth -= 1
            return PowNode(base, exponent)
        return base

    def group(self) -> Node:
        """``{x}`` (a LaTeX argument) or a single primary."""
        if self.at("{"):
            return self.primary()
        return self.power()

    def primary(self) -> Node:
        t = self.take()
        if t.kind == "num":
            return Num(parse_number(t.text, limits=self.limits), t.pos)
        if t.kind == "dots":
            raise ExprError("an ellipsis is not a value")
        if t.kind == "name":
            name = t.text
            if name in _FUNCTIONS and (self.at("(") or self.at("{")):
                return Call(name, self.primary())
            if self.at("("):
                raise ExprError(f"{name}(...) is a label, not arithmetic")
            return Ref(canonical_name(name))
        if t.kind == "cmd":
            return self.command(t.text)
        if t.kind == "op" and t.text in _OPEN_CLOSE:
            self.enter()
            close = _OPEN_CLOSE[t.text]
            if t.text == "[":
                items = [self.expr()]
                while self.at(","):
                    self.take()
                    items.append(self.expr())
                    if len(items) > self.limits.max_line_length:
                        raise LimitError("vector too long")
                self.expect(close)
                self.depth -= 1
                return VecNode(tuple(items))
            inner = self.expr()
            self.expect(close)
            self.depth -= 1
            return inner
        if t.kind == "op" and t.text == "√":
            self.enter()
            node = Call("sqrt", self.group())
            self.depth -= 1
            return node
        raise ExprError(f"unexpected {t.text!r}")

    def command(self, cmd: str) -> Node:
        self.enter()
        try:
            if cmd == "\\frac":
                num = self.group()
                den = self.group()
                return Chain(num, (("/", den),))
            if cmd == "\\sqrt":
                if self.at("["):
                    raise ExprError("only square roots are supported")
                return Call("sqrt", self.group())
            raise ExprError(f"unsupported command {cmd}")
        finally:
            self.depth -= 1


def _implicit(prev: Node, t: Token) -> bool:
    """Whether ``t`` right after ``prev`` multiplies it without a sign (``5\\sqrt{2}``)."""
    if t.kind == "cmd" and t.text in ("\\sqrt", "\\frac"):
        return True
    if t.kind == "op" and t.text == "√":
        return True
    return isinstance(prev, Num) and (t.kind == "name" or (t.kind == "op" and t.text == "("))


def canonical_name(text: str) -> str:
    """``s_{1}`` and ``s_1`` are one name; ``{Output}`` is ``Output``."""
    return re.sub(r"_\{([^{}]*)\}", r"_\1", text)


def parse(text: str, *, limits: Limits = DEFAULT_LIMITS, normalized: bool = False) -> Node:
    """The syntax tree of ``text`` (normalized first); :class:`ExprError` when not in the grammar."""
    norm = text if normalized else normalize(text)[0]
    tokens = tokenize(norm, limits=limits)
    if not tokens:
        raise ExprError("empty expression")
    return Parser(tokens, limits).parse()


# --------------------------------------------------------------------------- values


def _frac_bits(x: Fraction) -> int:
    return x.numerator.bit_length() + x.denominator.bit_length()


def _arb_q(x: Fraction) -> flint.arb:
    return arb_of(x)


#: bound on |x| in exp(x): e^1000000 is far beyond any worked example
_MAX_EXP_ARG: Final = 10**6


@dataclass(frozen=True)
class Scalar:
    """An exact real number as a tree: ``op`` is lit, e, neg, sum, prod, pow, exp or sqrt.

    ``sum`` and ``prod`` are n-ary and fold left to right (``prod`` items carry ``*``/``/``),
    as a person (or a double-precision program) computes them.
    """

    op: str
    args: tuple[Scalar, ...] = ()
    value: Fraction | None = None
    ops: tuple[str, ...] = ()
    max_bits: int = field(default=20_000, compare=False)

    # -- exact
    @cached_property
    def _rational(self) -> Fraction | None:
        return _RATIONAL[self.op](self)

    def rational(self) -> Fraction | None:
        """The exact value when it is rational (decided exactly), else None."""
        return self._rational

    def arb(self, prec: int) -> flint.arb:
        """A certified ball containing the value, computed at ``prec`` bits."""
        with flint.ctx.workprec(prec):
            return self._arb()

    def _arb(self) -> flint.arb:
        r = self.rational()
        if r is not None:
            return _arb_q(r)
        return _ARB[self.op](self)

    def float64(self) -> float | None:
        """The value as a double-precision program computes it (None on overflow or error)."""
        try:
            return _FLOAT[self.op](self)
        except (OverflowError, ZeroDivisionError, ValueError):
            return None

    def with_e(self, approx: Scalar) -> Scalar:
        """The same tree with the constant e replaced by ``approx`` (e.g. 2.718)."""
        if self.op == "e":
            return approx
        if not self.args:
            return self
        return Scalar(
            self.op, tuple(a.with_e(approx) for a in self.args), self.value, self.ops, self.max_bits
        )

    @cached_property
    def uses_e(self) -> bool:
        """Whether the constant e occurs in the tree."""
        return self.op == "e" or any(a.uses_e for a in self.args)


def lit(value: Fraction | int, max_bits: int = 20_000) -> Scalar:
    """A literal exact number."""
    return Scalar("lit", value=Fraction(value), max_bits=max_bits)


E: Final = Scalar("e")


def _check_bits(x: Fraction, s: Scalar) -> Fraction:
    if _frac_bits(x) > s.max_bits:
        raise LimitError(
            f"an exact intermediate value exceeds {s.max_bits} bits (max_precision_bits)"
        )
    return x


def _r_sum(s: Scalar) -> Fraction | None:
    vals = [a.rational() for a in s.args]
    if any(v is None for v in vals):
        return None
    return _check_bits(sum(vals, Fraction(0)), s)  # type: ignore[arg-type]


def _r_prod(s: Scalar) -> Fraction | None:
    vals = [a.rational() for a in s.args]
    for v, op in zip(vals, s.ops):
        if op == "/" and v == 0:
            raise ExprError("division by zero")
    if any(v is None for v in vals):
        if any(v == 0 for v, op in zip(vals, s.ops) if op == "*"):
            # 0 times anything finite is 0; the other factors are finite by construction
            return Fraction(0)
        return None
    acc = Fraction(1)
    for v, op in zip(vals, s.ops):
        acc = acc * v if op == "*" else acc / v  # type: ignore[operator]
        _check_bits(acc, s)
    return acc


def _integer_root(x: Fraction, n: int) -> Fraction | None:
    """The exact n-th root of ``x >= 0`` when rational."""

    def iroot(a: int) -> int | None:
        r = round(a ** (1.0 / n)) if a.bit_length() < 1000 else None
        if r is None:
            return None
        for c in (r - 1, r, r + 1):
            if c >= 0 and c**n == a:
                return c
        return None

    p, q = iroot(x.numerator), iroot(x.denominator)
    return Fraction(p, q) if p is not None and q is not None else None


def _r_pow(s: Scalar) -> Fraction | None:
    base, exponent = s.args
    if base.op == "e":
        return _r_exp(Scalar("exp", (exponent,), max_bits=s.max_bits))
    b, x = base.rational(), exponent.rational()
    if b is None or x is None:
        return None
    if b == 0 and x <= 0:
        raise ExprError("0 to a power that is not positive")
    if x.denominator == 1:
        n = x.numerator
        if abs(n) * max(1, _frac_bits(b)) > s.max_bits:
            raise LimitError(f"the power ^{n} is too large to compute exactly (max_precision_bits)")
        return b**n
    if b < 0:
        raise ExprError("a negative number to a fractional power")
    if x.denominator > 64 or abs(x.numerator) * _frac_bits(b) > s.max_bits:
        return None
    root = _integer_root(b, x.denominator)
    return None if root is None else root**x.numerator


def _r_exp(s: Scalar) -> Fraction | None:
    x = s.args[0].rational()
    return Fraction(1) if x == 0 else None  # Lindemann: e^x is irrational for rational x != 0


def _r_sqrt(s: Scalar) -> Fraction | None:
    x = s.args[0].rational()
    if x is None:
        return None
    if x < 0:
        raise ExprError("the square root of a negative number")
    p, q = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return Fraction(p, q) if p * p == x.numerator and q * q == x.denominator else None


def _r_neg(s: Scalar) -> Fraction | None:
    x = s.args[0].rational()
    return None if x is None else -x


_RATIONAL: Final = {
    "lit": lambda s: s.value,
    "e": lambda s: None,
    "neg": _r_neg,
    "sum": _r_sum,
    "prod": _r_prod,
    "pow": _r_pow,
    "exp": _r_exp,
    "sqrt": _r_sqrt,
}


def _a_prod(s: Scalar) -> flint.arb:
    acc = flint.arb(1)
    for a, op in zip(s.args, s.ops):
        v = a._arb()
        acc = acc * v if op == "*" else acc / v
    return acc


def _a_exp_of(x: flint.arb) -> flint.arb:
    if not x.is_finite() or abs(x.mid()) > _MAX_EXP_ARG:
        raise LimitError(f"e^x with |x| above {_MAX_EXP_ARG} is not supported")
    return x.exp()


def _a_pow(s: Scalar) -> flint.arb:
    base, exponent = s.args
    x = exponent._arb()
    if base.op == "e":
        return _a_exp_of(x)
    r = exponent.rational()
    if r is not None and r.denominator == 1 and abs(r.numerator) <= s.max_bits:
        return base._arb() ** r.numerator
    b = base._arb()
    if not b > 0:
        raise ExprError("a fractional power of a number that is not clearly positive")
    return _a_exp_of(b.log() * x)


def _a_sqrt(s: Scalar) -> flint.arb:
    x = s.args[0]._arb()
    if x < 0:
        raise ExprError("the square root of a negative number")
    return x.sqrt()


_ARB: Final = {
    "e": lambda s: flint.arb.const_e(),
    "neg": lambda s: -s.args[0]._arb(),
    "sum": lambda s: _fold_sum([a._arb() for a in s.args]),
    "prod": _a_prod,
    "pow": _a_pow,
    "exp": lambda s: _a_exp_of(s.args[0]._arb()),
    "sqrt": _a_sqrt,
}


def _fold_sum(vals: list[flint.arb]) -> flint.arb:
    acc = flint.arb(0)
    for v in vals:
        acc += v
    return acc


def _f_prod(s: Scalar) -> float:
    acc = 1.0
    first = True
    for a, op in zip(s.args, s.ops):
        v = _need(a.float64())
        if first and op == "*":
            acc, first = v, False
            continue
        first = False
        acc = acc * v if op == "*" else acc / v
    return acc


def _need(x: float | None) -> float:
    if x is None:
        raise ValueError("no float value")
    return x


def _f_sum(s: Scalar) -> float:
    vals = [_need(a.float64()) for a in s.args]
    acc = vals[0]
    for v in vals[1:]:
        acc += v
    return acc


def _f_pow(s: Scalar) -> float:
    base, exponent = s.args
    x = _need(exponent.float64())
    if abs(x) > _MAX_EXP_ARG:
        raise OverflowError
    if base.op == "e":
        return math.exp(x)
    b = _need(base.float64())
    result = b**x
    if isinstance(result, complex):
        raise ValueError("complex")
    return float(result)


_FLOAT: Final = {
    "lit": lambda s: float(s.value),
    "e": lambda s: math.e,
    "neg": lambda s: -_need(s.args[0].float64()),
    "sum": _f_sum,
    "prod": _f_prod,
    "pow": _f_pow,
    "exp": lambda s: (
        math.exp(_need(s.args[0].float64()))
        if abs(_need(s.args[0].float64())) <= _MAX_EXP_ARG
        else _need(None)
    ),
    "sqrt": lambda s: math.sqrt(_need(s.args[0].float64())),
}

Value = Union[Scalar, tuple]  # a scalar, or a tuple of values (vector, matrix)


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class _Ctx:
    env: Mapping[str, Value]
    limits: Limits
    e: Scalar
    budget: list[int]  # remaining nodes to build (bounded work per expression)


def _spend(ctx: _Ctx, n: int) -> None:
    ctx.budget[0] -= n
    if ctx.budget[0] < 0:
        raise LimitError("the expression takes too much work to evaluate (max_line_length)")


def shape(v: Value) -> tuple[int, ...]:
    """The shape of a value: () for a scalar; a ragged list is an :class:`ExprError`."""
    if isinstance(v, Scalar):
        return ()
    if not v:
        raise ExprError("empty list")
    inner = shape(v[0])
    if any(shape(x) != inner for x in v[1:]):
        raise ExprError("ragged list: rows of different lengths")
    return (len(v), *inner)


def _map2(a: Value, b: Value, f, ctx: _Ctx) -> Value:  # type: ignore[no-untyped-def]
    if isinstance(a, Scalar) and isinstance(b, Scalar):
        _spend(ctx, 1)
        return f(a, b)
    if isinstance(a, Scalar):
        return tuple(_map2(a, y, f, ctx) for y in b)
    if isinstance(b, Scalar):
        return tuple(_map2(x, b, f, ctx) for x in a)
    if len(a) != len(b):
        raise ExprError(f"lengths {len(a)} and {len(b)} do not match")
    return tuple(_map2(x, y, f, ctx) for x, y in zip(a, b))


def _sum_of(terms: list[Scalar], ctx: _Ctx) -> Scalar:
    flat: list[Scalar] = []
    for t in terms:
        flat.extend(t.args if t.op == "sum" else (t,))
    return (
        flat[0]
        if len(flat) == 1
        else Scalar("sum", tuple(flat), max_bits=ctx.limits.max_precision_bits)
    )


def _prod_of(a: Scalar, op: str, b: Scalar, ctx: _Ctx) -> Scalar:
    if a.op == "prod":
        return Scalar(
            "prod", (*a.args, b), ops=(*a.ops, op), max_bits=ctx.limits.max_precision_bits
        )
    return Scalar("prod", (a, b), ops=("*", op), max_bits=ctx.limits.max_precision_bits)


def _dot(a: tuple, b: tuple, ctx: _Ctx) -> Scalar:
    if len(a) != len(b):
        raise ExprError(f"cannot multiply: lengths {len(a)} and {len(b)} differ")
    if not all(isinstance(x, Scalar) for x in (*a, *b)):
        raise ExprError("dot product of non-vectors")
    _spend(ctx, 2 * len(a))
    return _sum_of([_prod_of(x, "*", y, ctx) for x, y in zip(a, b)], ctx)


def _multiply(a: Value, b: Value, op: str, ctx: _Ctx) -> Value:
    sa, sb = shape(a), shape(b)
    if op == "/" or not sa or not sb:
        return _map2(a, b, lambda x, y: _prod_of(x, op, y, ctx), ctx)
    if len(sa) == 1 and len(sb) == 1:
        return _dot(a, b, ctx)  # type: ignore[arg-type]
    if len(sa) <= 2 and len(sb) == 2:
        rows = [a] if len(sa) == 1 else list(a)  # type: ignore[arg-type]
        cols = list(zip(*b))  # type: ignore[misc]
        _spend(ctx, len(rows) * len(cols) * sb[0])
        out = tuple(tuple(_dot(tuple(r), tuple(c), ctx) for c in cols) for r in rows)
        return out[0] if len(sa) == 1 else out
    if len(sa) == 2 and len(sb) == 1:
        return tuple(_dot(tuple(r), b, ctx) for r in a)  # type: ignore[arg-type, union-attr]
    raise ExprError(f"cannot multiply shapes {sa} and {sb}")


def _scalar_arg(v: Value, fn: str) -> Scalar:
    if not isinstance(v, Scalar):
        raise ExprError(f"{fn} of a list")
    return v


def _eval(node: Node, ctx: _Ctx) -> Value:
    mb = ctx.limits.max_precision_bits
    if isinstance(node, Num):
        _spend(ctx, 1)
        return Scalar("lit", value=node.written.value, max_bits=mb)
    if isinstance(node, Ref):
        if node.name in ctx.env:
            return ctx.env[node.name]
        if node.name == "e":
            return ctx.e
        raise ExprError(f"unknown name {node.name}")
    if isinstance(node, VecNode):
        if len(node.items) > ctx.limits.max_elements:
            raise LimitError("list too long (max_elements)")
        items = tuple(_eval(x, ctx) for x in node.items)
        shape(items)
        return items
    if isinstance(node, Unary):
        x = _eval(node.x, ctx)
        if node.op == "+":
            return x
        return _map2(x, lit(0), lambda a, _z: Scalar("neg", (a,), max_bits=mb), ctx)
    if isinstance(node, Chain):
        acc = _eval(node.first, ctx)
        if node.rest and node.rest[0][0] in "+-":
            for op, term in node.rest:
                y = _eval(term, ctx)
                if op == "-":
                    y = _map2(y, lit(0), lambda a, _z: Scalar("neg", (a,), max_bits=mb), ctx)
                acc = _map2(acc, y, lambda a, b: _sum_of([a, b], ctx), ctx)
            return acc
        for op, term in node.rest:
            acc = _multiply(acc, _eval(term, ctx), op, ctx)
        return acc
    if isinstance(node, PowNode):
        base = _scalar_arg(_eval(node.base, ctx), "a power")
        exponent = _scalar_arg(_eval(node.exponent, ctx), "an exponent")
        _spend(ctx, 1)
        return Scalar("pow", (base, exponent), max_bits=mb)
    if isinstance(node, Call):
        arg = _eval(node.arg, ctx)
        if node.fn == "sum":
            if isinstance(arg, Scalar):
                return arg
            flat: list[Scalar] = []
            for x in arg:
                if not isinstance(x, Scalar):
                    raise ExprError("sum of a matrix")
                flat.append(x)
            return Scalar("sum", tuple(flat), max_bits=mb) if len(flat) > 1 else flat[0]
        return _map2(arg, lit(0), lambda a, _z: Scalar(node.fn, (a,), max_bits=mb), ctx)
    raise ExprError(f"unknown node {type(node).__name__}")


def evaluate(
    node: Node,
    env: Mapping[str, Value] | None = None,
    *,
    e: Scalar = E,
    limits: Limits = DEFAULT_LIMITS,
) -> Value:
    """The exact value of a syntax tree; names from ``env``; ``e`` is Euler's number unless given."""
    ctx = _Ctx(env or {}, limits, e, [max(1000, limits.max_line_length)])
    return _eval(node, ctx)


def names(node: Node) -> frozenset[str]:
    """The names a syntax tree refers to."""
    if isinstance(node, Ref):
        return frozenset({node.name})
    if isinstance(node, VecNode):
        return frozenset().union(*(names(x) for x in node.items))
    if isinstance(node, Unary):
        return names(node.x)
    if isinstance(node, Chain):
        return names(node.first).union(*(names(x) for _, x in node.rest))
    if isinstance(node, PowNode):
        return names(node.base) | names(node.exponent)
    if isinstance(node, Call):
        return names(node.arg)
    return frozenset()


def literal_numbers(node: Node) -> list[tuple[Written, int]] | None:
    """The numbers of a literal (``0.5``, ``-0.15``, ``[0.031, 0.111]``) with offsets; None if not literal."""
    if isinstance(node, Num):
        return [(node.written, node.pos)]
    if isinstance(node, Unary) and isinstance(node.x, Num):
        w = node.x.written
        sign = -1 if node.op == "-" else 1
        text = ("-" if sign < 0 else "") + w.text
        return [(replace(w, value=sign * w.value, text=text), node.x.pos - (1 if sign < 0 else 0))]
    if isinstance(node, VecNode):
        out: list[tuple[Written, int]] = []
        for x in node.items:
            got = literal_numbers(x)
            if got is None:
                return None
            out.extend(got)
        return out
    return None


def flatten(v: Value) -> tuple[Scalar, ...]:
    """The scalars of a value in row-major order."""
    if isinstance(v, Scalar):
        return (v,)
    out: list[Scalar] = []
    for x in v:
        out.extend(flatten(x))
    return tuple(out)
