"""Every number a text holds, and what the audit did with it: judged, read, or why not.

The census is taken once (one regular-expression pass over the text) and kept compact (two
arrays of offsets and lengths, one byte of status per number), so that a text of millions of
numbers costs a few bytes each. The readers mark the numbers they read and the judges the
numbers they judged, by source offset; the blocks say why the others were not read.
"""

from __future__ import annotations

import bisect
from array import array
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from symattn.judge.findings import Message
from symattn.read.messages import not_checked, plain
from symattn.read.numerals import SIGNS, numbers_in
from symattn.read.source import Source

__all__ = ["MAX_RECORDS", "PROSE", "Census", "Coverage", "NumberRecord", "NumberStatus"]


class NumberStatus(StrEnum):
    """What the audit did with one number of the text (its value is what reports write)."""

    NOT_READ = "not read"  #: no reader took it (the census says why)
    READ = "read"  #: read as part of an array, a chain or a claim, not judged
    JUDGED = "judged"  #: a verdict was reached on it


#: statuses by their byte
STATUSES: Final = tuple(NumberStatus)
_READ, _JUDGED = 1, 2
#: why a number no block gave a reason for was not read
PROSE: Final = not_checked("prose")
#: most numbers listed one by one in a report (all are counted)
MAX_RECORDS: Final = 100_000


@dataclass(frozen=True)
class NumberRecord:
    """One number of the text: where, as written, and what the audit did with it."""

    line: int
    column: int
    text: str
    status: NumberStatus
    #: why it was not read (None: it was read)
    reason: Message | None = None


@dataclass(frozen=True)
class Coverage:
    """How many numbers a text holds, how many were read and judged, and why the others
    were not read (reason -> count)."""

    numbers: int = 0
    read: int = 0
    judged: int = 0
    not_read: tuple[tuple[Message, int], ...] = ()


@dataclass
class Census:
    """The numbers of one text (by the offset of their first digit) and their status."""

    src: Source
    offsets: array[int] = field(default_factory=lambda: array("q"))
    lengths: array[int] = field(default_factory=lambda: array("I"))
    status: bytearray = field(default_factory=bytearray)
    #: (start, end, reason) of spans whose numbers were not read, in the order given
    _why: list[tuple[int, int, Message]] = field(default_factory=list)

    @classmethod
    def of(cls, src: Source) -> Census:
        """The census of ``src`` (every number, none read yet)."""
        c = cls(src)
        start, length = c.offsets.append, c.lengths.append
        for m in numbers_in(src.text):
            a, b = m.span()
            start(a)
            length(b - a)
        c.status = bytearray(len(c.offsets))
        return c

    def __len__(self) -> int:
        return len(self.offsets)

    def index(self, at: int) -> int | None:
        """The number whose first digit is at offset ``at`` (or after its sign), or None."""
        text = self.src.text
        while at < len(text) and text[at] in SIGNS:
            at += 1
        k = bisect.bisect_left(self.offsets, at)
        return k if k < len(self.offsets) and self.offsets[k] == at else None

    def text(self, k: int) -> str:
        """Number ``k`` as written."""
        a = self.offsets[k]
        return self.src.text[a : a + self.lengths[k]]

    def judged_at(self, at: int) -> bool:
        """Whether the number at offset ``at`` was judged."""
        k = self.index(at)
        return k is not None and self.status[k] == _JUDGED

    def read(self, at: int) -> None:
        """The number at offset ``at`` (or its sign) was read."""
        k = self.index(at)
        if k is not None and self.status[k] < _READ:
            self.status[k] = _READ

    def judged(self, at: int) -> None:
        """The number at offset ``at`` (or its sign) was judged."""
        k = self.index(at)
        if k is not None:
            self.status[k] = _JUDGED

    def why_not(self, start: int, end: int, reason: Message) -> None:
        """The numbers in ``[start, end)`` not read: say ``reason`` (the first reason given
        for a number stays)."""
        if start < end:
            self._why.append((start, end, reason))

    def _ranges(self) -> list[tuple[int, int, Message]]:
        """(first number, number after the last, reason) of each span given a reason."""
        return [
            (bisect.bisect_left(self.offsets, a), bisect.bisect_left(self.offsets, b), reason)
            for a, b, reason in self._why
        ]

    def coverage(self) -> Coverage:
        """The counts of every number (a few passes over a byte per number)."""
        read = len(self.status) - self.status.count(0)
        judged = self.status.count(_JUDGED)
        mark = bytearray(self.status)  # 0: not read and no reason yet; 3: a reason given
        # (a message is no dict key: each reason by its plain text, with its count)
        reasons: dict[str, tuple[Message, int]] = {}

        def count(reason: Message, n: int) -> None:
            had = reasons.get(plain(reason), (reason, 0))[1]
            reasons[plain(reason)] = (reason, had + n)

        for k0, k1, reason in self._ranges():
            piece = bytes(mark[k0:k1])
            n = piece.count(0)
            if n:
                count(reason, n)
                mark[k0:k1] = piece.replace(b"\x00", b"\x03")
        left = mark.count(0)
        if left:
            count(PROSE, left)
        tally = tuple(reasons[k] for k in sorted(reasons))
        return Coverage(len(self.offsets), read, judged, tally)

    def records(self, limit: int = MAX_RECORDS) -> tuple[NumberRecord, ...]:
        """The first ``limit`` numbers in order of the text, with their status (one sweep)."""
        n = min(limit, len(self.offsets))
        reasons: list[Message | None] = [None] * n
        for k0, k1, reason in self._ranges():
            for k in range(k0, min(k1, n)):
                if reasons[k] is None:
                    reasons[k] = reason
        out = []
        for k, (line, column) in enumerate(self.src.positions(self.offsets[:n])):
            status = STATUSES[self.status[k]]
            why = None if self.status[k] else (reasons[k] or PROSE)
            out.append(NumberRecord(line, column, self.text(k), status, why))
        return tuple(out)
