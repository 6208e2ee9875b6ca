"""Level 1: every chain ``a = b ≈ c`` of a text, judged link by link.

Every link that is a written number (or array of numbers) is a claim about the nearest
expression on its left; a sum of written numbers after a sum of terms claims each term
(``0.82 × 10 + 0.18 × 30 = 8.2 + 5.4``): :mod:`symattn.read.linkclaims`. Each claim is judged
as written and with the exact values of what the text rounded before
(:mod:`symattn.read.claims`; what a pass remembers: :mod:`symattn.read.chainstate`). Names the
text defines are remembered (:mod:`symattn.read.definitions`); a step ``→`` starts a new chain
that keeps the name of the one before. What each chain states is kept for the problem
behind the text (:class:`~symattn.read.observations.Stated`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.judge.findings import Finding, Message
from symattn.numbers.rounding import Rounding
from symattn.read.chainstate import Run
from symattn.read.claims import Judging, Known
from symattn.read.definitions import Definitions, computed_rightly
from symattn.read.evaluate import Value
from symattn.read.extract import ChainText, Link
from symattn.read.kinds import ChainKind, LinkRelation
from symattn.read.linkclaims import judge_claims, link_values
from symattn.read.links import (
    NOTHING,
    Parsed,
    ParsedKind,
    label_of,
    read_first,
    read_link,
    unknown_math,
)
from symattn.read.messages import limit_exceeded, not_checked, reason_of
from symattn.read.notations import PROSE_SENTENCE, SUBSCRIPT_INDEX
from symattn.read.observations import Spot, Stated
from symattn.read.report import Unparsed
from symattn.read.syntax import Call, literal_numbers, literal_shape, names, parse
from symattn.read.tokens import ExprError

__all__ = ["Level1", "judge_chains"]


@dataclass(frozen=True)
class Level1:
    """What Level 1 found, and what it leaves to the problem behind the text."""

    findings: tuple[Finding, ...]
    unparsed: tuple[Unparsed, ...]
    checked: int
    stated: tuple[Stated, ...]
    seen: frozenset[int]  # source offsets of the numbers Level 1 judged


def judge_chains(
    found: list[ChainText],
    *,
    accepted: frozenset[Rounding],
    limits: Limits,
    known: Mapping[str, tuple[tuple[int, Known], ...]] | None = None,
    sections: Sequence[int] = (),
) -> Level1:
    """Judge every chain; math that cannot be read is listed as unparsed, with the reason.

    ``known`` gives the exact values of numbers the text states elsewhere (the weights of
    the problem behind it), by :func:`~symattn.read.chainstate.value_key`; ``sections`` the
    section (heading) each chain is in (a name given again in another section is that
    section's own).
    """
    steps = Definitions.steps_of(found[0].links[0].src.text) if found else []
    run = Run(Judging(accepted, limits), Definitions(accepted, limits, steps), known or {})
    run.stood.add_known(run.known)
    for k, whole in enumerate(found):
        run.names.section = sections[k] if k < len(sections) else 0
        name = ""
        for chain in _steps(whole):
            try:
                name = _step(run, chain, name)
            except (ExprError, SymattnError) as e:
                if chain.kind is ChainKind.TEXT and PROSE_SENTENCE.regex.search(chain.text):
                    continue  # a sentence with an '=' in it, not math
                run.unparsed.append(Unparsed(chain.line, chain.text[:200], reason_of(e)))
            except RecursionError:
                run.unparsed.append(
                    Unparsed(chain.line, chain.text[:200], not_checked("nested-too-deeply"))
                )
    j = run.judging
    j.settle()
    undecided = [Unparsed(line, claim, why) for line, claim, why in j.undecided]
    return Level1(
        (*j.findings, *run.names.findings()),
        (*run.unparsed, *undecided),
        j.checked,
        tuple(run.stated),
        frozenset(j.seen),
    )


def _steps(chain: ChainText) -> list[ChainText]:
    """A chain cut at its ``→`` steps (``[0.95, …] → softmax(x_i) → [0.14, …]``): each step is
    a chain of its own, since a step is no equality."""
    if not any(ln.relation is LinkRelation.STEP for ln in chain.links):
        return [chain]
    out: list[list[Link]] = [[]]
    for ln in chain.links:
        if ln.relation is LinkRelation.STEP:
            out.append([replace(ln, relation=LinkRelation.NONE)])
        else:
            out[-1].append(ln)
    return [
        ChainText(tuple(links), chain.kind, chain.before if k == 0 else "", chain.row_names)
        for k, links in enumerate(out)
        if links
    ]


def _step(run: Run, chain: ChainText, name: str) -> str:
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


def _process(run: Run, chain: ChainText) -> None:
    links = chain.links
    run.at = chain.start
    # the longest formula judged: no worked example writes one of 20 000 characters, and a
    # sum of tens of thousands of terms takes seconds
    if (n := sum(len(ln.text) for ln in links)) > run.limits.max_formula_length:
        what = not_checked("formula-too-long", length=n)
        limit = run.limits.max_formula_length
        raise ExprError(limit_exceeded("max_formula_length", limit, what))
    if not any(ch.isdigit() for ln in links for ch in SUBSCRIPT_INDEX.regex.sub("", ln.text)):
        return  # symbolic formula (``q_{3} = x_{3} W^{Q}``): nothing numeric to check
    first = read_first(links[0].text, run.limits)
    if (
        first.kind is ParsedKind.NONE
        and (why := unknown_math(links[0].text, run.limits)) is not None
    ):
        # math the grammar does not know: said, not dropped (the other links still say)
        run.unparsed.append(Unparsed(chain.line, chain.text[:200], why))
    label = first.label if first.kind is ParsedKind.LABEL else ""
    if first.kind is ParsedKind.NONE and chain.before and not links[0].text.strip():
        label = label_of(chain.before, run.limits) or ""
    parsed: list[Parsed] = [first]
    errors: list[Message] = []
    for i, ln in enumerate(links[1:], start=1):
        try:
            parsed.append(read_link(ln.text, i == len(links) - 1, run.limits))
        except (ExprError, SymattnError) as e:
            if i == len(links) - 1:
                raise
            errors.append(reason_of(e))  # a link that is not arithmetic: the others still say
            parsed.append(NOTHING)
    used = frozenset().union(*(names(p.node) for p in parsed if p.node is not None))
    conflicted = run.names.conflicted(used)
    _remember(run, chain, label, first, parsed)
    env = run.names.env
    if first.node is not None and any(n not in env and n != "e" for n in names(first.node)):
        # `q_1 · k_1 = 1×1 + 2×2 = 5`: a first link with unknown names only names the chain
        parsed[0] = NOTHING
    values, exact_values, constants = link_values(run, parsed, errors)
    before = run.judging.checked
    judge_claims(run, chain, parsed, values, exact_values, constants, conflicted)
    _define(run, chain, label, parsed, values, exact_values, used)
    formula = next((p for p in parsed[1:] if p.node is not None), None)
    if label and formula is not None and formula.node is not None:
        if literal_numbers(formula.node) is None:  # (a formula, not a value)
            run.formulas[label] = (run.names.section, formula)
    if (
        run.judging.checked == before
        and errors
        and any(literal_numbers(p.node) is not None for p in parsed[1:] if p.node is not None)
    ):
        raise ExprError(errors[0])


def _define(
    run: Run,
    chain: ChainText,
    label: str,
    parsed: list[Parsed],
    values: list[Value | None],
    exact_values: list[Value | None],
    used: frozenset[str],
) -> None:
    """A chain with a label (or ``sum(…) = …``) defines that name: its last value as written,
    and its first expression exactly. The names it computes from are used by a step (a name
    given a new value after that is updated, not given a second value)."""
    first = parsed[0]
    name = label
    if (
        not name
        and first.kind is ParsedKind.EXPR
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
        run.names.use(used)
        line, column = chain.links[-1].at(0)  # the value the name is given
        at = chain.links[-1].offset(0)
        first_value = next((p.node for p in parsed[1:] if p.node is not None), None)
        derived = computed_rightly(
            first_value, parsed[-1].node, origin, run.judging.accepted, run.limits
        )
        run.names.define(name, last, origin or last, chain.text, line, column, at, derived)
        if derived and run.stated and run.stated[-1].at == chain.start:
            run.stated[-1] = replace(run.stated[-1], derived=True)


def _remember(run: Run, chain: ChainText, label: str, first: Parsed, parsed: list[Parsed]) -> None:
    """Keep what the chain states (its label, first link and literal links) for the problem."""
    lits: list[tuple[Spot, ...]] = []
    shapes: list[tuple[int, ...]] = []
    for i, p in enumerate(parsed[1:], start=1):
        got = literal_numbers(p.node) if p.node is not None else None
        if got is not None and p.node is not None:
            link = chain.links[i]
            lits.append(
                tuple(
                    Spot(w, *link.at(off + p.offset), link.offset(off + p.offset)) for w, off in got
                )
            )
            shapes.append(literal_shape(p.node))
            run.stood.add_all((spot.written, spot.at) for spot in lits[-1])
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
                row_names=chain.row_names,
            )
        )
