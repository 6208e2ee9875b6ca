"""What one linter run says of each file: the findings reported, the ones silenced, and the
counts of the summary (what was judged, what could not be checked and why).

Pure functions over the typed reports of ``check`` (:class:`CheckReport`) and ``audit``
(:class:`AuditReport`); the formats (:mod:`~symattn.present.reports`,
:mod:`~symattn.present.sarif`, :mod:`~symattn.present.github`) render a
:class:`FileOutcome`.

- Selection (``--select`` / ``--ignore``): by code (``truncated``) or severity (``error``),
  as ruff selects rules: with ``select`` only what it names, then less what ``ignore``
  names. What is left out is counted in the summary, never listed.
- Inline suppression (:func:`suppressions`): a comment ``symattn: ignore`` or
  ``symattn: ignore[code, ...]`` in the file's own comment syntax (``<!-- -->``, ``%``,
  ``#``). On a line with other content it applies to that line; alone on its line, to the
  next line that is not blank. Suppressed findings are counted in the summary and listed
  with ``--show-suppressed``; they never decide the exit code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from symattn.errors import InputError
from symattn.judge.check import CheckReport
from symattn.judge.codes import CODES, SEVERITIES
from symattn.judge.findings import Finding
from symattn.read.audit import AuditReport

#: codes of findings that say a claim could not be checked (not a verdict)
NOT_CHECKED_CODES: tuple[str, ...] = ("missing-input", "undecided")
#: every word ``--select`` / ``--ignore`` accept
SELECTORS = frozenset({c.code for c in CODES} | set(SEVERITIES))
#: ``symattn: ignore`` after a comment opener: ``<!--``, ``%`` or ``#``
_SUPPRESS = re.compile(r"(?:<!--|%|#)[ \t]*symattn:[ \t]*ignore(?:\[([^\]\n]{0,400})\])?")
#: every code (what a bare ``ignore`` silences)
ALL = frozenset({c.code for c in CODES})


@dataclass(frozen=True)
class Placed:
    """A finding and where a person finds it: 1-based line and column (0: unknown), and for
    a spec the claim's name (``weights[fruit,apple]``)."""

    finding: Finding
    line: int
    column: int
    where: str = ""


@dataclass(frozen=True)
class FileOutcome:
    """One file of a run: what is reported and why the rest is not."""

    path: str
    reported: tuple[Placed, ...]
    suppressed: tuple[Placed, ...]
    deselected: int  #: left out by --select / --ignore
    claims: int  #: claims found in the file
    judged: int  #: claims given a verdict
    not_checked: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def count(self, severity: str) -> int:
        """Reported findings of ``severity``."""
        return sum(1 for p in self.reported if p.finding.severity == severity)

    @property
    def not_checked_total(self) -> int:
        """Claims that could not be checked."""
        return sum(self.not_checked.values())

    @property
    def has_errors(self) -> bool:
        """Whether a reported finding is of severity error."""
        return self.count("error") > 0


def parse_selectors(words: Iterable[str] | None, option: str) -> frozenset[str]:
    """The codes and severities of ``--select`` / ``--ignore`` (comma-separated, repeatable)."""
    out = {w.strip() for word in words or () for w in word.split(",") if w.strip()}
    unknown = sorted(out - SELECTORS)
    if unknown:
        raise InputError(
            f"{option} {unknown[0]}: not a code or severity (see docs/check.md for the codes)"
        )
    return frozenset(out)


def selected(f: Finding, select: frozenset[str], ignore: frozenset[str]) -> bool:
    """Whether ``f`` is reported under ``--select`` / ``--ignore``."""
    names = {f.code, f.severity}
    if select and not names & select:
        return False
    return not names & ignore


