"""What arithmetic on rounded numbers can be worth: ``0.4965 + 0.9930 + 3.0209`` written after
``≈`` is a sum of roundings, each within half a unit of its last digit, so the sum is known
only within the sum of those half-units. A claim after it (``≈ 4.5105``) is right when it is a
rounding of some value in that interval: the author may have summed the exact terms.

Integers are taken as exact (``0.2483 × 2``: the 2 is a value of V, not a rounding).
"""

from __future__ import annotations

from fractions import Fraction

from symattn.numbers import Written
from symattn.read.syntax import Chain, Node, Num, Unary

__all__ = ["half_unit", "overlaps", "rounded_interval"]

Interval = tuple[Fraction, Fraction]


def half_unit(w: Written) -> Fraction:
    """Half a unit of the last digit of a decimal as written (0 for an integer)."""
    if w.kind != "decimal" or not w.decimals:
        return Fraction(0)
    return Fraction(1, 2 * 10**w.decimals)


def rounded_interval(node: Node) -> Interval | None:
    """The values ``node`` may stand for when its decimals are roundings; None when it holds
    anything but numbers, signs and ``+ - × ÷``."""
    if isinstance(node, Num):
        if node.written.kind not in ("decimal", "integer"):
            return None
        v, h = node.written.value, half_unit(node.written)
        return v - h, v + h
    if isinstance(node, Unary) and node.op in "+-":
        inner = rounded_interval(node.x)
        if inner is None:
            return None
        return (-inner[1], -inner[0]) if node.op == "-" else inner
    if isinstance(node, Chain):
        acc = rounded_interval(node.first)
        for op, term in node.rest:
            other = rounded_interval(term)
            if acc is None or other is None:
                return None
            acc = _combine(acc, op, other)
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
    h = half_unit(claim) if claim.kind == "decimal" else Fraction(0)
    return claim.value - h <= interval[1] and interval[0] <= claim.value + h
