"""One ``check`` run: its settings, the findings it records in order, and its report."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from symattn.config import Limits
from symattn.judge.codes import SEVERITY
from symattn.judge.findings import Finding, SpecLocation
from symattn.judge.messages import Cause, FindingKey, cause_message, finding_message
from symattn.judge.quantities import Quantity
from symattn.judge.verdict import Verdict, consistent_with, judge
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding
from symattn.spec import Spec


@dataclass(frozen=True)
class CheckReport:
    """The findings of one ``check`` run."""

    path: str
    findings: tuple[Finding, ...]
    checked: int

    def count(self, severity: str) -> int:
        """How many findings have ``severity``."""
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def has_errors(self) -> bool:
        """Whether any finding is of severity error."""
        return self.count("error") > 0


@dataclass
class Run:
    """A spec being checked: the accepted roundings, the limits and the findings so far."""

    spec: Spec
    accepted: frozenset[Rounding]
    limits: Limits
    findings: list[Finding] = field(default_factory=list)

    # -- judging ----------------------------------------------------------------------

    def judge(self, claim: Written, value: Quantity) -> Verdict:
        """The verdict on ``claim`` under this run's roundings and limits."""
        return judge(
            claim,
            value,
            accepted=self.accepted,
            limits=self.limits,
            floats=self.spec.precision != "exact",
        )

    def holds(self, claim: Written, value: Quantity) -> bool:
        """Whether ``claim`` is proved a correct rounding of ``value``."""
        return self.judge(claim, value).code is None

    def consistent(self, claim: Written, value: Quantity) -> bool:
        """Whether ``claim`` is proved a correct rounding or float repr of ``value``."""
        return consistent_with(claim, value, self.accepted, self.limits)

    # -- recording --------------------------------------------------------------------

    def add(
        self,
        code: str,
        key: FindingKey,
        where: SpecLocation,
        claimed: str,
        exact: str,
        expected: str | None,
        params: Mapping[str, object] | None = None,
        *,
        cause: Cause | None = None,
        inexact: bool = False,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        """Record a finding; its message carries its own values as parameters too."""
        finding = Finding(
            code,
            SEVERITY[code],
            where,
            claimed,
            exact,
            expected,
            finding_message(key, {}),
            cause,
            inexact,
            alternatives=alternatives,
        )
        values: dict[str, object] = dict(params or {})
        values.update(claimed=claimed, exact=finding.exact_text, expected=expected or "")
        if cause is not None:
            values["cause"] = values.get("slip", cause)
            values["cause_text"] = cause_message(cause, dict(values))
        self.findings.append(replace(finding, message=finding_message(key, values)))

    def in_frame(self, since: int, frame: str, steps: Collection[str]) -> None:
        """Mark the findings recorded since ``since`` at ``steps`` as judged in ``frame``."""
        self.findings[since:] = [
            replace(f, frame=frame) if f.step in steps else f for f in self.findings[since:]
        ]

    def report(self, checked: int) -> CheckReport:
        """The report of this run: the findings in the order they were recorded."""
        return CheckReport(self.spec.path, tuple(self.findings), checked)
