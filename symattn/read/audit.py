"""Audit a text as it is: every arithmetic claim in it, judged with certified verdicts.

The reading pipeline, one module per stage:

1. :mod:`~symattn.read.extract` finds the math and cuts it into chains ``a = b ≈ c``;
2. :mod:`~symattn.read.level1` judges each chain link by link (names the text defines,
   conflicting definitions, rounded constants), and keeps what each chain states;
3. :mod:`~symattn.read.scan` reads the inputs and prose claims line by line, and
   :mod:`~symattn.read.problem` rebuilds the attention problem behind the text;
4. :mod:`~symattn.read.level2` judges that problem with ``check`` (or says what could not be
   checked, :mod:`~symattn.read.missing`);
5. :class:`AuditReport` holds one finding per number, sorted by position.
"""

from __future__ import annotations

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError
from symattn.judge.findings import Finding
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers.rounding import Rounding
from symattn.read.extract import chains
from symattn.read.level1 import judge_chains
from symattn.read.level2 import judge_problem
from symattn.read.report import AuditReport, Recognised, Unparsed

__all__ = ["AuditReport", "Finding", "Recognised", "Unparsed", "audit"]


def audit(
    text: str,
    *,
    path: str = "<text>",
    accepted: frozenset[Rounding] = DEFAULT_ACCEPTED,
    limits: Limits = DEFAULT_LIMITS,
) -> AuditReport:
    """Audit ``text``: every claim it makes, judged exactly (see the module docstring)."""
    if not isinstance(text, str):
        raise InputError("audit: expected the document as str")
    found, skipped = chains(text, limits=limits)
    level1 = judge_chains(found, accepted=accepted, limits=limits)
    level2 = judge_problem(text, path, level1, accepted=accepted, limits=limits)
    findings = sorted(
        (*level1.findings, *level2.findings), key=lambda f: (f.line, f.column, f.code)
    )
    unparsed = (
        *(Unparsed(s.line, s.text, s.reason) for s in skipped),
        *level1.unparsed,
        *level2.unparsed,
    )
    return AuditReport(
        path, tuple(findings), level1.checked + level2.checked, unparsed, level2.recognised
    )
