"""What an audit reports: findings at text positions, the math it did not check, and the
attention problem it rebuilt."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from symattn.judge.codes import Severity
from symattn.judge.findings import Finding, Message, TextLocation
from symattn.judge.verdict import SEVERITY
from symattn.read.census import Coverage, NumberRecord, NumberStatus

__all__ = ["AuditReport", "Recognised", "Unparsed", "text_finding"]


@dataclass(frozen=True)
class Unparsed:
    """Math that was seen but not checked, and why."""

    line: int
    text: str
    #: why, as a message of the ``[unchecked]`` catalog table (present/ says it)
    reason: Message


@dataclass(frozen=True)
class Recognised:
    """The attention problem Level 2 rebuilt from the text: which inputs, for which tokens."""

    source: str  # vectors | table | embeddings
    q: tuple[str, ...]
    k: tuple[str, ...]
    v: tuple[str, ...]
    x: tuple[str, ...] = ()
    w: tuple[str, ...] = ()
    d_k: int | None = None
    d_k_stated: bool = False
    claims: int = 0


@dataclass(frozen=True)
class EmittedSpec:
    """A problem the audit judged, written as a spec (:mod:`symattn.read.emit`): its file
    name, its TOML text, and the place in the text (line, column) of each claim it holds, by
    the claim's path in the spec (table keys and list indexes)."""

    name: str
    toml: str
    places: Mapping[tuple[str | int, ...], tuple[int, int]]


@dataclass(frozen=True)
class AuditReport:
    """What the audit of one text found."""

    path: str
    findings: tuple[Finding, ...]
    checked: int
    unparsed: tuple[Unparsed, ...]
    #: the attention problem of each of the text's problems the audit judged, in order (a
    #: finding's ``problem`` N is the N-th); when none could be judged, the first one rebuilt
    problems: tuple[Recognised, ...] = ()
    #: every number of the text and what the audit did with it
    numbers: tuple[NumberRecord, ...] = ()
    #: the language the text is written in (the default language of the report)
    lang: str = "en"
    #: the counts of every number (``numbers`` lists at most census.MAX_RECORDS of them)
    counts: Coverage | None = None
    #: each problem the audit judged, as a spec ``check`` runs (``--emit-spec``)
    specs: tuple[EmittedSpec, ...] = ()

    @property
    def recognised(self) -> Recognised | None:
        """The first attention problem rebuilt from the text (None: none)."""
        return self.problems[0] if self.problems else None

    def coverage(self) -> dict[str, int]:
        """How many numbers the text holds, and how many were read and judged."""
        if self.counts is not None:
            c = self.counts
            return {"numbers": c.numbers, "read": c.read, "judged": c.judged}
        judged = sum(1 for n in self.numbers if n.status is NumberStatus.JUDGED)
        read = sum(1 for n in self.numbers if n.status is not NumberStatus.NOT_READ)
        return {"numbers": len(self.numbers), "read": read, "judged": judged}

    def not_read(self) -> tuple[tuple[Message, int], ...]:
        """Why the numbers not read were not read: (reason, how many) of each reason."""
        if self.counts is not None:
            return self.counts.not_read
        reasons: list[Message] = []  # (a message is no dict key)
        counts: list[int] = []
        for n in self.numbers:
            if n.status is NumberStatus.NOT_READ and n.reason is not None:
                if n.reason in reasons:
                    counts[reasons.index(n.reason)] += 1
                else:
                    reasons.append(n.reason)
                    counts.append(1)
        return tuple(zip(reasons, counts, strict=True))

    @property
    def has_errors(self) -> bool:
        """Whether a finding of severity error exists."""
        return any(f.severity == Severity.ERROR for f in self.findings)


def text_finding(
    code: str,
    line: int,
    column: int,
    claimed: str,
    exact: str,
    expected: str | None,
    message: Message,
    cause: str,
    *,
    inexact: bool = False,
) -> Finding:
    """A finding about the number at ``line``, ``column`` (its severity is the code's);
    ``inexact`` when ``exact`` is a rounding of the exact value (shown with a trailing …)."""
    return Finding(
        code,
        SEVERITY[code],
        TextLocation(line, column),
        claimed,
        exact,
        expected,
        message,
        cause,
        inexact=inexact,
    )
