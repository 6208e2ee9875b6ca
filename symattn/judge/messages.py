"""The catalog keys of ``check``'s findings: the fixed list, under ``[check]`` in every catalog.

A finding's reason is a :class:`~symattn.judge.findings.Message` in section ``check`` whose
key is a :data:`FindingKey` (mypy rejects any other) or, for the slip that explains a
``wrong-value``, the key of its :data:`Cause`. :data:`CHECK_KEYS` lists them all, so a test can
hold every catalog to them; words live only in the catalogs (``templates/messages/``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, get_args

from symattn.judge.findings import Message

#: the catalog section of ``check``'s messages
SECTION = "check"

#: the reason of a finding (a key of the ``[check]`` table)
FindingKey = Literal[
    "wrong-value",
    "wrong-value-slip",
    "truncated",
    "approximate-constant",
    "propagated-exact",
    "propagated-interval",
    "dk-mismatch",
    "dk-mismatch-conflict",
    "dk-mismatch-divisor",
    "dk-mismatch-width",
    "conflicting-definition",
    "not-normalized",
    "precision-mixed",
    "float-representation",
    "undecided",
    "missing-input",
    "missing-token",
    "missing-row",
    "interpretation",
    "rounded-inputs",
    "propagated-error",
    "float-bound",
    "dk-mismatch-kind",
    "ambiguous",
    "undecided-limit",
]

#: a named slip behind a ``wrong-value`` (``Finding.cause``)
Cause = Literal[
    "transposed-digits",
    "dropped-digit",
    "wrong-sign",
    "swapped-operand",
    "misread-dropped-digit",
    "misread-doubled-digit",
    "misread-sign",
    "misread-neighbour",
    "misread-swapped",
]

#: cause -> the catalog key of its sentence
CAUSE_KEYS: Mapping[Cause, str] = MappingProxyType(
    {
        "transposed-digits": "cause.transposed-digits",
        "dropped-digit": "cause.dropped-digit",
        "wrong-sign": "cause.wrong-sign",
        "swapped-operand": "cause.swapped-operand",
        "misread-dropped-digit": "cause.misread-dropped-digit",
        "misread-doubled-digit": "cause.misread-doubled-digit",
        "misread-sign": "cause.misread-sign",
        "misread-neighbour": "cause.misread-neighbour",
        "misread-swapped": "cause.misread-swapped",
    }
)

#: what a wrong divisor is (a parameter of ``dk-mismatch-kind``)
DivisorKind = Literal["unscaled", "dk-itself", "width-itself"]
#: divisor kind -> the catalog key of its phrase
DIVISOR_KEYS: Mapping[DivisorKind, str] = MappingProxyType(
    {k: f"cause.{k}" for k in get_args(DivisorKind)}
)

#: every ``[check]`` key a finding of ``check`` can carry
CHECK_KEYS: tuple[str, ...] = (
    *get_args(FindingKey),
    *CAUSE_KEYS.values(),
    *DIVISOR_KEYS.values(),
)


def finding_message(key: FindingKey, params: Mapping[str, object]) -> Message:
    """The reason of a finding: ``key`` of the ``[check]`` table with ``params``."""
    return Message(SECTION, key, params)


def cause_message(cause: Cause, params: Mapping[str, object]) -> Message:
    """The sentence naming a slip (a parameter of a ``wrong-value-slip`` message)."""
    return Message(SECTION, CAUSE_KEYS[cause], params)