def suppressions(text: str) -> dict[int, frozenset[str]]:
    """1-based line -> the codes its ``symattn: ignore`` comments silence (see the module doc)."""
    out: dict[int, frozenset[str]] = {}
    pending: frozenset[str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        m = _SUPPRESS.search(line)
        if m is None:
            if pending is not None and line.strip():
                out[number] = out.get(number, frozenset()) | pending
                pending = None
            continue
        codes = ALL if m.group(1) is None else _codes(m.group(1))
        before = line[: m.start()].strip()
        if before:
            out[number] = out.get(number, frozenset()) | codes
        else:
            pending = codes if pending is None else pending | codes
    return out


def _codes(text: str) -> frozenset[str]:
    """The codes inside ``ignore[...]`` (unknown words silence nothing)."""
    words = {w.strip() for w in text.split(",")}
    return frozenset(w for w in words if w in ALL)


def outcome(
    path: str,
    placed: Sequence[Placed],
    *,
    claims: int,
    judged: int,
    not_checked: Mapping[str, int],
    silenced: Mapping[int, frozenset[str]],
    select: frozenset[str] = frozenset(),
    ignore: frozenset[str] = frozenset(),
) -> FileOutcome:
    """Sort ``placed`` into reported, suppressed and deselected."""
    reported, suppressed, deselected = [], [], 0
    for p in placed:
        if not selected(p.finding, select, ignore):
            deselected += 1
        elif p.finding.code in silenced.get(p.line, frozenset()):
            suppressed.append(p)
        else:
            reported.append(p)
    return FileOutcome(
        path,
        tuple(reported),
        tuple(suppressed),
        deselected,
        claims,
        judged,
        MappingProxyType(dict(not_checked)),
    )


def not_checked_of(findings: Iterable[Finding]) -> dict[str, int]:
    """Claims that could not be checked, by reason (the finding's code)."""
    out: dict[str, int] = {}
    for f in findings:
        if f.code in NOT_CHECKED_CODES:
            out[f.code] = out.get(f.code, 0) + 1
    return out


def judged_share(outcomes: Sequence[FileOutcome]) -> float:
    """Percent of all claims that were judged (100 when there is no claim)."""
    claims = sum(o.claims for o in outcomes)
    return 100.0 if claims == 0 else 100.0 * sum(o.judged for o in outcomes) / claims


def check_outcome(
    report: CheckReport,
    placed: Sequence[Placed] | None = None,
    silenced: Mapping[int, frozenset[str]] | None = None,
    select: frozenset[str] = frozenset(),
    ignore: frozenset[str] = frozenset(),
) -> FileOutcome:
    """What a run reports of one spec: every claim judged or not checked (a missing-input or
    undecided finding); ``placed`` gives each finding its line (default: none known)."""
    from_report = [Placed(f, 0, 0, spec_position(f)) for f in report.findings]
    not_checked = not_checked_of(report.findings)
    return outcome(
        report.path,
        from_report if placed is None else placed,
        claims=report.checked,
        judged=max(report.checked - sum(not_checked.values()), 0),
        not_checked=not_checked,
        silenced=silenced or {},
        select=select,
        ignore=ignore,
    )


def spec_position(f: Finding) -> str:
    """``step[row,col]`` as docs/spec.md writes it: an index counts from 0, as in the spec."""
    if not f.position:
        return f.step
    return f"{f.step}[{','.join(f.position)}]"


def text_outcome(
    r: AuditReport,
    silenced: Mapping[int, frozenset[str]] | None = None,
    select: frozenset[str] = frozenset(),
    ignore: frozenset[str] = frozenset(),
) -> FileOutcome:
    """What a run reports of one text: every claim is judged or not checked (a missing-input
    or undecided finding, or a statement the audit could not understand, ``unparsed``)."""
    not_checked = not_checked_of(r.findings)
    undecided = not_checked.get("undecided", 0)
    if r.unparsed:
        not_checked["unparsed"] = len(r.unparsed)
    judged = max(r.checked - undecided, 0)
    return outcome(
        r.path,
        [Placed(f, f.line, f.column) for f in r.findings],
        claims=judged + sum(not_checked.values()),
        judged=judged,
        not_checked=not_checked,
        silenced=silenced or {},
        select=select,
        ignore=ignore,
    )
