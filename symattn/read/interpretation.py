"""Words are claims: a sentence that says which key a query attends to most ("让 “它” 更多地
关注 “动物” 而不是 “马路”", "it attends most to animal") is judged against the weights of the
problem behind the text.

The sentences are found in the prose (:data:`~symattn.read.notations.ATTENDS`); one is judged
only when the problem names its query and its keys as tokens, and only what every frame of the
problem (scale, mask) contradicts is reported (``interpretation``, a warning). A sentence that
compares two keys ("more to A than to B") is contradicted only when B weighs strictly more
than A; one that names the key attended to most, when another key weighs strictly more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from symattn.config import Limits
from symattn.engine import AttentionResult
from symattn.errors import SymattnError
from symattn.judge.findings import Finding, TextLocation
from symattn.judge.interpretation import judge_interpretation, weight_order
from symattn.read.notations import ATTENDS
from symattn.read.problem import Problem
from symattn.read.source import Source
from symattn.spec.build import build_spec

__all__ = ["Sentence", "judge_sentences", "sentences"]


@dataclass(frozen=True)
class Sentence:
    """A sentence saying the query ``query`` attends most to ``key`` (more than to ``other``,
    when it compares two keys), and where it is."""

    query: str
    key: str
    other: str
    line: int
    column: int


def sentences(src: Source, spans: Sequence[tuple[int, int]]) -> list[Sentence]:
    """The sentences of the prose ``spans`` of ``src`` that say where a query looks."""
    out = []
    for a, b in spans:
        for row in ATTENDS:
            for m in row.scan(src.text[a:b]):
                line, column = src.position(a + m.start())
                out.append(
                    Sentence(m.group("q"), m.group("k"), m.group("other") or "", line, column)
                )
    return out


def _lookup(names: Sequence[str], word: str) -> str | None:
    low = {n.lower(): n for n in names}
    return low.get(word.lower())


def judge_sentences(
    problems: Sequence[Problem], said: Sequence[Sentence], path: str, limits: Limits
) -> list[Finding]:
    """``interpretation`` for each sentence that every frame of a problem contradicts."""
    if not said or not problems:
        return []
    groups: dict[object, list[Problem]] = {}
    for p in problems:
        if p.group[1:] == (0,):
            groups.setdefault(p.group[0], []).append(p)
    out: list[Finding] = []
    done: set[int] = set()
    for frames in groups.values():
        results = []
        for p in frames:
            try:
                results.append(build_spec(p.data, path, limits).run())
            except (SymattnError, ValueError, OverflowError):
                results = []
                break
        for k, s in enumerate(said):
            if k in done or not results:
                continue
            found = [_judge(r, s, limits) for r in results]
            if found and all(f is not None for f in found):
                done.add(k)
                first = found[0]
                assert first is not None
                out.append(first)
    return out


def _judge(result: AttentionResult, s: Sentence, limits: Limits) -> Finding | None:
    queries = list(result.query_labels or ())
    keys = list(result.key_labels or ())
    q, k = _lookup(queries, s.query), _lookup(keys, s.key)
    other = _lookup(keys, s.other) if s.other else None
    if q is None or k is None or (s.other and other is None) or other == k:
        return None
    where = TextLocation(s.line, s.column)
    try:
        found = judge_interpretation(result, q, k, location=where, limits=limits)
        if found is None or other is None:
            return found
        # ``more to A than to B``: contradicted only when B weighs strictly more than A
        order = weight_order(result, queries.index(q))
        a, b = keys.index(k), keys.index(other)
        if order.index(b) > order.index(a):
            return None
        if b > a:
            return found  # (the order keeps a tie in key order: B before A is strict)
        rest = [x for x in keys if x != other]
        strict = judge_interpretation(result, q, rest, location=where, limits=limits)
        return found if strict is not None else None
    except (SymattnError, ValueError, OverflowError):
        return None
