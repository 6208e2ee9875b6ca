"""Every number a text holds, and what the audit did with it: judged, read, or why not.

The census is taken once (one regular-expression pass over the text); the readers mark the
numbers they read and the judges the numbers they judged, by source offset. What is left
is reported as not read, with the reason of the block it is in.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Final

from symattn.read.source import Source

__all__ = ["Census", "NumberRecord"]

#: a number in running text: not part of a name (``x_2``, ``W1``, ``3D``, ``2nd``)
_NUMBER: Final = re.compile(
    r"(?<![A-Za-z0-9_.])(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?![A-Za-z0-9_])"
)
#: statuses, strongest first
STATUSES: Final = ("judged", "read", "not read")


@dataclass(frozen=True)
class NumberRecord:
    """One number of the text: where, as written, and what the audit did with it."""

    line: int
    column: int
    text: str
    status: str  # judged | read | not read
    reason: str = ""


@dataclass
class Census:
    """The numbers of one text (by the offset of their first digit) and their status."""

    src: Source
    numbers: dict[int, str] = field(default_factory=dict)
    keys: list[int] = field(default_factory=list)
    status: dict[int, str] = field(default_factory=dict)
    reasons: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, src: Source) -> Census:
        """The census of ``src`` (every number, none read yet)."""
        c = cls(src)
        for m in _NUMBER.finditer(src.text):
            c.numbers[m.start()] = m.group()
        c.keys = sorted(c.numbers)
        return c

    def _key(self, at: int) -> int:
        text = self.src.text
        while at < len(text) and text[at] in "-+−":
            at += 1
        return at

    def read(self, at: int) -> None:
        """The number at offset ``at`` (or its sign) was read."""
        k = self._key(at)
        if self.status.get(k) != "judged":
            self.status[k] = "read"

    def judged(self, at: int) -> None:
        """The number at offset ``at`` (or its sign) was judged."""
        self.status[self._key(at)] = "judged"

    def why_not(self, start: int, end: int, reason: str) -> None:
        """The numbers in ``[start, end)`` not read: say ``reason`` (the first reason stays)."""
        i = bisect.bisect_left(self.keys, start)
        while i < len(self.keys) and self.keys[i] < end:
            self.reasons.setdefault(self.keys[i], reason)
            i += 1

    def records(self) -> tuple[NumberRecord, ...]:
        """Every number in order of the text, with its status."""
        out = []
        for k in self.keys:
            line, column = self.src.position(k)
            status = self.status.get(k, "not read")
            reason = "" if status != "not read" else self.reasons.get(k, "prose")
            out.append(NumberRecord(line, column, self.numbers[k], status, reason))
        return tuple(out)
