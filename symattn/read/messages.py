"""The sentences of an audit: the fixed list of ``[audit]`` catalog keys it uses.

A finding's reason is a :class:`~symattn.judge.findings.Message` of the ``audit`` section;
:func:`say` builds one and refuses a key that is not in :data:`AUDIT_KEYS`, so the list is
exactly the keys audit can use (the catalogs are tested against it). Level 2 findings carry
the messages of ``check`` (section ``check``) unchanged.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from symattn.judge.findings import Message
from symattn.numbers.rounding import terminating_decimal

__all__ = ["AUDIT_KEYS", "fraction_text", "say"]

#: every ``[audit]`` key a finding of audit may name
AUDIT_KEYS: Final[tuple[str, ...]] = (
    # a claim judged against the value of its formula (the verdict codes)
    "wrong-value",
    "truncated",
    "float-representation",
    "undecided",
    # the claim is what a rounded e gives (exactly, or as double precision prints it)
    "approximate-e",
    "approximate-e-float",
    # the claim is what a rounded root (√2 ≈ 1.41) gives
    "approximate-root",
    # right for the author's own rounded earlier numbers
    "propagated-rounding",
    "propagated-rounding-of",
    # ``a = b`` between two exact expressions that are not equal
    "wrong-step",
    # one name, two values; a formula that holds with only one of them
    "conflicting-definition",
    "holds-only",
    # stated attention numbers without the inputs to compute them
    "missing-input",
    "missing-placed",
    "what-weights",
    "what-output",
    "and",
    "not-normalized",
    # a number found wrong, used again
    "repeat",
    # what the author's own written scores of the row give (unscaled, or scaled by a factor)
    "own-scores",
    "own-scores-scaled",
    # a matrix or row written in another shape than the stage it states
    "wrong-shape",
    "wrong-shape-extra",
    "stage-scores",
    "stage-scaled",
    "stage-exp",
    "stage-weights",
    "stage-output",
)

_KEYS: Final = frozenset(AUDIT_KEYS)


def say(key: str, **fields: object) -> Message:
    """A message of the ``[audit]`` catalog table (``None`` fields are shown empty)."""
    if key not in _KEYS:
        raise KeyError(f"audit message key {key!r} is not in AUDIT_KEYS")
    return Message("audit", key, {k: ("" if v is None else v) for k, v in fields.items()})


def fraction_text(r: Fraction) -> str:
    """``r`` as a finite decimal when it terminates (``-0.35``), else ``p/q``."""
    d = terminating_decimal(r)
    return f"{d:f}" if d is not None else f"{r.numerator}/{r.denominator}"
