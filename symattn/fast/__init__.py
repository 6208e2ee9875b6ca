"""Batched certified kernels: correctly rounded float64, enclosures and decimals of whole
attention problems, proved per entry (see docs/performance.md)."""

from symattn.fast.kernels import (
    KERNELS,
    Progress,
    attention_decimals,
    attention_enclose,
    attention_float64,
    problem_of,
)

__all__ = [
    "KERNELS",
    "Progress",
    "attention_decimals",
    "attention_enclose",
    "attention_float64",
    "problem_of",
]
