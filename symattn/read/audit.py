"""Audit a text as it is: every number it states about attention, judged with certified
verdicts, and every number it holds accounted for.

The reading pipeline, one module per stage:

1. :mod:`~symattn.read.source` and :mod:`~symattn.read.blocks`: the text cut into blocks by
   real parsers (Markdown, LaTeX, plain text), with exact positions;
2. :mod:`~symattn.read.reading`: what each block holds (formulas, arrays, tables, code);
3. :mod:`~symattn.read.level1`: each formula ``a = b ≈ c`` judged link by link;
4. :mod:`~symattn.read.problem` and :mod:`~symattn.read.level2`: the attention problem behind
   the text rebuilt and judged by ``check``;
5. :class:`AuditReport`: one finding per number, and the census of every number
   (:mod:`~symattn.read.census`): judged, read, or why not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError
from symattn.judge.codes import FLAGGING, FindingCode
from symattn.judge.findings import Finding
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers.rounding import Rounding
from symattn.read.blocks import WORDS, BlockKind, format_of
from symattn.read.census import PROSE, Census
from symattn.read.confirm import Confirmed, confirm_roles, reproduced_notes
from symattn.read.dataflow import flows
from symattn.read.definitions import beside_examples, worked_stretch
from symattn.read.emit import emitted_specs
from symattn.read.facts import Fact, facts_of_reading
from symattn.read.interpretation import judge_sentences, sentences
from symattn.read.level1 import Level1, judge_chains
from symattn.read.level2 import judge_problems
from symattn.read.merge import merge_findings, with_row_cause
from symattn.read.messages import not_checked
from symattn.read.missing import causal_weights, missing_inputs, unnormalized
from symattn.read.notations import HEAD_LABEL
from symattn.read.problem import Problem, build_problems
from symattn.read.queryrow import restated_query_rows
from symattn.read.reading import Reading, read
from symattn.read.repeats import carried, repeated
from symattn.read.report import AuditReport, Recognised, Unparsed
from symattn.read.scaling import stated_d_k
from symattn.read.source import Source

__all__ = [
    "scopes",
    "AuditReport",
    "Finding",
    "Recognised",
    "Understanding",
    "Unparsed",
    "audit",
    "language_of",
    "understand",
]

#: why the numbers of a block that no reader took were not read
_NOT_READ: Final = {
    BlockKind.PROSE: PROSE,
    BlockKind.HEADING: PROSE,
    BlockKind.CODE: not_checked("code-no-stage"),
    BlockKind.MATH: not_checked("math-no-number"),
    BlockKind.TABLE: not_checked("table-no-number"),
}

_CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")


def language_of(text: str) -> str:
    """``zh`` when the text is mostly Chinese prose, else ``en`` (the default of ``--lang``)."""
    sample = text[:20000]
    cjk = len(_CJK.findall(sample))
    letters = sum(1 for ch in sample if ch.isascii() and ch.isalpha())
    return "zh" if cjk * 3 > letters * 1 and cjk >= 10 else "en"


@dataclass(frozen=True)
class Understanding:
    """What the reader made of a text before ``check`` judged it: the reading, Level 1's
    verdicts, the facts and the problems (tests and tools look at each stage)."""

    src: Source
    census: Census
    reading: Reading
    level1: Level1
    facts: tuple[Fact, ...]
    problems: tuple[Problem, ...]
    #: the roles reproduction decided (:mod:`~symattn.read.confirm`)
    confirmed: Confirmed


def scopes(src: Source, reading: Reading) -> list[int]:
    """The scope of each chain: its section (heading), and within it the attention head that a
    label on its line opened (``头 2: $S_{2,1}=1$``; it holds for the lines after it, up to the
    next label or heading). A name given again in another scope is that scope's own."""
    ids: dict[tuple[int, int], int] = {}
    out: list[int] = []
    section, head, seen = -1, 0, 0
    for chain, b in zip(reading.chains, reading.chain_blocks, strict=True):
        if reading.blocks[b].section != section:
            section, head = reading.blocks[b].section, 0
        # (each stretch of text is searched once: from the line's start or the last chain, up
        # to the end of the chain's name, which may carry the label: ``Head 1: Q = [0, 1]``)
        first = chain.links[0]
        end = max(chain.start, first.offset(len(first.text) - 1) + 1 if first.text else 0)
        labels = list(
            HEAD_LABEL.regex.finditer(src.text, max(src.line_start(chain.line), seen), end)
        )
        seen = max(seen, end)
        if labels:
            head = int(labels[-1]["head"] or labels[-1]["nth"])
        out.append(ids.setdefault((section, head), len(ids)))
    return out


