"""The finding merge: one finding per number of the text, from what Level 1 and Level 2 said.

Level 1 judges each formula on its own, Level 2 the problem behind the text; both may speak
of the same number. The rule, in one place:

- a number Level 1 reported keeps Level 1's finding, which names as alternatives the causes
  Level 2 found for it (``0.0167`` is wrong for the formula it ends, and it is the author's
  wrong score divided by the author's wrong divisor: ``propagated-error``, ``dk-mismatch``);
- of Level 2's findings on one number, the most severe is kept (by the order of
  :data:`~symattn.judge.codes.CODES`, most severe first), naming the others' codes as its
  alternatives, so no cause is lost and no number gets two findings;
- ``not-normalized`` is about a row's sum, not its first number: it takes no place;
- a number Level 1 finds wrong that Level 2 finds within the float error bound of the
  program that printed it (``float-representation``: ``softmax([10, 0, -5])`` printed
  ``0.9999545`` for 0.99995430), here or where the same number, the same rounding of the
  same value, is written again, is that float printout: Level 1 knows no float program, so
  its exact arithmetic cannot accuse what a float32 bound explains.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from symattn.judge.codes import CODES, FindingCode
from symattn.judge.findings import Finding

__all__ = ["float_explained", "merge_findings", "with_level2_causes", "with_row_cause"]

_FLAGGED: Final = ("error", "warning")
#: finding code -> its rank (0: most severe)
_RANK: Final[Mapping[str, int]] = {c.code: i for i, c in enumerate(CODES)}

Place = tuple[int, int]


def with_level2_causes(level1: Sequence[Finding], level2: Sequence[Finding]) -> list[Finding]:
    """Level 1's findings, each naming as alternatives the causes Level 2 found for the same
    number."""
    other: dict[Place, list[str]] = {}
    for g in level2:
        if g.severity in _FLAGGED and g.code != FindingCode.NOT_NORMALIZED:
            other.setdefault((g.line, g.column), []).extend((g.code, *g.alternatives))
    out = []
    for f in level1:
        found = other.get((f.line, f.column))
        if found and f.severity in _FLAGGED:
            causes = (*f.alternatives, *found)
            extra = tuple(dict.fromkeys(c for c in causes if c != f.code))
            f = replace(f, alternatives=extra)
        out.append(f)
    return out


def with_row_cause(findings: Sequence[Finding], sums: Sequence[Finding]) -> list[Finding]:
    """The findings, each on a number where a ``not-normalized`` of its row (in ``sums``)
    stands naming it as a cause: the row's wrong entries are why it cannot sum to 1."""
    at = {(g.line, g.column) for g in sums if g.code == FindingCode.NOT_NORMALIZED}
    out = []
    for f in findings:
        if (f.line, f.column) in at and f.code != FindingCode.NOT_NORMALIZED:
            if FindingCode.NOT_NORMALIZED not in (f.code, *f.alternatives):
                f = replace(f, alternatives=(*f.alternatives, FindingCode.NOT_NORMALIZED))
        out.append(f)
    return out


def float_explained(level1: Sequence[Finding], level2: Sequence[Finding]) -> list[Finding]:
    """Level 1's findings, each ``wrong-value`` that Level 2 found to be a float printout of
    the same value (the same number written, the same rounding expected) replaced by that
    ``float-representation``, at its own place."""
    bound = {
        (g.claimed, g.expected): g for g in level2 if g.code == FindingCode.FLOAT_REPRESENTATION
    }
    out = []
    for f in level1:
        g = bound.get((f.claimed, f.expected)) if f.code == FindingCode.WRONG_VALUE else None
        out.append(f if g is None or g.expected is None else replace(g, location=f.location))
    return out


def merge_findings(level1: Sequence[Finding], level2: Sequence[Finding]) -> list[Finding]:
    """One finding per number (see the module docstring), Level 1's first."""
    level1 = float_explained(level1, level2)
    merged = with_level2_causes(level1, level2)
    taken = {(f.line, f.column) for f in level1}
    by_place: dict[Place, list[Finding]] = {}
    for f in level2:
        if f.code == FindingCode.NOT_NORMALIZED:
            merged.append(f)
        elif (f.line, f.column) not in taken:
            by_place.setdefault((f.line, f.column), []).append(f)
    for found in by_place.values():
        best = min(found, key=lambda f: _RANK.get(f.code, len(_RANK)))
        others = (c for f in found if f is not best for c in (f.code, *f.alternatives))
        extra = tuple(dict.fromkeys(c for c in (*best.alternatives, *others) if c != best.code))
        merged.append(replace(best, alternatives=extra) if extra != best.alternatives else best)
    return merged
