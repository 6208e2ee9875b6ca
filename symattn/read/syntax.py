"""The syntax tree of the arithmetic people write, and its recursive-descent parser.

:func:`parse` turns text such as ``0.47*0.22+(-0.15)*(-0.175)``, ``e^{2.5}``,
``\\frac{12.18}{14.89}``, ``[5, 2] \\div 2`` or ``sum([e^0.092, e^0.119])`` into a small frozen
tree (bounded depth, bounded literals); nothing is ever evaluated as code.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import SymattnError
from symattn.numbers import Written, parse_number
from symattn.numbers.written import PLAIN_KINDS, WrittenKind
from symattn.read.messages import not_checked
from symattn.read.notations import (
    BARE_ARGUMENT_FUNCTIONS,
    BRACED_SUBSCRIPT,
    FUNCTION_NAMES,
    MULTIPLY_OP,
    SAME_FUNCTION,
    TUPLE_OPEN,
    VECTOR_FUNCTIONS,
)
from symattn.read.numerals import percent
from symattn.read.tokens import ExprError, ReadLimitError, Token, normalize, tokenize

__all__ = [
    "Call",
    "Chain",
    "Percent",
    "Transpose",
    "Node",
    "Num",
    "Parser",
    "PowNode",
    "Ref",
    "TokenKind",
    "Unary",
    "VecNode",
    "canonical_name",
    "literal_numbers",
    "literal_shape",
    "names",
    "numbers_in",
    "parse",
]


class TokenKind(StrEnum):
    """The kinds of the tokens the parser reads: the names of the rules of
    :data:`~symattn.read.notations.TOKEN_RULES` (but ``space``, which
    :func:`~symattn.read.tokens.tokenize` drops), as ``Token.kind`` holds them."""

    NUM = "num"  #: a numeral (``0.47``, ``1e-3``)
    NAME = "name"  #: a name (``d_k``, ``x_{3}``, ``总和``, ``sum``)
    DOTS = "dots"  #: an ellipsis (``\cdots``, ``...``): elided entries, never a value
    MATBEGIN = "matbegin"  #: ``\begin{bmatrix}`` (any matrix environment, ``array`` too)
    MATEND = "matend"  #: ``\end{bmatrix}``
    ROWSEP = "rowsep"  #: ``\\``: the end of a matrix row
    CMD = "cmd"  #: a LaTeX command (``\frac``, ``\sqrt``, ``\sum``)
    REL = "rel"  #: a relation: ``=`` or ``≈``
    OP = "op"  #: an operator or a bracket (``-``, ``×``, ``^``, ``(``, ``,``, ``√``, ``&``, ``%``)


#: the kinds whose text :meth:`Parser.at` matches
_SIGNS: Final = frozenset({TokenKind.OP, TokenKind.REL})


def _op(t: Token | None, *texts: str) -> bool:
    """Whether ``t`` is the operator (or bracket) written as one of ``texts``."""
    return t is not None and t.kind == TokenKind.OP and t.text in texts


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
    """``exp(x)``, ``sqrt(x)``, ``sum(v)``, ``softmax(v)``."""

    fn: str
    arg: Node


@dataclass(frozen=True)
class Transpose:
    """``A^T`` (``A^\\top``, ``Aᵀ``)."""

    x: Node


@dataclass(frozen=True)
class Percent:
    """``87%``: a number in hundredths."""

    x: Num


Node = Num | Ref | VecNode | Unary | Chain | PowNode | Call | Transpose | Percent

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
        """The next token (None at the end)."""
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def at(self, text: str) -> bool:
        """Whether the next token is the operator or relation ``text``."""
        t = self.peek()
        return t is not None and t.kind in _SIGNS and t.text == text

    def take(self) -> Token:
        """The next token, consumed."""
        t = self.peek()
        if t is None:
            raise ExprError(not_checked("ends-early"))
        self.i += 1
        return t

    def expect(self, text: str) -> None:
        """Consume ``text`` or fail."""
        t = self.take()
        if t.text != text:
            raise ExprError(not_checked("expected", wanted=text, found=t.text))

    def enter(self) -> None:
        """One level deeper (bounded)."""
        self.depth += 1
        if self.depth > self.max_depth:
            raise ReadLimitError(not_checked("nested-deeper", depth=self.max_depth))

    # grammar
    def parse(self) -> Node:
        """The whole token list as one expression."""
        node = self.expr()
        rest = self.peek()
        if rest is not None:
            raise ExprError(not_checked("unexpected", token=rest.text))
        return node

    def expr(self) -> Node:
        """Terms joined by ``+`` and ``-``."""
        self.enter()
        first = self.term()
        rest: list[tuple[str, Node]] = []
        while self.at("+") or self.at("-"):
            op = self.take().text
            rest.append((op, self.term()))
        self.depth -= 1
        return Chain(first, tuple(rest)) if rest else first

    def term(self) -> Node:
        """Factors joined by multiplication signs, or by none (``5\\sqrt{2}``)."""
        first = self.unary()
        rest: list[tuple[str, Node]] = []
        prev = first
        while (t := self.peek()) is not None:
            if t.kind == TokenKind.OP and t.text in MULTIPLY_OP:
                self.take()
                prev = self.unary()
                rest.append((MULTIPLY_OP[t.text], prev))
            elif _implicit(prev, t):  # 5\sqrt{2}, 2(3 + 1), 2x
                prev = self.power()  # (``0.14(2, 1)``: a number times a vector)
                rest.append(("*", prev))
            else:
                break
        return Chain(first, tuple(rest)) if rest else first

    def unary(self) -> Node:
        """A signed power."""
        if self.at("-") or self.at("+"):
            self.enter()
            op = self.take().text
            node: Node = Unary(op, self.unary())
            self.depth -= 1
            return node
        return self.power()

    def power(self) -> Node:
        """``base ^ exponent`` (right-associative through :meth:`unary`), ``A^T``, ``87%``."""
        base = self.primary()
        while True:
            if self.at("^") and self._transpose_ahead():
                self.take()
                self.take()
                base = Transpose(base)
                continue
            if self.at("%") and isinstance(base, Num):
                self.take()
                base = Percent(base)
                continue
            break
        if self.at("^"):
            self.take()
            self.enter()
            exponent = self.unary()
            self.depth -= 1
            return PowNode(base, exponent)
        return base

    def _bare_argument_ahead(self) -> bool:
        t = self.peek()
        return t is not None and t.kind in (TokenKind.NUM, TokenKind.NAME)

    def _transpose_ahead(self) -> bool:
        nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
        return nxt is not None and nxt.kind == TokenKind.NAME and nxt.text == "T"

    def matrix(self) -> Node:
        """``\\begin{bmatrix} a & b \\\\ c & d \\end{bmatrix}``: rows of cells."""
        self.enter()
        rows: list[Node] = []
        cells: list[Node] = []
        while True:
            t = self.peek()
            if t is None:
                raise ExprError(not_checked("matrix-without-end"))
            if t.kind == TokenKind.MATEND:
                self.take()
                break
            if t.kind == TokenKind.ROWSEP:
                self.take()
                if cells:
                    rows.append(VecNode(tuple(cells)))
                    cells = []
                continue
            if _op(t, "&"):
                self.take()
                continue
            if t.kind == TokenKind.DOTS:
                raise ExprError(not_checked("matrix-elided"))
            cells.append(self.expr())
            if len(cells) > self.limits.max_line_length:
                raise ReadLimitError(not_checked("matrix-row-too-long"))
        if cells:
            rows.append(VecNode(tuple(cells)))
        self.depth -= 1
        if not rows:
            raise ExprError(not_checked("matrix-empty"))
        return VecNode(tuple(rows))

    def group(self) -> Node:
        """``{x}`` (a LaTeX argument) or a single primary."""
        if self.at("{"):
            return self.primary()
        return self.power()

    def vector_from(self, first: Node, close: str) -> VecNode:
        """The entries after ``first`` of a vector, up to ``close`` (its bracket entered)."""
        items = [first]
        while self.at(","):
            self.take()
            items.append(self.expr())
            if len(items) > self.limits.max_line_length:
                raise ReadLimitError(not_checked("vector-too-long"))
        self.expect(close)
        self.depth -= 1
        return VecNode(tuple(items))

    def primary(self, tuple_ok: bool = True) -> Node:
        """A number, a name, a call, a bracketed expression or list, or a root.

        ``(a, b)`` is the vector ``[a, b]`` where a value stands (``q = (1, 0)``,
        ``\\left( 1, 0 \\right)``, ``0.14(2, 1)``), never as the arguments of a call
        (``f(a, b)``, ``exp(1, 2)``): ``tuple_ok`` is False there; except that the arguments
        of a function of a vector (:data:`VECTOR_FUNCTIONS`: ``softmax(1, 2)``) are that
        vector."""
        t = self.take()
        if t.kind == TokenKind.NUM:
            return Num(parse_number(t.text, limits=self.limits), t.pos)
        if t.kind == TokenKind.DOTS:
            raise ExprError(not_checked("ellipsis"))
        if t.kind == TokenKind.MATBEGIN:
            return self.matrix()
        if t.kind == TokenKind.NAME:
            name = t.text
            fn = name.lower() if name.lower() == "softmax" else name
            if fn in FUNCTION_NAMES and (self.at("(") or self.at("{")):
                # (the arguments of a function of a vector are that vector: softmax(1, 2))
                return Call(
                    SAME_FUNCTION.get(fn, fn), self.primary(tuple_ok=fn in VECTOR_FUNCTIONS)
                )
            if fn in BARE_ARGUMENT_FUNCTIONS and self._bare_argument_ahead():
                self.enter()  # \ln 2, log 2, \exp 0.5: one number or name, maybe raised
                node = Call(SAME_FUNCTION.get(fn, fn), self.power())
                self.depth -= 1
                return node
            if self.at("("):
                raise ExprError(not_checked("label-call", name=name))
            return Ref(canonical_name(name))
        if t.kind == TokenKind.CMD:
            return self.command(t.text)
        if t.kind == TokenKind.OP and t.text in _OPEN_CLOSE:
            self.enter()
            close = _OPEN_CLOSE[t.text]
            if t.text == "[":
                return self.vector_from(self.expr(), close)
            inner = self.expr()
            if tuple_ok and t.text in TUPLE_OPEN.words and self.at(","):
                return self.vector_from(inner, close)  # (1, 0): a vector written as a tuple
            self.expect(close)
            self.depth -= 1
            return inner
        if _op(t, "√"):
            self.enter()
            node = Call("sqrt", self.group())
            self.depth -= 1
            return node
        raise ExprError(not_checked("unexpected", token=t.text))

    def command(self, cmd: str) -> Node:
        """``\\frac{a}{b}``, ``\\sqrt{x}`` and ``\\sum x`` (the sum of the entries of the
        power after it: ``\\sum e^{[0.54, 0.38]}``; a sum over an index, ``\\sum_j``, names
        terms the formula does not write)."""
        self.enter()
        try:
            if cmd == "\\frac":
                num = self.group()
                den = self.group()
                return Chain(num, (("/", den),))
            if cmd == "\\sqrt":
                if self.at("["):
                    raise ExprError(not_checked("square-roots-only"))
                return Call("sqrt", self.group())
            if cmd == "\\sum":
                if self.at("_") or self.at("^"):
                    raise ExprError(not_checked("index-sum"))
                return Call("sum", self.power())
            raise ExprError(not_checked("unsupported-command", command=cmd))
        finally:
            self.depth -= 1


def _implicit(prev: Node, t: Token) -> bool:
    """Whether ``t`` right after ``prev`` multiplies it without a sign (``5\\sqrt{2}``, two
    matrices side by side)."""
    if isinstance(prev, VecNode | Transpose) and (t.kind == TokenKind.MATBEGIN or _op(t, "[")):
        return True
    if t.kind == TokenKind.CMD and t.text in ("\\sqrt", "\\frac"):
        return True
    if _op(t, "√"):
        return True
    return isinstance(prev, Num) and (t.kind == TokenKind.NAME or _op(t, "("))


def canonical_name(text: str) -> str:
    """``s_{1}`` and ``s_1`` are one name; ``{Output}`` is ``Output``."""
    return BRACED_SUBSCRIPT.regex.sub(r"_\1", text)


def parse(text: str, *, limits: Limits = DEFAULT_LIMITS, normalized: bool = False) -> Node:
    """The syntax tree of ``text`` (normalized first); :class:`ExprError` when not in the
    grammar."""
    norm = text if normalized else normalize(text)[0]
    tokens = tokenize(norm, limits=limits)
    if not tokens:
        raise ExprError(not_checked("empty-expression"))
    return Parser(tokens, limits).parse()


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
    if isinstance(node, Transpose):
        return names(node.x)
    return frozenset()


def literal_numbers(node: Node) -> list[tuple[Written, int]] | None:
    """The numbers of a literal (``0.5``, ``-0.15``, ``[0.031, 0.111]``) with their offsets;
    None when ``node`` is not a literal."""
    if isinstance(node, Num):
        return [(node.written, node.pos)]
    if isinstance(node, Percent):
        return [(percent(node.x.written), node.x.pos)]
    if isinstance(node, Unary) and isinstance(node.x, Num):
        w = node.x.written
        sign = -1 if node.op == "-" else 1
        text = ("-" if sign < 0 else "") + w.text
        return [(replace(w, value=sign * w.value, text=text), node.x.pos - (1 if sign < 0 else 0))]
    if (sci := _scientific(node)) is not None:
        return [sci]
    if (ratio := _ratio(node)) is not None:
        return [ratio]
    if isinstance(node, VecNode):
        out: list[tuple[Written, int]] = []
        for x in node.items:
            got = literal_numbers(x)
            if got is None:
                return None
            out.extend(got)
        return out
    return None


#: the largest denominator of a fraction written as a value (``\\frac{1}{3}``, ``2/3``): past it a
#: fraction of integers is a division of rounded counts to compute (``142/1375``)
_RATIO_DENOMINATOR: Final = 12


def _ratio(node: Node) -> tuple[Written, int] | None:
    """``\\frac{1}{3}`` or ``2/3``, two integers with a small denominator, at most 1 (a share, a
    weight): an exact number as written (placed at its numerator); None for any other node."""
    if not (isinstance(node, Chain) and len(node.rest) == 1 and node.rest[0][0] == "/"):
        return None
    num, den = node.first, node.rest[0][1]
    if not (isinstance(num, Num) and isinstance(den, Num)):
        return None
    a, b = num.written, den.written
    if a.kind is not WrittenKind.INTEGER or b.kind is not WrittenKind.INTEGER:
        return None
    if not 0 < b.value <= _RATIO_DENOMINATOR or a.value > b.value:
        return None  # (``512/8``: a division to compute, a value past 1)
    text = f"{a.text}/{b.text}"
    return Written(a.value / b.value, text, WrittenKind.FRACTION, None, None), num.pos


def _scientific(node: Node) -> tuple[Written, int] | None:
    """``7.5×10^9`` (``6.7 \\times 10^{9}``, ``2×10^{-3}``): one number in scientific
    notation, claiming the digits of its mantissa (as ``7.5e9``), at the mantissa."""
    if not (isinstance(node, Chain) and len(node.rest) == 1 and node.rest[0][0] == "*"):
        return None
    m, power = node.first, node.rest[0][1]
    if not (isinstance(m, Num) and m.written.kind in PLAIN_KINDS):
        return None
    if not (isinstance(power, PowNode) and isinstance(power.base, Num)):
        return None
    if power.base.written.text != "10":
        return None
    e: Node = power.exponent
    sign = ""
    if isinstance(e, Unary) and e.op in ("-", "+"):
        sign = e.op
        e = e.x
    if not (
        isinstance(e, Num) and e.written.kind is WrittenKind.INTEGER and len(e.written.text) <= 4
    ):
        return None
    try:
        w = parse_number(f"{m.written.text}e{sign}{e.written.text}")
    except SymattnError:
        return None
    return w, m.pos


def literal_shape(node: Node) -> tuple[int, ...]:
    """The shape a literal is written in: () for a number, (n,) for ``[a, b]``, (n, m) for a
    matrix; a ragged list is the row of its numbers."""
    if isinstance(node, VecNode):
        inner = literal_shape(node.items[0]) if node.items else ()
        if any(literal_shape(item) != inner for item in node.items[1:]):
            return (len(numbers_in(node)),)  # ragged: its numbers, in a row
        return (len(node.items), *inner)
    return ()


def numbers_in(node: Node) -> list[Num]:
    """The numbers written in a syntax tree, in order."""
    out: list[Num] = []
    stack: list[Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Num):
            out.append(n)
        elif isinstance(n, Percent):
            out.append(n.x)
        elif isinstance(n, VecNode):
            stack.extend(reversed(n.items))
        elif isinstance(n, Unary | Transpose):
            stack.append(n.x)
        elif isinstance(n, Chain):
            stack.extend(reversed([x for _, x in n.rest]))
            stack.append(n.first)
        elif isinstance(n, PowNode):
            stack.extend((n.exponent, n.base))
        elif isinstance(n, Call):
            stack.append(n.arg)
    return out
