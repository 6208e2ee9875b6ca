"""The finding codes: one table of stable slugs, their severity and meaning.

Reports, JSON output and exit codes use these slugs, like a linter's rule codes; ``check``
and ``audit`` read their severities from :data:`SEVERITY`. Adding a code is one row here
(and its row in ``docs/check.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

Severity = Literal["error", "warning", "info"]

#: the severities, most severe first
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True)
class Code:
    """A finding code: its stable slug, severity and one-line meaning (see DESIGN.md)."""

    code: str
    severity: Severity
    meaning: str


#: every finding code, most severe first
CODES: tuple[Code, ...] = (
    Code("wrong-value", "error", "no rounding explains the claim"),
    Code("truncated", "error", "the claim is the truncation, not the rounding, of the exact value"),
    Code("approximate-constant", "error", "the claim is what a rounded constant gives"),
    Code(
        "dk-mismatch",
        "error",
        "the divisor used is not sqrt(d_k) for the stated d_k or the width of K",
    ),
    Code("not-normalized", "error", "claimed weights do not sum to 1 within their rounding"),
    Code("conflicting-definition", "error", "one symbol is given two values"),
    Code("propagated-rounding", "warning", "right for the author's own rounded earlier numbers"),
    Code(
        "propagated-error",
        "warning",
        "right for the author's own numbers, but carried from an earlier wrong one",
    ),
    Code(
        "interpretation",
        "warning",
        "a sentence about which key a query attends to most contradicts the weights",
    ),
    Code("precision-mixed", "warning", "values of one quantity written with different decimals"),
    Code(
        "float-representation",
        "info",
        "what a float program prints: inside the rigorous error bound of the computation in"
        " that precision (or the float repr of the exact value)",
    ),
    Code(
        "rounded-inputs",
        "info",
        "consistent with unrounded inputs: reachable from inputs inside their printed roundings",
    ),
    Code("missing-input", "info", "a claim cannot be checked because its inputs are not given"),
    Code(
        "undecided", "info", "certified refinement reached the precision ceiling without deciding"
    ),
)

#: finding code -> ``"error" | "warning" | "info"``
SEVERITY: Mapping[str, Severity] = MappingProxyType({c.code: c.severity for c in CODES})
