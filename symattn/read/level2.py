"""Level 2: the attention problem behind the text, rebuilt and judged by ``check``.

Each finding of ``check`` lands on the number the text wrote; a number Level 1 already
reported gets no second finding, and a number both levels judged is counted once. Without
inputs, what the text states is reported as not checked (:mod:`symattn.read.missing`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.judge.check import check
from symattn.judge.findings import Finding, TextLocation
from symattn.numbers.rounding import Rounding
from symattn.read.level1 import Level1
from symattn.read.missing import missing_inputs
from symattn.read.problem import build
from symattn.read.report import Recognised, Unparsed
from symattn.read.scan import scan
from symattn.spec import loads_spec

__all__ = ["Level2", "judge_problem"]


@dataclass(frozen=True)
class Level2:
    """What Level 2 adds to Level 1: findings, math not checked, numbers judged, the problem."""

    findings: tuple[Finding, ...] = ()
    unparsed: tuple[Unparsed, ...] = ()
    checked: int = 0
    recognised: Recognised | None = None


def _not_rebuilt(line: int, e: Exception) -> Level2:
    return Level2(unparsed=(Unparsed(line, "attention problem", f"not rebuilt: {e}"),))


def judge_problem(
    text: str, path: str, level1: Level1, *, accepted: frozenset[Rounding], limits: Limits
) -> Level2:
    """Rebuild the problem behind ``text`` and judge what it states (via check)."""
    sc = scan(text, limits)
    try:
        problem = build(level1.stated, sc)
    except (SymattnError, ValueError) as e:
        return _not_rebuilt(1, e)
    if problem is None:
        return Level2(tuple(missing_inputs(level1.stated, sc)))
    try:
        spec = loads_spec(
            json.dumps(problem.data, ensure_ascii=False), fmt="json", name=path, limits=limits
        )
        report = check(spec, accepted=accepted, limits=limits)
    except SymattnError as e:
        return _not_rebuilt(problem.first.line if problem.first is not None else 1, e)
    taken = {(f.line, f.column) for f in level1.findings}
    has_conflict = any(f.code == "conflicting-definition" for f in level1.findings)
    # one count per number: those Level 1 already judged are not counted twice
    again = {(s.line, s.column) for s in problem.spots.values()} & level1.seen
    findings: list[Finding] = []
    for f in report.findings:
        if f.code == "conflicting-definition" and has_conflict:
            continue  # Level 1 already says it, with the lines
        spot = problem.spots.get((f.step, f.position)) or problem.first
        line, column = (spot.line, spot.column) if spot is not None else (1, 1)
        if f.code != "not-normalized":  # about the sum of the weights, not one number
            if (line, column) in taken:
                continue  # one finding per number: Level 1's is the more specific
            taken.add((line, column))
        findings.append(
            Finding(
                f.code,
                f.severity,
                TextLocation(line, column),
                f.claimed,
                "" if f.exact == "-" else f.exact,
                f.expected,
                f.message,
                f"level2:{f.message_key}",
            )
        )
    return Level2(
        tuple(findings), checked=max(report.checked - len(again), 0), recognised=problem.recognised
    )
