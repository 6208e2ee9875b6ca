"""A document as audit reads it: the text with the characters that change nothing removed,
and the way back from any offset to the line and column the author sees.

Zero-width characters, the soft hyphen and NUL (:data:`~symattn.read.notations.INVISIBLE`)
change nothing a reader sees, but they split a number or a formula in two: they are removed
before anything is read, and every position reported is a position in the text as given
(one sorted list of removals, so the way back is a binary search: linear memory, no
per-character tables). ``\\r\\n`` and ``\\r`` end lines like ``\\n``.

Markdown held in a program's template string (a JS or TS lesson module) writes each backtick
``\\```: a text that escapes its code fences so (a line starting ``\\`\\`\\```) has the backslash
before every backtick removed the same way, and reads as the Markdown it holds.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from symattn.read.notations import INVISIBLE

__all__ = ["Source"]

_INVISIBLE_RUN: Final = re.compile("[" + "".join(sorted(INVISIBLE.chars)) + "]+")
_LINE_BREAK: Final = re.compile(r"\r\n|\r|\n")
#: a code fence written with escaped backticks, at the start of a line
_ESCAPED_FENCE: Final = re.compile(r"^[ \t]*\\`\\`\\`", re.MULTILINE)
#: what is removed from a text that escapes its fences: invisible runs, and each backslash
#: before a backtick
_INVISIBLE_OR_ESCAPE: Final = re.compile(_INVISIBLE_RUN.pattern + r"|\\(?=`)")


@dataclass(frozen=True)
class Source:
    """A document's text (``text``, invisible characters removed) and its positions."""

    text: str
    #: offsets in ``text`` at which lines of the original text start
    _line_starts: tuple[int, ...]
    #: offsets in ``text`` after which characters were removed, and how many in all so far
    _removed_at: tuple[int, ...]
    _removed_total: tuple[int, ...]
    #: the original offset of each line start (for columns of the text as given)
    _line_origins: tuple[int, ...]
    #: (original line, column) of the first invisible character removed, and how many
    first_removed: tuple[int, int] | None = None
    removed: int = 0

    @classmethod
    def of(cls, original: str) -> Source:
        """The source of ``original`` (linear in its length: two regular-expression passes)."""
        parts: list[str] = []
        removed_at: list[int] = []
        removed_total: list[int] = []
        total = 0
        first: int | None = None
        prev = 0
        removals = _INVISIBLE_OR_ESCAPE if _ESCAPED_FENCE.search(original) else _INVISIBLE_RUN
        for m in removals.finditer(original):
            parts.append(original[prev : m.start()])
            if first is None:
                first = m.start()
            total += m.end() - m.start()
            removed_at.append(m.start() - (total - (m.end() - m.start())))
            removed_total.append(total)
            prev = m.end()
        parts.append(original[prev:])
        text = "".join(parts) if removed_at else original
        starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
        origins = [s + _removed_before(removed_at, removed_total, s) for s in starts]
        src = cls(text, tuple(starts), tuple(removed_at), tuple(removed_total), tuple(origins))
        if first is not None:
            line = bisect.bisect_right(src._line_origins, first) - 1
            object.__setattr__(src, "first_removed", (line + 1, first - origins[line] + 1))
            object.__setattr__(src, "removed", total)
        return src

    def original(self, offset: int) -> int:
        """The offset in the text as given of the character at ``offset`` of :attr:`text`."""
        return offset + _removed_before(self._removed_at, self._removed_total, offset)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) in the text as given of the character at ``offset``."""
        offset = min(max(offset, 0), max(len(self.text), 0))
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line + 1, self.original(offset) - self._line_origins[line] + 1

    def positions(self, offsets: Iterable[int]) -> Iterator[tuple[int, int]]:
        """:meth:`position` of each of ``offsets``, given in increasing order (one sweep)."""
        starts, origins = self._line_starts, self._line_origins
        at, total = self._removed_at, self._removed_total
        line, k = 0, 0
        for offset in offsets:
            offset = min(max(offset, 0), len(self.text))
            while line + 1 < len(starts) and starts[line + 1] <= offset:
                line += 1
            while k < len(at) and at[k] <= offset:
                k += 1
            original = offset + (total[k - 1] if k else 0)
            yield line + 1, original - origins[line] + 1

    def line_of(self, offset: int) -> int:
        """1-based line of ``offset``."""
        return bisect.bisect_right(self._line_starts, offset)

    @property
    def lines(self) -> int:
        """How many lines the text has."""
        return len(self._line_starts)

    def line_start(self, line: int) -> int:
        """Offset in :attr:`text` where 1-based ``line`` starts."""
        return self._line_starts[min(max(line, 1), len(self._line_starts)) - 1]

    def line_end(self, line: int) -> int:
        """Offset in :attr:`text` where 1-based ``line`` ends (before its line break)."""
        if line >= len(self._line_starts):
            return len(self.text)
        end = self._line_starts[line]
        while end > self._line_starts[line - 1] and self.text[end - 1] in "\r\n":
            end -= 1
        return end

    def line_text(self, line: int) -> str:
        """The text of 1-based ``line`` (invisible characters removed)."""
        return self.text[self.line_start(line) : self.line_end(line)]


def outside(
    a: int, b: int, cuts: Sequence[tuple[int, int]], k: int = 0
) -> tuple[list[tuple[int, int]], int]:
    """The parts of ``[a, b)`` outside ``cuts`` (sorted spans), and the index of the first cut
    that ends after ``a``: pass it back for the next, later range, so a sweep over the text
    is linear."""
    while k < len(cuts) and cuts[k][1] <= a:
        k += 1
    parts: list[tuple[int, int]] = []
    cur = a
    i = k
    while i < len(cuts) and cuts[i][0] < b:
        if cuts[i][0] > cur:
            parts.append((cur, cuts[i][0]))
        cur = max(cur, cuts[i][1])
        i += 1
    if cur < b:
        parts.append((cur, b))
    return parts, k


def _removed_before(at: Sequence[int], total: Sequence[int], offset: int) -> int:
    """How many characters were removed before clean ``offset``."""
    k = bisect.bisect_right(at, offset)
    return total[k - 1] if k else 0
