"""Level 1: every chain ``a = b ≈ c`` of a text, judged link by link.

Every link that is a written number (or vector of numbers) is a claim about the nearest
expression on its left, judged by :func:`symattn.judge.verdict.judge`. Names the text
defines are remembered (:mod:`symattn.read.definitions`). A wrong claim that is what
``e ≈ 2.718`` gives (exactly, or as double precision prints it) is ``approximate-constant``;
a claim right only for the author's own rounded earlier numbers is ``propagated-rounding``.
What each chain states is kept for Level 2 (:class:`~symattn.read.observations.Stated`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.judge.constants import APPROX_E
from symattn.judge.findings import Finding
from symattn.judge.verdict import Const, consistent_with, judge
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding
from symattn.read.definitions import Claims, Definition, Definitions, holds, same
from symattn.read.evaluate import Value, evaluate, flatten
from symattn.read.extract import ChainText, Link
from symattn.read.links import NOTHING, Parsed, label_of, read_first, read_link
from symattn.read.messages import fraction_text, say
from symattn.read.notations import PROSE_SENTENCE, SUBSCRIPT_INDEX
from symattn.read.observations import Spot, Stated
from symattn.read.report import Unparsed, text_finding
from symattn.read.scalar import Scalar, lit
from symattn.read.syntax import Call, Ref, literal_numbers, literal_shape, names, parse
from symattn.read.tokens import ExprError

__all__ = ["Level1", "judge_chains"]


@dataclass(frozen=True)
class Level1:
    """What Level 1 found, and what it leaves to Level 2."""

    findings: tuple[Finding, ...]
    unparsed: tuple[Unparsed, ...]
    checked: int
    stated: tuple[Stated, ...]
    seen: frozenset[int]  # source offsets of the numbers Level 1 judged


@dataclass
class _Run:
    """Mutable state of one Level 1 pass (local to one call of :func:`judge_chains`)."""

    accepted: frozenset[Rounding]
    limits: Limits
    names: Definitions
    findings: list[Finding] = field(default_factory=list)
    unparsed: list[Unparsed] = field(default_factory=list)
    stated: list[Stated] = field(default_factory=list)
    checked: int = 0
    seen: set[int] = field(default_factory=set)


def judge_chains(
    found: list[ChainText], *, accepted: frozenset[Rounding], limits: Limits
) -> Level1:
    """Judge every chain; math that cannot be read is listed as unparsed, with the reason."""
    run = _Run(accepted, limits, Definitions(accepted, limits))
    for whole in found:
        name = ""
        for chain in _steps(whole):
            try:
                name = _step(run, chain, name)
            except (ExprError, SymattnError) as e:
                if chain.kind == "text" and PROSE_SENTENCE.regex.search(chain.text):
                    continue  # a sentence with an '=' in it, not math
                run.unparsed.append(Unparsed(chain.line, chain.text[:200], str(e)))
            except RecursionError:
                run.unparsed.append(Unparsed(chain.line, chain.text[:200], "nested too deeply"))
    run.findings.extend(run.names.findings())
    return Level1(
        tuple(run.findings),
        tuple(run.unparsed),
        run.checked,
        tuple(run.stated),
        frozenset(run.seen),
    )


def _steps(chain: ChainText) -> list[ChainText]:
    """A chain cut at its ``→`` steps (``[0.95, …] → softmax(x_i) → [0.14, …]``): each step is
    a chain of its own, since a step is no equality."""
    if not any(ln.relation == "→" for ln in chain.links):
        return [chain]
    out: list[list[Link]] = [[]]
    for ln in chain.links:
        if ln.relation == "→":
            out.append([replace(ln, relation="")])
        else:
            out[-1].append(ln)
    return [ChainText(tuple(links), chain.kind, chain.before if k == 0 else "") for k, links in enumerate(out) if links]


def _step(run: _Run, chain: ChainText, name: str) -> str:
    """Judge one step of a chain; the name the next step inherits (the name of this one, or
    of the one before when this one starts with a value)."""
    first = chain.links[0]
    try:
        node = parse(first.text, limits=run.limits, normalized=True) if first.text else None
    except SymattnError:
        node = None
    got = literal_numbers(node) if node is not None else None
    if got is not None and node is not None:
        # `→ [0.9544, 1.4950, …]`: a value the step before names
        run.stated.append(
            Stated(
                name,
                name,
                None,
                (tuple(Spot(w, *first.at(off), first.offset(off)) for w, off in got),),
                chain.line,
                (literal_shape(node),),
                (name, *(ln.text for ln in chain.links[1:]), first.text),
                chain.start,
                chain.before,
                stepped=True,
            )
        )
        if len(chain.links) > 1:
            _process(run, chain)
        return name
    if len(chain.links) > 1:
        _process(run, chain)
    return first.text or name


def _process(run: _Run, chain: ChainText) -> None:
    links = chain.links
    if not any(ch.isdigit() for ln in links for ch in SUBSCRIPT_INDEX.regex.sub("", ln.text)):
        return  # symbolic formula (``q_{3} = x_{3} W^{Q}``): nothing numeric to check
    first = read_first(links[0].text, run.limits)
    label = first.label if first.kind == "label" else ""
    if first.kind == "none" and chain.before and not links[0].text.strip():
        label = label_of(chain.before, run.limits) or ""
    parsed: list[Parsed] = [first]
    errors: list[str] = []
    for i, ln in enumerate(links[1:], start=1):
        try:
            parsed.append(read_link(ln.text, i == len(links) - 1, run.limits))
        except (ExprError, SymattnError) as e:
            if i == len(links) - 1:
                raise
            errors.append(str(e))  # a link that is not arithmetic: the others still say
            parsed.append(NOTHING)
    used = frozenset().union(*(names(p.node) for p in parsed if p.node is not None))
    conflicted = {n: d for n, d in run.names.conflicted().items() if n in used}

    _remember(run, chain, label, first, parsed)
    env = run.names.env
    if first.node is not None and any(n not in env and n != "e" for n in names(first.node)):
        # `q_1 · k_1 = 1×1 + 2×2 = 5`: a first link with unknown names only names the chain
        parsed[0] = NOTHING
    values, exact_values = _evaluate(run, parsed, errors)
    before = run.checked
    _judge_claims(run, chain, parsed, values, exact_values, conflicted)
    _define(run, chain, label, parsed, values, exact_values)
    if run.checked == before and errors and any(
        literal_numbers(p.node) is not None for p in parsed[1:] if p.node is not None
    ):
        raise ExprError(errors[0])


def _evaluate(
    run: _Run, parsed: list[Parsed], errors: list[str]
) -> tuple[list[Value | None], list[Value | None]]:
    """The value of each link with the names as the text gives them, and exactly (None for a
    link that is not an expression, or names what the text does not define: ``QK^T``)."""
    env, exact_env = run.names.env, run.names.exact_env
    values: list[Value | None] = []
    exact_values: list[Value | None] = []
    for p in parsed:
        if p.node is None:
            values.append(None)
            exact_values.append(None)
            continue
        try:
            as_written = evaluate(p.node, env, limits=run.limits)
            differs = any(not same(env[n], exact_env[n]) for n in names(p.node) if n in exact_env)
            exact = evaluate(p.node, exact_env, limits=run.limits) if differs else as_written
        except ExprError as e:
            if not isinstance(p.node, Ref):  # a name alone (``Q = K = [...]``) is no error
                errors.append(str(e))
            values.append(None)
            exact_values.append(None)
            continue
        values.append(as_written)
        exact_values.append(exact)
    return values, exact_values


def _judge_claims(
    run: _Run,
    chain: ChainText,
    parsed: list[Parsed],
    values: list[Value | None],
    exact_values: list[Value | None],
    conflicted: Mapping[str, list[Definition]],
) -> None:
    """Each literal link judged against the nearest expression on its left."""
    links = chain.links
    last_expr: int | None = None
    holding: dict[str, set[int]] = {}
    for i, p in enumerate(parsed):
        value = values[i]
        if p.node is None or value is None:
            continue
        lits = literal_numbers(p.node) if i > 0 else None
        if lits is None or last_expr is None:
            left = values[last_expr] if last_expr is not None else None
            if (
                left is not None
                and i > 0
                and links[i].relation == "="
                and isinstance(value, Scalar)
                and isinstance(left, Scalar)
            ):
                _expression_step(run, left, value, links[i])
            last_expr = i
            continue
        target, exact_target = values[last_expr], exact_values[last_expr]
        assert target is not None and exact_target is not None  # set with a syntax tree
        scalars = flatten(target)
        if len(scalars) != len(lits):
            line, _ = links[i].at(0)
            run.unparsed.append(
                Unparsed(line, chain.text, f"{len(lits)} numbers claimed for {len(scalars)} values")
            )
            continue
        if conflicted:
            run.names.note_conflicts(chain, parsed[last_expr].node, lits, conflicted, holding)
            if any(holding.values()) and not holds(lits, scalars, run.accepted, run.limits):
                continue  # explained by the conflicting definition: reported there
        others = [
            flatten(v)
            for k, v in enumerate(values[:last_expr])
            if v is not None and (k > 0 or parsed[0].kind == "expr")
        ]
        others += [flatten(v) for v in exact_values[: last_expr + 1] if v is not None]
        _judge_literals(run, lits, scalars, flatten(exact_target), others, links[i], p.offset)


def _define(
    run: _Run,
    chain: ChainText,
    label: str,
    parsed: list[Parsed],
    values: list[Value | None],
    exact_values: list[Value | None],
) -> None:
    """A chain with a label (or ``sum(…) = …``) defines that name: its last value as written,
    and its first expression exactly."""
    first = parsed[0]
    name = label
    if (
        not name
        and first.kind == "expr"
        and isinstance(first.node, Call)
        and first.node.fn == "sum"
    ):
        name = "sum"
    last = values[-1]
    if name and len(parsed) > 1 and last is not None:
        origin = next(
            (v for v, p in zip(exact_values[1:], parsed[1:], strict=True) if p.node is not None),
            last,
        )
        line, column = chain.links[-1].at(0)  # the value the name is given
        run.names.define(name, last, origin or last, chain.text, line, column)


def _judge_literals(
    run: _Run,
    lits: Claims,
    scalars: tuple[Scalar, ...],
    exact_scalars: tuple[Scalar, ...],
    others: list[tuple[Scalar, ...]],
    link: Link,
    offset: int,
) -> None:
    """Judge the numbers of one literal link against the values of the expression before it."""
    for j, ((claim, off), value, exact) in enumerate(
        zip(lits, scalars, exact_scalars, strict=False)
    ):
        alternatives = [o[j] for o in others if len(o) == len(lits)]
        if not consistent_with(claim, value, run.accepted, run.limits) and any(
            consistent_with(claim, alt, run.accepted, run.limits) for alt in alternatives
        ):
            run.checked += 1  # right for an earlier, more exact form of the same quantity
            run.seen.add(link.offset(off + offset))
            continue
        _judge_one(run, claim, value, exact, link, off + offset)


def _remember(run: _Run, chain: ChainText, label: str, first: Parsed, parsed: list[Parsed]) -> None:
    """Keep what the chain states (its label, first link and literal links) for Level 2."""
    lits: list[tuple[Spot, ...]] = []
    shapes: list[tuple[int, ...]] = []
    for i, p in enumerate(parsed[1:], start=1):
        got = literal_numbers(p.node) if p.node is not None else None
        if got is not None and p.node is not None:
            link = chain.links[i]
            lits.append(
                tuple(
                    Spot(w, *link.at(off + p.offset), link.offset(off + p.offset))
                    for w, off in got
                )
            )
            shapes.append(literal_shape(p.node))
    if lits:
        run.stated.append(
            Stated(
                label,
                chain.links[0].text,
                first.node,
                tuple(lits),
                chain.line,
                tuple(shapes),
                tuple(ln.text for ln in chain.links),
                chain.start,
                chain.before,
            )
        )


def _judge_one(
    run: _Run, claim: Written, value: Scalar, exact_value: Scalar, link: Link, offset: int
) -> None:
    """Judge one written number; add a finding when it is not consistent."""
    run.checked += 1
    run.seen.add(link.offset(offset))
    verdict = judge(claim, value, accepted=run.accepted, limits=run.limits)
    code, cause, exact_text = verdict.code, verdict.reason, verdict.exact
    if code in ("wrong-value", "truncated") and value.uses_e:
        approx = _approximate_e(run, claim, value)
        if approx is not None:
            code, cause = "approximate-constant", approx
    if code is None and exact_value is not value:
        exact_verdict = judge(claim, exact_value, accepted=run.accepted, limits=run.limits)
        if exact_verdict.code not in (None, "float-representation", "undecided"):
            code, cause, exact_text = (
                "propagated-rounding",
                "propagated-rounding",
                exact_verdict.exact,
            )
            verdict = exact_verdict
    if code is None:
        return
    line, column = link.at(offset)
    msg = say(
        code if code != "approximate-constant" else cause.split(":")[0],
        claimed=claim.text,
        exact=exact_text,
        expected=verdict.expected,
        cause=cause.partition(":")[2],
    )
    run.findings.append(
        text_finding(code, line, column, claim.text, exact_text, verdict.expected, msg, cause)
    )


def _approximate_e(run: _Run, claim: Written, value: Scalar) -> str | None:
    """``approximate-e:2.718`` when a rounded e explains the claim (``approximate-e-float:…``
    when it is what double precision prints with it)."""
    for const in APPROX_E:
        alt = value.with_e(lit(const.value, run.limits.max_precision_bits))
        f = alt.float64()
        if f is not None and (claim.significant or 0) >= 12 and Fraction(repr(f)) == claim.value:
            return f"approximate-e-float:{const.text}"
        if consistent_with(claim, alt, run.accepted, run.limits):
            return f"approximate-e:{const.text}"
    return None


def _expression_step(run: _Run, left: Scalar, right: Scalar, link: Link) -> None:
    """``a = b`` between two exact rational expressions must hold exactly."""
    lq, rq = left.rational(), right.rational()
    if lq is None or rq is None:
        return
    run.checked += 1
    claim = Written(rq, link.text, "fraction", None, None)
    verdict = judge(claim, Const(lq), accepted=run.accepted, limits=run.limits)
    if verdict.code is None:
        return
    line, column = link.at(0)
    exact = fraction_text(lq)
    msg = say("wrong-step", claimed=link.text, exact=exact, expected=None, cause="")
    run.findings.append(
        text_finding(verdict.code, line, column, link.text, exact, exact, msg, "wrong-step")
    )
