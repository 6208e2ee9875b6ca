"""The links of one chain: their values, and each written number judged as a claim.

Every link that is a written number (or array of numbers) claims the value of the nearest
expression on its left (:func:`judge_claims`); a sum of written numbers after a sum of terms
claims each term (``0.82 × 10 + 0.18 × 30 = 8.2 + 5.4``). Each link is valued as the text
writes it and exactly (:func:`link_values`: names with their exact values, numbers written as
roundings with theirs), and each claim is judged both ways (:mod:`symattn.read.claims`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from symattn.errors import SymattnError
from symattn.judge.findings import Message
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding, round_decimals
from symattn.read.aligned import aligned
from symattn.read.chainstate import Run, overrides, remember_rounding
from symattn.read.claims import Known
from symattn.read.definitions import Definition, holds
from symattn.read.evaluate import Value, evaluate, flatten
from symattn.read.extract import ChainText, Link
from symattn.read.intervals import (
    divisor_roots,
    in_root_frame,
    overlaps,
    right_within_printed,
    rounded_interval,
    rounded_intervals,
    widened,
)
from symattn.read.kinds import LinkRelation
from symattn.read.links import Parsed, ParsedKind
from symattn.read.messages import not_checked
from symattn.read.report import Unparsed
from symattn.read.scalar import Scalar
from symattn.read.sums import pairs, terms
from symattn.read.syntax import Node, Ref, literal_numbers, names, numbers_in
from symattn.read.tokens import ExprError

__all__ = ["judge_claims", "link_values"]


def known_exactly(run: Run, node: Node | None) -> bool:
    """Whether the exact value of every number of ``node`` written as a rounding is known
    (``0.335 + 0.335 + 0.083``, with 0.335 a weight of the problem but 0.083 = 0.5 × 0.165
    known nowhere: not every one)."""
    if node is None:
        return False
    over, _ = overrides(run, node)
    rounded = [n for n in numbers_in(node) if widened(n.written)]
    return all(n.pos in over for n in rounded)


def link_values(
    run: Run, parsed: list[Parsed], errors: list[Message]
) -> tuple[list[Value | None], list[Value | None], list[Known | None]]:
    """The value of each link as the text writes it, and exactly (names with their exact
    values, numbers written as roundings with theirs); None for a link that is not an
    expression, or names what the text does not define (``QK^T``)."""
    env, exact_env = run.names.env, run.names.exact_env
    values: list[Value | None] = []
    exact_values: list[Value | None] = []
    constants: list[Known | None] = []
    last_node: Node | None = None
    for i, p in enumerate(parsed):
        if p.node is None:
            values.append(None)
            exact_values.append(None)
            constants.append(None)
            continue
        literal = i > 0 and literal_numbers(p.node) is not None
        # a sum of numbers after a sum of terms claims those terms (`= 0.04 + 0.10 + 0.18`):
        # its numbers are claims, not ingredients written as roundings
        claims_terms = last_node is not None and pairs(last_node, p.node) is not None
        over, constant = ({}, None) if literal or claims_terms else overrides(run, p.node)
        last_node = p.node
        try:
            as_written = evaluate(p.node, env, limits=run.limits)
            differs = over or any(
                env[n] is not exact_env.get(n, env[n]) for n in names(p.node) if n in env
            )
            exact = (
                evaluate(p.node, exact_env, limits=run.limits, overrides=over)
                if differs
                else as_written
            )
        except ExprError as e:
            if not isinstance(p.node, Ref):  # a name alone (``Q = K = [...]``) is no error
                errors.append(e.reason)
            values.append(None)
            exact_values.append(None)
            constants.append(None)
            continue
        values.append(as_written)
        exact_values.append(exact)
        constants.append(constant)
    return values, exact_values, constants


def judge_claims(
    run: Run,
    chain: ChainText,
    parsed: list[Parsed],
    values: list[Value | None],
    exact_values: list[Value | None],
    constants: list[Known | None],
    conflicted: Mapping[str, list[Definition]],
) -> None:
    """Each literal link judged against the nearest expression on its left; a sum of
    numbers against the terms of a sum."""
    links = chain.links
    last_expr: int | None = None
    holding: dict[str, set[int]] = {}
    for i, p in enumerate(parsed):
        value = values[i]
        if i > 0 and p.node is None:
            # ``e^{s_2} = e^{-\infty} = 0``: a link not read stands between; what follows
            # claims its value, which is not known (the names before it may have changed)
            last_expr = None
            continue
        if p.node is None or value is None:
            continue
        lits = literal_numbers(p.node) if i > 0 else None
        if lits is None or last_expr is None:
            left = values[last_expr] if last_expr is not None else None
            if (
                last_expr is not None
                and i > 0
                and _termwise(run, parsed[last_expr], p, links[i], parsed[:last_expr])
            ):
                pass
            elif last_expr is not None and i > 0 and _aligned(run, parsed[last_expr], p, links[i]):
                pass
            elif (
                last_expr is None
                and i > 0
                and parsed[0].kind is ParsedKind.LABEL
                and (earlier := run.formulas.get(parsed[0].label)) is not None
                and earlier[0] == run.names.section
                and _aligned(run, earlier[1], p, links[i])
            ):
                pass  # (``output = softmax([0.1, 0.4]) · V`` after ``output = softmax(q·K^T)·V``)
            elif (
                left is not None
                and i > 0
                and links[i].relation is LinkRelation.EQUALS
                and isinstance(value, Scalar)
                and isinstance(left, Scalar)
            ):
                left_node = parsed[last_expr].node if last_expr is not None else None
                elsewhere = run.names.given_elsewhere(names(left_node)) if left_node else ()
                if elsewhere and not names(p.node):
                    # ``q dot k_cat = 1 x 1 + 1 x 0`` under "Worked solutions", with q given
                    # [2, 0] in another section: the numbers it writes are another
                    # example's operands (an exercise's), not a slip in this one
                    run.unparsed.append(
                        Unparsed(
                            links[i].at(0)[0],
                            chain.text[:200],
                            not_checked("names-elsewhere", names=", ".join(elsewhere)),
                        )
                    )
                else:
                    run.judging.step(left, value, links[i])
            last_expr = i
            continue
        target, exact_target = values[last_expr], exact_values[last_expr]
        assert target is not None and exact_target is not None  # set with a syntax tree
        scalars = flatten(target)
        if len(scalars) != len(lits):
            line, _ = links[i].at(0)
            run.unparsed.append(
                Unparsed(
                    line,
                    chain.text,
                    not_checked("numbers-for-values", claimed=len(lits), values=len(scalars)),
                )
            )
            continue
        if conflicted:
            run.names.note_conflicts(chain, parsed[last_expr].node, lits, conflicted, holding)
            if any(holding.values()) and not holds(lits, scalars, run.judging.accepted, run.limits):
                continue  # explained by the conflicting definition: reported there
        target_node = parsed[last_expr].node
        if (
            len(lits) == 1
            and links[i].relation is LinkRelation.APPROX
            and links[last_expr].relation is LinkRelation.APPROX
            and target_node is not None
            and (iv := rounded_interval(target_node)) is not None
            and iv[0] != iv[1]
            and overlaps(lits[0][0], iv)
        ):
            # ``≈ 0.4965 + 0.9930 + 3.0209 ≈ 4.5105``: a rounding of the sum of the exact
            # terms, which the rounded terms give only within their half-units
            run.judging.checked += 1
            run.judging.seen.add(links[i].offset(lits[0][1] + p.offset))
            continue
        others = [
            flatten(v)
            for k, v in enumerate(values[:last_expr])
            if v is not None and (k > 0 or parsed[0].kind is ParsedKind.EXPR)
        ]
        others += [flatten(v) for v in exact_values[: last_expr + 1] if v is not None]
        exact_scalars = flatten(exact_target)
        # (the numbers it computes with may be roundings: what they can be worth, entry by
        # entry, when nothing more exact is known of them; an earlier link that computes it
        # otherwise, ``softmax([0.54, …]) = [1.72, …]/6.44``, is more exact, and decides; so
        # may the left of a chain that starts with ``=``, written elsewhere; a rounded root
        # stands for the root, ``5/1.414``: 5/√2)
        boxes = (
            rounded_intervals(target_node)
            if target_node is not None
            and not divisor_roots(target_node)
            and all(
                e.node is not None and rounded_intervals(e.node) is not None
                for e in parsed[:last_expr]
                if e.kind is not ParsedKind.NONE  # (a label before the chain: no value)
            )
            else None
        )
        if target_node is not None:  # (the author's frame: a rounded root stands for the root)
            others += in_root_frame(target_node, run.names.env, run.limits)
            at = links[last_expr].offset(0)
            others += run.stood.alternatives(target_node, run.names.env, at, run.limits)
        complements = _complements(run, lits, scalars)
        for j, ((claim, off), v, x) in enumerate(zip(lits, scalars, exact_scalars, strict=False)):
            alternatives = [o[j] for o in others if len(o) == len(lits)]
            link = links[i]
            if j in complements:
                # (``[0.6697, 0.3303]``: 1 − the row's other, wrong, number: carried from it)
                run.judging.checked += 1
                run.judging.seen.add(link.offset(off + p.offset))
            elif not run.judging.consistent(claim, v) and (
                any(run.judging.consistent(claim, alt) for alt in alternatives)
                or (
                    target_node is not None
                    and right_within_printed(target_node, claim, j, run.names.env, run.limits)
                )
                or (
                    (x is v or not known_exactly(run, target_node))
                    and boxes is not None
                    and len(boxes) == len(lits)
                    and boxes[j][0] != boxes[j][1]
                    and overlaps(claim, boxes[j])
                )
            ):
                # right for an earlier, more exact form of it, for the unrounded value of a
                # number printed rounded (``e^{2.828427} = 16.918829``: e^{2√2}), or for some
                # values of the roundings it computes with (``(2.622, …)/12.82 = (0.204, …)``:
                # 0.2045 as written, but 2.622/12.82 may be 0.20441…0.20464), unless the exact
                # value of every one of them is known (then that decides)
                run.judging.checked += 1
                run.judging.seen.add(link.offset(off + p.offset))
            else:
                run.judging.one(
                    claim,
                    v,
                    x,
                    link,
                    off + p.offset,
                    constants[last_expr],
                    links[last_expr].text if len(lits) == 1 else "",
                )
            remember_rounding(run, claim, x, links[last_expr].text)
            run.stood.add(claim, link.offset(off + p.offset), x)


def _complements(
    run: Run, lits: Sequence[tuple[Written, int]], scalars: Sequence[Scalar]
) -> set[int]:
    """The last entry of a row of two or more claimed numbers that sum to exactly 1, when it
    is wrong and 1 − the row's other claimed numbers, the wrong ones of them truncations: the
    author completed the row from a rounding habit (``[0.6697, 0.3303]``, 0.6697 truncated),
    which is reported on those; the entry is carried from it, not a new error."""
    if len(lits) < 2 or len(scalars) != len(lits):
        return set()
    if sum(c.value for c, _ in lits) != 1:
        return set()
    wrong = [not run.judging.consistent(c, v) for (c, _), v in zip(lits, scalars, strict=True)]
    last = len(lits) - 1
    if not wrong[last] or not any(wrong[:last]):
        return set()
    # (only truncations: a row of wrong numbers that sums to 1 may be made up so)
    others = zip(lits[:last], scalars[:last], wrong[:last], strict=True)
    return {last} if all(_truncation(c, v) for (c, _), v, w in others if w) else set()


def _truncation(claim: Written, v: Scalar) -> bool:
    """Whether ``claim`` is ``v`` with its digits dropped past the claim's last decimal."""
    r = v.rational()
    if r is None or claim.decimals is None or claim.decimals <= 0:
        return False
    cut = Fraction(round_decimals(r, claim.decimals, Rounding.TRUNCATE))
    return cut == claim.value and cut != r


