"""What arithmetic on rounded numbers can be worth: ``0.4965 + 0.9930 + 3.0209`` written after
``≈`` is a sum of roundings, each within half a unit of its last digit, so the sum is known
only within the sum of those half-units. A claim after it (``≈ 4.5105``) is right when it is a
rounding of some value in that interval: the author may have summed the exact terms.

Integers are taken as exact (``0.2483 × 2``: the 2 is a value of V, not a rounding).

A decimal printed with six or more significant digits (``2.828427``) is a computed value shown
rounded, as a float printout is: ``e^{2.828427} = 16.918829`` may be the exponential of the
unrounded value (e^{2√2} = 16.9188287), so the box of values such numbers stand for is given by
its corners (:func:`printed_corners`).

A divisor written as a rounded root (``2/1.73 = 1.15``: 1.73 is √3 rounded) is the author's
frame: the claim may be computed with the root itself (2/√3 = 1.1547), not with the rounding
as written (2/1.73 = 1.1561) (:func:`root_overrides`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Final

import flint

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.exact.ball import arb_to_fraction
from symattn.judge.constants import rounded_root
from symattn.judge.intervals import rounding_interval
from symattn.numbers import Written
from symattn.numbers.written import PLAIN_KINDS, WrittenKind
from symattn.read.evaluate import Value, evaluate, flatten
from symattn.read.scalar import Op, Scalar, lit
from symattn.read.syntax import Call, Chain, Node, Num, PowNode, Unary, VecNode, numbers_in
from symattn.read.tokens import ExprError

__all__ = [
    "widened",
    "PRINTED_DIGITS",
    "ROOT_DIGITS",
    "divisor_roots",
    "in_root_frame",
    "half_unit",
    "overlaps",
    "printed_corners",
    "root_overrides",
    "right_within_printed",
    "rounded_interval",
    "rounded_intervals",
]

#: significant digits from which a written decimal is a computed value shown rounded (the
#: look of a float printout, as ``float-representation`` has it), not a given exact number
PRINTED_DIGITS: Final = 6
#: significant digits from which a decimal divisor may be a rounded root (``1.73``, not ``1.7``)
ROOT_DIGITS: Final = 3
#: significant digits from which a decimal a chain computes with, and derives nowhere, may be a
#: rounding (``(2.622, 4.586)/12.82``: the exponentials and their sum, written rounded)
ROUNDED_DIGITS: Final = 3
#: at most this many printed numbers of one expression are widened (2**n corners)
MAX_PRINTED: Final = 3
#: working precision of the corners' enclosures
_BITS: Final = 128

Interval = tuple[Fraction, Fraction]


def widened(w: Written) -> bool:
    """Whether :func:`rounded_intervals` takes ``w`` as a rounding (an interval), not a point:
    :data:`ROUNDED_DIGITS` significant digits or decimals (``2.622``, ``0.083``; not ``0.5``)."""
    return (
        w.kind is WrittenKind.DECIMAL and max(w.significant or 0, w.decimals or 0) >= ROUNDED_DIGITS
    )


def half_unit(w: Written) -> Fraction:
    """Half a unit of the last digit of a decimal as written (0 for an integer)."""
    if w.kind is not WrittenKind.DECIMAL or not w.decimals:
        return Fraction(0)
    return Fraction(1, 2 * 10**w.decimals)


def rounded_interval(node: Node) -> Interval | None:
    """The values ``node`` may stand for when its decimals are roundings; None when it holds
    anything but numbers, signs and ``+ - × ÷``."""
    got = _walk(node, every=True, vectors=False)
    return got[0] if got is not None else None


def rounded_intervals(node: Node) -> list[Interval] | None:
    """Entry by entry, the values ``node`` may stand for when its decimals of
    :data:`ROUNDED_DIGITS` or more significant digits or decimals are roundings
    (``(2.622, 4.586)/12.82``, ``0.083``); a shorter decimal (``0.5``: too coarse to be
    widened as a rounding) is taken as written, a point; None when it holds anything but
    numbers, vectors of them, signs and ``+ - × ÷``."""
    return _walk(node, every=False, vectors=True)


def _walk(node: Node, every: bool, vectors: bool) -> list[Interval] | None:
    """The intervals of :func:`rounded_interval` (one) and :func:`rounded_intervals` (one per
    entry): every decimal a rounding, or (not ``every``) those that are not :func:`widened`
    taken as points; vectors only when ``vectors``."""
    if isinstance(node, Num):
        w = node.written
        if w.kind not in PLAIN_KINDS:
            return None
        if not (every or widened(w)):  # (an integer is a point either way)
            return [(w.value, w.value)]
        h = half_unit(w)
        return [(w.value - h, w.value + h)]
    if isinstance(node, Unary) and node.op in "+-":
        inner = _walk(node.x, every, vectors)
        if inner is None:
            return None
        return [(-hi, -lo) for lo, hi in inner] if node.op == "-" else inner
    if isinstance(node, VecNode) and vectors:
        out: list[Interval] = []
        for item in node.items:
            got = _walk(item, every, vectors)
            if got is None:
                return None
            out += got
        return out
    if isinstance(node, Chain):
        acc = _walk(node.first, every, vectors)
        for op, term in node.rest:
            other = _walk(term, every, vectors)
            if acc is None or other is None:
                return None
            if len(acc) != len(other) and 1 not in (len(acc), len(other)):
                return None
            n = max(len(acc), len(other))
            left = acc * n if len(acc) == 1 else acc
            pairs = zip(left, other * n if len(other) == 1 else other, strict=True)
            combined = [_combine(a, op, b) for a, b in pairs]
            if any(c is None for c in combined):
                return None
            acc = [c for c in combined if c is not None]
        return acc
    return None


def _combine(a: Interval, op: str, b: Interval) -> Interval | None:
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    if op == "/" and not b[0] <= 0 <= b[1]:
        quotients = [x / y for x in a for y in b]
        return min(quotients), max(quotients)
    return None


def overlaps(claim: Written, interval: Interval) -> bool:
    """Whether ``claim`` rounds some value of ``interval`` (its own half-unit around it meets
    the interval)."""
    h = half_unit(claim) if claim.kind is WrittenKind.DECIMAL else Fraction(0)
    return claim.value - h <= interval[1] and interval[0] <= claim.value + h


def root_overrides(node: Node, limits: Limits) -> dict[int, Scalar]:
    """The divisors of ``node`` written as rounded roots (:func:`divisor_roots`), each
    standing for the exact root it rounds, by its offset (``2/1.73``: 1.73 is √3)."""
    out: dict[int, Scalar] = {}
    for num in divisor_roots(node):
        n = rounded_root(num.written.value, half_unit(num.written))
        if n is not None and num.pos >= 0:
            radicand = lit(n, limits.max_precision_bits)
            out[num.pos] = Scalar(Op.SQRT, (radicand,), max_bits=limits.max_precision_bits)
    return out


def in_root_frame(node: Node, env: Mapping[str, Value], limits: Limits) -> list[tuple[Scalar, ...]]:
    """The value of ``node`` in the author's frame when it divides by a rounded root
    (``2/1.73``: 2/√3), as its one entry; ``[]`` when it divides by none."""
    over = root_overrides(node, limits)
    if not over:
        return []
    try:
        return [flatten(evaluate(node, env, limits=limits, overrides=over))]
    except (ExprError, SymattnError, ZeroDivisionError):
        return []


def divisor_roots(node: Node) -> list[Num]:
    """The divisors of ``node`` written as a rounded root of an integer (``2/1.73``,
    ``\\frac{5}{1.414}``): decimals of :data:`ROOT_DIGITS` or more significant digits right
    of a ``/`` that round the square root of a non-square integer."""
    out: list[Num] = []
    stack: list[Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Chain):
            for op, term in n.rest:
                w = term.written if isinstance(term, Num) else None
                if (
                    op == "/"
                    and isinstance(term, Num)
                    and w is not None
                    and w.kind is WrittenKind.DECIMAL
                    and (w.significant or 0) >= ROOT_DIGITS
                    and rounded_root(w.value, half_unit(w)) is not None
                ):
                    out.append(term)
            stack.extend(x for _, x in n.rest)
            stack.append(n.first)
        elif isinstance(n, Unary):
            stack.append(n.x)
        elif isinstance(n, VecNode):
            stack.extend(n.items)
        elif isinstance(n, PowNode):
            stack.extend((n.base, n.exponent))
        elif isinstance(n, Call):
            stack.append(n.arg)
    return out


def printed_corners(node: Node) -> list[dict[int, Fraction]]:
    """The corners of the box of values the printed numbers of ``node`` (decimals of
    :data:`PRINTED_DIGITS` or more significant digits) may stand for, each as a map from the
    number's offset to one end of its rounding; ``[]`` when it has none, or more than
    :data:`MAX_PRINTED`."""
    printed = [
        n
        for n in numbers_in(node)
        if n.pos >= 0
        and n.written.kind is WrittenKind.DECIMAL
        and (n.written.significant or 0) >= PRINTED_DIGITS
    ]
    if not printed or len(printed) > MAX_PRINTED:
        return []
    corners: list[dict[int, Fraction]] = [{}]
    for n in printed:
        v, h = n.written.value, half_unit(n.written)
        corners = [{**c, n.pos: v + s * h} for c in corners for s in (-1, 1)]
    return corners


def right_within_printed(
    node: Node, claim: Written, index: int, env: Mapping[str, Value], limits: Limits
) -> bool:
    """Whether ``claim`` (entry ``index`` of the value of ``node``) rounds some value that
    ``node`` takes when its printed numbers stand for values inside their roundings
    (``e^{2.828427} = 16.918829``: right for e^{2√2}, whose exponent prints as 2.828427). The
    box is taken between its corners; this only ever withholds an accusation."""
    corners = printed_corners(node)
    if not corners:
        return False
    lows: list[Fraction] = []
    highs: list[Fraction] = []
    for corner in corners:
        over = {k: lit(x, limits.max_precision_bits) for k, x in corner.items()}
        try:
            scalars = flatten(evaluate(node, env, limits=limits, overrides=over))
            if index >= len(scalars):
                return False
            ball = scalars[index].arb(_BITS)
        except (ExprError, SymattnError, ZeroDivisionError):
            return False
        if not ball.is_finite():
            return False
        with flint.ctx.workprec(_BITS):
            lows.append(arb_to_fraction(ball.lower()))
            highs.append(arb_to_fraction(ball.upper()))
    lo, hi = rounding_interval(claim)
    return min(lows) <= hi and lo <= max(highs)
