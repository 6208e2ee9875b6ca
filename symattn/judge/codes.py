"""The finding codes: one table of stable slugs, their severity and meaning.

Reports, JSON output and exit codes use these slugs, like a linter's rule codes; ``check``
and ``audit`` read their severities from :data:`SEVERITY`. Adding a code is one row here
(and its row in ``docs/check.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class Severity(StrEnum):
    """How much a finding weighs (a StrEnum: reports and JSON write its value)."""

    ERROR = "error"  #: the author's number is wrong
    WARNING = "warning"  #: right for the author's own numbers, or worth a look
    INFO = "info"  #: what was not or could not be checked, and why


class FindingCode(StrEnum):
    """The stable slug of a finding (a StrEnum: reports and JSON write its value); each
    member's severity and meaning are its row of :data:`CODES`."""

    WRONG_VALUE = "wrong-value"  #: no rounding explains the claim
    TRUNCATED = "truncated"  #: the truncation, not the rounding, of the exact value
    APPROXIMATE_CONSTANT = "approximate-constant"  #: what a rounded constant gives
    DK_MISMATCH = "dk-mismatch"  #: the divisor is not sqrt(d_k)
    NOT_NORMALIZED = "not-normalized"  #: weights that do not sum to 1
    CONFLICTING_DEFINITION = "conflicting-definition"  #: one symbol, two values
    PROPAGATED_ROUNDING = "propagated-rounding"  #: right for the author's rounded numbers
    PROPAGATED_ERROR = "propagated-error"  #: carried from an earlier wrong number
    INTERPRETATION = "interpretation"  #: a sentence the weights contradict
    PRECISION_MIXED = "precision-mixed"  #: one quantity written with different decimals
    FLOAT_REPRESENTATION = "float-representation"  #: what a float program prints
    ROUNDED_INPUTS = "rounded-inputs"  #: reachable from inputs inside their roundings
    MISSING_INPUT = "missing-input"  #: the inputs of a claim are not given
    UNDECIDED = "undecided"  #: refinement reached the precision ceiling


#: the severities, most severe first
SEVERITIES: tuple[Severity, ...] = tuple(Severity)
#: the severities that flag an author's number (not only say what was checked)
FLAGGING: frozenset[Severity] = frozenset({Severity.ERROR, Severity.WARNING})


@dataclass(frozen=True)
class Code:
    """A finding code: its stable slug, severity and one-line meaning (see DESIGN.md)."""

    code: FindingCode
    severity: Severity
    meaning: str


#: every finding code, most severe first
CODES: tuple[Code, ...] = (
    Code(FindingCode.WRONG_VALUE, Severity.ERROR, "no rounding explains the claim"),
    Code(
        FindingCode.TRUNCATED,
        Severity.ERROR,
        "the claim is the truncation, not the rounding, of the exact value",
    ),
    Code(
        FindingCode.APPROXIMATE_CONSTANT,
        Severity.ERROR,
        "the claim is what a rounded constant gives",
    ),
    Code(
        FindingCode.DK_MISMATCH,
        Severity.ERROR,
        "the divisor used is not sqrt(d_k) for the stated d_k or the width of K",
    ),
    Code(
        FindingCode.NOT_NORMALIZED,
        Severity.ERROR,
        "claimed weights do not sum to 1 within their rounding",
    ),
    Code(FindingCode.CONFLICTING_DEFINITION, Severity.ERROR, "one symbol is given two values"),
    Code(
        FindingCode.PROPAGATED_ROUNDING,
        Severity.WARNING,
        "right for the author's own rounded earlier numbers",
    ),
    Code(
        FindingCode.PROPAGATED_ERROR,
        Severity.WARNING,
        "right for the author's own numbers, but carried from an earlier wrong one",
    ),
    Code(
        FindingCode.INTERPRETATION,
        Severity.WARNING,
        "a sentence about which key a query attends to most contradicts the weights",
    ),
    Code(
        FindingCode.PRECISION_MIXED,
        Severity.WARNING,
        "values of one quantity written with different decimals",
    ),
    Code(
        FindingCode.FLOAT_REPRESENTATION,
        Severity.INFO,
        "what a float program prints: inside the rigorous error bound of the computation in"
        " that precision (or the float repr of the exact value)",
    ),
    Code(
        FindingCode.ROUNDED_INPUTS,
        Severity.INFO,
        "consistent with unrounded inputs: reachable from inputs inside their printed roundings",
    ),
    Code(
        FindingCode.MISSING_INPUT,
        Severity.INFO,
        "a claim cannot be checked because its inputs are not given",
    ),
    Code(
        FindingCode.UNDECIDED,
        Severity.INFO,
        "certified refinement reached the precision ceiling without deciding",
    ),
)

#: finding code -> its severity
SEVERITY: Mapping[str, Severity] = MappingProxyType({c.code: c.severity for c in CODES})