def _both_values(run: Run, node: Node) -> tuple[Value, Value, Known | None] | None:
    """``node`` valued as written and exactly (the numbers the text wrote as roundings taken
    at their exact values), and the rounded constant among them; None when it has no value."""
    try:
        over, constant = overrides(run, node)
        v = evaluate(node, run.names.env, limits=run.limits)
        x = evaluate(node, run.names.exact_env, limits=run.limits, overrides=over)
    except (ExprError, SymattnError):
        return None
    return v, x, constant


def _aligned(run: Run, left: Parsed, right: Parsed, link: Link) -> bool:
    """``softmax([1, 2, 3] · K^T) · V = softmax([0.1, 0.4, 0.7]) · V``: the numbers the link
    writes in place of an expression of the link before claim its value
    (:func:`symattn.read.aligned.aligned`), judged like any number, as written and exactly."""
    if left.node is None or right.node is None:
        return False
    places = aligned(left.node, right.node)
    if places is None:
        return False
    env = run.names.env
    for expr, written in places:
        if run.names.given_elsewhere(names(expr)):
            continue  # (another example's names: see judge_claims)
        valued = _both_values(run, expr)
        if valued is None:
            continue
        v, x, constant = valued
        nums = literal_numbers(written) or []
        vs, xs = flatten(v), flatten(x)
        if len(vs) != len(nums) or len(xs) != len(nums):
            continue
        # (what else the numbers it computes with may stand for, as for any claim: a rounded
        # root for the root, an earlier more exact statement, the roundings' intervals)
        at = link.offset(0)
        others = [flatten(o) for o in in_root_frame(expr, env, run.limits)]
        others += [flatten(o) for o in run.stood.alternatives(expr, env, at, run.limits)]
        boxes = rounded_intervals(expr) if not divisor_roots(expr) else None
        for j, ((claim, pos), value, exact) in enumerate(zip(nums, vs, xs, strict=True)):
            offset = pos + right.offset
            if not run.judging.consistent(claim, value) and (
                any(len(o) == len(nums) and run.judging.consistent(claim, o[j]) for o in others)
                or right_within_printed(expr, claim, j, env, run.limits)
                or run.judging.consistent(claim, exact)
                or (
                    boxes is not None
                    and len(boxes) == len(nums)
                    and boxes[j][0] != boxes[j][1]
                    and overlaps(claim, boxes[j])
                )
            ):
                run.judging.checked += 1
                run.judging.seen.add(link.offset(offset))
                continue
            run.judging.one(claim, value, exact, link, offset, constant)
    return True


