"""Numbers written in place of an expression, in a link that repeats the one before it.

``softmax([1, 2, 3] · K^T) · V = softmax([0.1, 0.4, 0.7]) · V``: the second link writes the
first again with numbers where the first has an expression; each of those numbers claims the
value of the expression at its place (the scores here), as a reader compares the two
formulas. :func:`aligned` walks both syntax trees together and gives those places; it gives
nothing when the two differ anywhere else (another formula, not the same one worked on), or
when nothing but numbers is shared (a plain ``expression = value`` is judged as such).
"""

from __future__ import annotations

from typing import Final

from symattn.read.syntax import (
    Call,
    Chain,
    Node,
    Num,
    Percent,
    PowNode,
    Ref,
    Transpose,
    Unary,
    VecNode,
    literal_numbers,
    numbers_in,
)

__all__ = ["aligned"]

#: the deepest pair of trees walked (a formula is short; a hostile one stops here)
_MAX_DEPTH: Final = 64


def aligned(left: Node, right: Node) -> list[tuple[Node, Node]] | None:
    """The places where ``right`` writes numbers for an expression of ``left``, as (the
    expression, the numbers), when the two trees are the same elsewhere and share an
    operation that is no number; else None."""
    out: list[tuple[Node, Node]] = []
    if not _walk(left, right, out, 0) or not out or literal_numbers(right) is not None:
        return None
    return out


def _walk(a: Node, b: Node, out: list[tuple[Node, Node]], depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if a == b:
        return True
    if literal_numbers(b) is not None:
        if literal_numbers(a) is not None or isinstance(a, (Ref, Transpose)):
            # (numbers for numbers, or a name's value written out: a restatement of what is
            # given, not a value computed here)
            return isinstance(a, Ref) and a.name not in _CONSTANTS or a == b
        if not _rounded_exponential(a):
            out.append((a, b))
        return True
    if type(a) is not type(b):
        return False
    d = depth + 1
    if isinstance(a, Call) and isinstance(b, Call):
        return a.fn == b.fn and _walk(a.arg, b.arg, out, d)
    if isinstance(a, Chain) and isinstance(b, Chain):
        # (``q · k / √2`` again as ``[1, 2] / 1.41``: numbers for the first operations, left
        # to right, then the same operations)
        cut = len(a.rest) - len(b.rest)
        if cut < 0 or any(x[0] != y[0] for x, y in zip(a.rest[cut:], b.rest, strict=True)):
            return False
        if cut and any(op not in _PRODUCT_OPS for op, _ in a.rest):
            return False  # (a sum with a term dropped is no longer the same sum)
        head = a.first if cut == 0 else Chain(a.first, a.rest[:cut])
        if cut and literal_numbers(b.first) is None:
            return False
        return _walk(head, b.first, out, d) and all(
            _walk(x[1], y[1], out, d) for x, y in zip(a.rest[cut:], b.rest, strict=True)
        )
    if isinstance(a, PowNode) and isinstance(b, PowNode):
        return _walk(a.base, b.base, out, d) and _walk(a.exponent, b.exponent, out, d)
    if isinstance(a, Unary) and isinstance(b, Unary):
        return a.op == b.op and _walk(a.x, b.x, out, d)
    if isinstance(a, Transpose) and isinstance(b, Transpose):
        return _walk(a.x, b.x, out, d)
    if isinstance(a, VecNode) and isinstance(b, VecNode):
        return len(a.items) == len(b.items) and all(
            _walk(x, y, out, d) for x, y in zip(a.items, b.items, strict=True)
        )
    return isinstance(a, (Num, Ref, Percent)) and a == b


def _rounded_exponential(node: Node, depth: int = 0) -> bool:
    """Whether ``node`` takes the exponential of a number written with decimals
    (``e^{1.155}``, ``exp(0.5773502)``): the number may stand for an unrounded score (``2/√3``),
    which the link that writes the exponential's value is judged with; its value here is
    not claimed again."""
    if depth > _MAX_DEPTH:
        return True
    if isinstance(node, PowNode):
        if isinstance(node.base, Ref) and node.base.name == "e" and _decimal_in(node.exponent):
            return True
        return _rounded_exponential(node.base, depth + 1) or _rounded_exponential(
            node.exponent, depth + 1
        )
    if isinstance(node, Call):
        if node.fn == "exp" and _decimal_in(node.arg):
            return True
        return _rounded_exponential(node.arg, depth + 1)
    if isinstance(node, Chain):
        return _rounded_exponential(node.first, depth + 1) or any(
            _rounded_exponential(x, depth + 1) for _, x in node.rest
        )
    if isinstance(node, (Unary, Transpose)):
        return _rounded_exponential(node.x, depth + 1)
    if isinstance(node, VecNode):
        return any(_rounded_exponential(x, depth + 1) for x in node.items)
    return False


def _decimal_in(node: Node) -> bool:
    return any(n.written.decimals for n in numbers_in(node))


#: the operations of a product, whose first operands may be written as their value
_PRODUCT_OPS: Final = frozenset({"*", "/", "·", "×"})

#: names that stand for constants, not for an expression whose value a number may claim
_CONSTANTS: Final = frozenset({"e", "pi", "π"})