def understand(
    text: str,
    *,
    fmt: str,
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> Understanding:
    """Read ``text`` (a ``markdown``, ``latex`` or ``text`` document) up to its problems."""
    src = Source.of(text)
    census = Census.of(src)
    reading = read(src, fmt, census, limits)
    for chain in reading.chains:
        for at in chain.number_offsets():
            census.read(at)
    for skipped in reading.skipped:
        a = src.line_start(skipped.line)
        census.why_not(a, src.line_end(skipped.line), skipped.reason)
    for b in reading.blocks:
        census.why_not(b.start, b.end, _NOT_READ.get(b.kind, PROSE))
    level1 = judge_chains(
        reading.chains, accepted=accepted, limits=limits, sections=scopes(src, reading)
    )
    computed = flows(
        reading.code_facts, [st.tree for _, st in reading.statements], reading.literal_roles
    )
    said = src.text[: reading.end]  # (what the text says, as far as it was read)
    first = restated_query_rows(facts_of_reading(reading, level1.stated, computed))
    confirmed = confirm_roles(first, stated_d_k(said, first))
    facts = list(confirmed.facts)
    problems = build_problems(facts, said, reading.titles())
    return Understanding(src, census, reading, level1, tuple(facts), tuple(problems), confirmed)


def audit(
    text: str,
    *,
    path: str = "<text>",
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
    fmt: str | None = None,
) -> AuditReport:
    """Audit ``text``: every claim it makes, judged exactly (see the module docstring)."""
    if not isinstance(text, str):
        raise InputError("audit: expected the document as str")
    u = understand(text, fmt=fmt or format_of(path, text), accepted=accepted, limits=limits)
    census, reading, level1, facts, problems = u.census, u.reading, u.level1, u.facts, u.problems
    level2 = judge_problems(problems, path, accepted=accepted, limits=limits, facts=facts)
    if level2.known:
        # again, now that the numbers the problem states have their exact values
        level1 = judge_chains(
            reading.chains,
            accepted=accepted,
            limits=limits,
            known=level2.known,
            sections=scopes(u.src, reading),
        )
    for at in level1.seen | level2.judged:
        census.judged(at)
    examples = [p.extent for p in problems]
    if not examples and (stretch := worked_stretch(level1.stated)) is not None:
        examples = [stretch]
    merged = merge_findings(
        beside_examples(level1.findings, examples, lambda ln, col: u.src.line_start(ln) + col - 1),
        level2.findings,
    )
    merged = carried(reading.chains, facts, merged, census, level2.judged)
    merged += repeated(reading.chains, merged, census)
    prose = [(b.start, b.end) for b in reading.blocks if b.kind in WORDS]
    merged += judge_sentences(problems, sentences(u.src, prose), path, limits)
    # (a row's sum is the row's finding: on its entries already accused, as their cause, or
    # else on those not judged; never on a number found right)
    placed = {(f.line, f.column) for f in merged if f.code != FindingCode.NOT_NORMALIZED}
    accused = frozenset(
        (f.line, f.column)
        for f in merged
        if f.code != FindingCode.NOT_NORMALIZED and f.severity in FLAGGING
    )
    right = frozenset(u.src.positions(sorted(level1.seen | level2.judged))) - accused
    sums, not_weights = unnormalized(facts, level2.judged, accused=accused, right=right)
    for at, f in causal_weights(facts, level2.judged):
        census.judged(at)
        if (f.line, f.column) not in placed:
            merged.append(f)
    merged = with_row_cause(merged, [f for f in sums if (f.line, f.column) in placed])
    merged += [f for f in sums if (f.line, f.column) not in placed]
    if not problems:
        merged += missing_inputs(facts)
    findings = sorted(merged, key=lambda f: (f.line, f.column, f.code))
    unparsed = (
        *(Unparsed(s.line, s.text, s.reason) for s in reading.skipped),
        *reproduced_notes(u.confirmed),
        *level1.unparsed,
        *level2.unparsed,
        *not_weights,
    )
    checked = len(level1.seen | level2.judged)
    return AuditReport(
        path,
        tuple(findings),
        checked,
        unparsed,
        level2.recognised,
        numbers=census.records(),
        counts=census.coverage(),
        lang=language_of(text),
        specs=emitted_specs(level2.problems, path),
    )