def _termwise(
    run: Run, left: Parsed, right: Parsed, link: Link, earlier: Sequence[Parsed] = ()
) -> bool:
    """``0.82 × 10 + 0.18 × 30 = 8.2 + 5.4``: each number of a sum of numbers claims the
    term of the sum on the left at its place (also component by component, for vectors).
    When an earlier link writes the same sum with names (``w_1 × 10 + w_2 × 30``), each
    term's exact value is that of its named term."""
    if left.node is None or right.node is None:
        return False
    claimed = pairs(left.node, right.node)
    if claimed is None:
        return False
    exact_env = run.names.exact_env
    named = [t for e in earlier if e.node is not None and (t := terms(e.node)) is not None]
    named = [t for t in named if len(t) == len(terms(left.node) or ())]
    for k, (num, sign, term, comp) in enumerate(claimed):
        valued = _both_values(run, term)
        if valued is None:
            continue
        v, x, constant = valued
        if named and comp is None:
            try:
                x = evaluate(named[-1][k][1], exact_env, limits=run.limits)
            except (ExprError, SymattnError):
                pass  # (a name the text does not define: the rounded term stands)
        vs, xs = flatten(v), flatten(x)
        k = comp if comp is not None else 0
        if k >= len(vs) or (comp is None and len(vs) != 1):
            continue
        w = num.written
        claim = w if sign > 0 else replace(w, value=-w.value, text="-" + w.text)
        run.judging.one(claim, vs[k], xs[k], link, num.pos + right.offset, constant)
    return bool(claimed)
