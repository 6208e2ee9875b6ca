"""Which numbers of a sum claim which terms of the sum before it (``0.82 × 10 + 0.18 × 30 =
8.2 + 5.4``: 8.2 claims ``0.82 × 10``, 5.4 claims ``0.18 × 30``), component by component for
vectors. Pure syntax: nothing here evaluates.
"""

from __future__ import annotations

from symattn.read.syntax import Chain, Node, Num, Unary, VecNode

__all__ = ["pairs", "signed_num", "terms"]


def terms(node: Node) -> list[tuple[str, Node]] | None:
    """``a + b - c`` as signed terms, or None for another expression."""
    if isinstance(node, Chain) and node.rest and all(op in "+-" for op, _ in node.rest):
        return [("+", node.first), *node.rest]
    return None


def pairs(left: Node, right: Node) -> list[tuple[Num, int, Node, int | None]] | None:
    """The numbers of ``right`` that claim the terms of ``left`` (a sum of numbers after a
    sum of terms, component by component for vectors): (number, sign, term, component)."""
    lterms = terms(left)
    if lterms is None:
        return None
    pairs: list[tuple[Num, int, Node, int | None]] = []
    if isinstance(right, VecNode):
        for comp, item in enumerate(right.items):
            rterms = terms(item)
            if rterms is None or len(rterms) != len(lterms):
                return None
            for (lop, lt), (rop, rt) in zip(lterms, rterms, strict=True):
                num = signed_num(rt)
                if num is None or lop != rop:
                    return None
                pairs.append((num[0], num[1], lt, comp))
        return pairs
    rterms = terms(right)
    if rterms is None or len(rterms) != len(lterms):
        return None
    for (lop, lt), (rop, rt) in zip(lterms, rterms, strict=True):
        if isinstance(rt, VecNode):
            # `= [1.74, 1.31] + [0.05, 0.03]`: a vector of numbers for each vector term
            items = [signed_num(x) for x in rt.items]
            if lop != rop or any(x is None for x in items):
                return None
            for comp, x in enumerate(items):
                assert x is not None
                pairs.append((x[0], x[1], lt, comp))
            continue
        num = signed_num(rt)
        if num is None or lop != rop:
            return None
        pairs.append((num[0], num[1], lt, None))
    return pairs


def signed_num(node: Node) -> tuple[Num, int] | None:
    if isinstance(node, Num):
        return node, 1
    if isinstance(node, Unary) and isinstance(node.x, Num):
        return node.x, -1 if node.op == "-" else 1
    return None
