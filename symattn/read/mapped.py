"""Text derived from the source (cut out, joined, respelled) that still knows where each of its
characters came from.

A :class:`Mapped` text keeps runs ``(start in the derived text, start in the source, length
in the source)`` rather than a position per character: a run is added only where the
derived text stops following the source one to one (a join, a respelling such as
``\\times`` -> ``×``), so memory stays proportional to the number of changes, and a lookup
is a binary search.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["Mapped", "MappedBuilder"]


@dataclass(frozen=True)
class Mapped:
    """A derived text and where its characters are in the source."""

    text: str
    #: derived offset where each run starts
    starts: tuple[int, ...]
    #: source offset where each run starts
    origins: tuple[int, ...]
    #: length of each run in the source (a respelled run may be longer or shorter there)
    lengths: tuple[int, ...]

    @classmethod
    def of(cls, source: str, start: int, end: int) -> Mapped:
        """``source[start:end]`` as it is."""
        return cls(source[start:end], (0,), (start,), (end - start,))

    @classmethod
    def join(cls, source: str, spans: Iterable[tuple[int, int]], sep: str = "\n") -> Mapped:
        """The pieces ``source[a:b]`` joined by ``sep`` (which maps to the end of the piece
        before it)."""
        b = MappedBuilder()
        first = True
        for a, e in spans:
            if not first:
                b.add(sep, a, 0)
            b.add(source[a:e], a, e - a)
            first = False
        return b.build()

    def runs(self) -> Iterable[tuple[str, int, int]]:
        """(text, source start, source length) of each run, in order."""
        for k, start in enumerate(self.starts):
            stop = self.starts[k + 1] if k + 1 < len(self.starts) else len(self.text)
            yield self.text[start:stop], self.origins[k], self.lengths[k]

    def at(self, offset: int) -> int:
        """The source offset of the derived character at ``offset`` (clamped)."""
        if not self.starts:
            return 0
        offset = min(max(offset, 0), max(len(self.text) - 1, 0))
        k = bisect.bisect_right(self.starts, offset) - 1
        inside = offset - self.starts[k]
        length = self.lengths[k]
        return self.origins[k] + (min(inside, length - 1) if length > 0 else 0)

    def end_at(self, offset: int) -> int:
        """The source offset just after the derived character at ``offset - 1``."""
        if offset <= 0:
            return self.at(0)
        return self.at(offset - 1) + 1

    def slice(self, a: int, b: int) -> Mapped:
        """The derived text ``[a:b]`` with its mapping."""
        builder = MappedBuilder()
        for da, db, origin, length in self._runs(a, b):
            builder.add(self.text[da:db], origin, length)
        return builder.build()

    def _runs(self, a: int, b: int) -> Iterable[tuple[int, int, int, int]]:
        """(derived start, derived end, source start, source length) of the runs in [a, b)."""
        if a >= b or not self.starts:
            return
        k = bisect.bisect_right(self.starts, a) - 1
        while k < len(self.starts) and self.starts[k] < b:
            run_start = self.starts[k]
            run_end = self.starts[k + 1] if k + 1 < len(self.starts) else len(self.text)
            lo, hi = max(a, run_start), min(b, run_end)
            if lo < hi:
                origin, length = self.origins[k], self.lengths[k]
                if length == run_end - run_start:  # one to one: cut the run exactly
                    yield lo, hi, origin + lo - run_start, hi - lo
                else:
                    yield lo, hi, origin, length
            k += 1

    @classmethod
    def concat(cls, a: Mapped, b: Mapped, sep: str = " ") -> Mapped:
        """``a``, ``sep`` and ``b`` as one text (``sep`` maps to the end of ``a``)."""
        out = MappedBuilder()
        for run, origin, length in a.runs():
            out.add(run, origin, length)
        out.add(sep, a.end_at(max(len(a.text), 1)), 0)
        for run, origin, length in b.runs():
            out.add(run, origin, length)
        return out.build()

    def replace(self, replacements: Iterable[tuple[int, int, str]]) -> Mapped:
        """A respelled copy: each (start, end, new text), in order and not overlapping,
        replaces ``text[start:end]``; the new text maps to what it replaced."""
        builder = MappedBuilder()
        pos = 0
        for a, b, new in replacements:
            for da, db, origin, length in self._runs(pos, a):
                builder.add(self.text[da:db], origin, length)
            src_a = self.at(a)
            src_b = self.end_at(b) if b > a else src_a
            builder.add(new, src_a, max(src_b - src_a, 0))
            pos = b
        for da, db, origin, length in self._runs(pos, len(self.text)):
            builder.add(self.text[da:db], origin, length)
        return builder.build()


@dataclass
class MappedBuilder:
    """Builds a :class:`Mapped` text piece by piece, merging runs that continue each other."""

    parts: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    origins: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    size: int = 0

    def add(self, text: str, origin: int, length: int) -> None:
        """Append ``text``, which stands for ``length`` source characters from ``origin``."""
        if not text:
            return
        one_to_one = length == len(text)
        if (
            one_to_one
            and self.starts
            and self.lengths[-1] == self.size - self.starts[-1]
            and self.origins[-1] + self.lengths[-1] == origin
        ):
            self.lengths[-1] += length  # continues the previous one-to-one run
        else:
            self.starts.append(self.size)
            self.origins.append(origin)
            self.lengths.append(length)
        self.parts.append(text)
        self.size += len(text)

    def build(self) -> Mapped:
        """The text built so far."""
        return Mapped(
            "".join(self.parts), tuple(self.starts), tuple(self.origins), tuple(self.lengths)
        )
