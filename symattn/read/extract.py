"""Find the math in a document and split it into chains of claims.

Math is found in ``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``, LaTeX environments, and in
plain lines such as ``score(它，动物)=[0.47, -0.15] * [[0.22]，[-0.175]]=0.12965``. Each
piece of math is a :class:`Segment` (its characters keep their line and column); a segment
with ``=`` or ``≈`` (``\\approx``, ``约等于``) is cut into a :class:`ChainText` of links. Nothing
here evaluates anything: :mod:`symattn.read.level1` gives the links meaning.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.read.notations import (
    CODE_LINE,
    DIGIT,
    DISPLAY_MATH,
    ENV_COMMAND,
    EXPRESSION_LINE,
    FENCED_CODE,
    INLINE_MATH,
    LATEX_ROW_BREAK,
    LIST_MARKER,
    MULTIPLY_OP,
    PROSE_WORD,
    RELATION,
    RESULT_LABEL,
)
from symattn.read.tokens import RELATIONS, normalize

__all__ = ["ChainText", "Link", "Segment", "Skipped", "chains", "segments"]

Pos = tuple[int, int]  # (line, column), both 1-based


@dataclass(frozen=True)
class Segment:
    """A piece of math as written, with the (line, column) of each character."""

    text: str
    pos: tuple[Pos, ...]
    kind: str  # display | inline | plain

    @property
    def line(self) -> int:
        """Line of the first character."""
        return self.pos[0][0] if self.pos else 0

    @property
    def column(self) -> int:
        """Column of the first character."""
        return self.pos[0][1] if self.pos else 0


@dataclass(frozen=True)
class Link:
    """One side of a relation: normalized text, the relation before it ('' for the first)."""

    text: str
    relation: str
    pos: tuple[Pos, ...]  # position of each character of ``text``

    def at(self, offset: int) -> Pos:
        """(line, column) of the character at ``offset`` (clamped)."""
        if not self.pos:
            return (0, 0)
        return self.pos[min(max(offset, 0), len(self.pos) - 1)]


@dataclass(frozen=True)
class ChainText:
    """``a = b ≈ c``: the links of one chain and the prose word right before it."""

    links: tuple[Link, ...]
    kind: str
    before: str  # the word before the math (``总和`` in ``总和 $= 12.18 + 2.71$``)

    @property
    def line(self) -> int:
        """Line of the chain's start."""
        return self.links[0].at(0)[0]

    @property
    def column(self) -> int:
        """Column of the chain's start."""
        return self.links[0].at(0)[1]

    @property
    def text(self) -> str:
        """The chain, normalized, as one string."""
        return "".join(
            f" {ln.relation} {ln.text}" if ln.relation else ln.text for ln in self.links
        ).strip()


@dataclass(frozen=True)
class Skipped:
    """A line not read (too long, or similar), with the reason."""

    line: int
    text: str
    reason: str


def _line_starts(text: str) -> list[int]:
    """The offset at which each line of ``text`` starts."""
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _positions(text: str, start: int, line_starts: list[int]) -> tuple[Pos, ...]:
    """(line, column) of each character of ``text`` found at offset ``start`` of the document."""
    out: list[Pos] = []
    li = bisect.bisect_right(line_starts, start) - 1
    for k in range(len(text)):
        off = start + k
        while li + 1 < len(line_starts) and line_starts[li + 1] <= off:
            li += 1
        out.append((li + 1, off - line_starts[li] + 1))
    return tuple(out)


def _fenced_spans(text: str) -> list[tuple[int, int]]:
    """Offsets of fenced code blocks (```), which hold code, not math."""
    spans = []
    for m in FENCED_CODE.regex.finditer(text):
        spans.append((m.start(), m.end()))
    return spans


def segments(
    text: str, *, limits: Limits = DEFAULT_LIMITS
) -> tuple[list[tuple[Segment, str]], list[Skipped]]:
    """The math segments of ``text`` in document order, each with the prose word before it."""
    line_starts = _line_starts(text)
    skipped: list[Skipped] = []
    found: list[tuple[int, Segment, str]] = []
    blocked = _fenced_spans(text)

    def in_blocked(off: int) -> bool:
        return any(a <= off < b for a, b in blocked)

    # display math: rows split on \\ (aligned environments)
    for m in DISPLAY_MATH.regex.finditer(text):
        if in_blocked(m.start()):
            continue
        group = next(g for g in ("d", "b", "e") if m.group(g) is not None)
        start = m.start(group)
        body = m.group(group)
        if len(body) > limits.max_line_length:
            skipped.append(
                Skipped(
                    _positions("x", start, line_starts)[0][0],
                    body[:80],
                    f"math block longer than max_line_length={limits.max_line_length}",
                )
            )
            blocked.append((m.start(), m.end()))
            continue
        body = ENV_COMMAND.regex.sub(lambda x: " " * len(x.group()), body)
        row_start = 0
        for row in LATEX_ROW_BREAK.regex.split(body):
            if row != "\\\\" and row.strip():
                lead = len(row) - len(row.lstrip())
                content = row.strip().replace("\n", " ")
                pos = _positions(row.strip(), start + row_start + lead, line_starts)
                found.append((start + row_start, Segment(content, pos, "display"), ""))
            row_start += len(row)
        blocked.append((m.start(), m.end()))

    # per line: inline math, or the whole line as plain math
    for li, ls in enumerate(line_starts):
        end = line_starts[li + 1] - 1 if li + 1 < len(line_starts) else len(text)
        line = text[ls:end]
        if in_blocked(ls) or not line.strip():
            continue
        if any(a <= ls + k < b for a, b in blocked for k in (0, max(0, len(line) - 1))):
            # a line touching a display block: only its part outside the block counts
            line = "".join(ch if not in_blocked(ls + k) else " " for k, ch in enumerate(line))
        if len(line) > limits.max_line_length:
            skipped.append(
                Skipped(
                    li + 1, line[:80], f"line longer than max_line_length={limits.max_line_length}"
                )
            )
            continue
        inline = list(INLINE_MATH.regex.finditer(line))
        if inline:
            prev_end = 0
            prev: Segment | None = None
            for m in inline:
                g = "i" if m.group("i") is not None else "p"
                body, off = m.group(g), m.start(g)
                seg = Segment(body, _positions(body, ls + off, line_starts), "inline")
                between = line[prev_end : m.start()]
                if (
                    RELATION.regex.match(body.lstrip())
                    and prev is not None
                    and not between.strip(" (（)）:：").count(" ") > 3
                ):
                    # `$k_1$ (Thinking) $= [1, 2]$`: the second piece continues the first
                    merged = Segment(
                        prev.text + " " + body, prev.pos + ((seg.pos[0],)) + seg.pos, "inline"
                    )
                    found[-1] = (found[-1][0], merged, found[-1][2])
                    prev = merged
                else:
                    word = PROSE_WORD.regex.search(LIST_MARKER.regex.sub("", between))
                    found.append((ls + off, seg, word.group(1) if word else ""))
                    prev = seg
                prev_end = m.end()
            continue
        if (
            "$" in line
            or not RELATION.regex.search(line)
            or not DIGIT.regex.search(line)
            or CODE_LINE.regex.search(line)
        ):
            continue
        marker = LIST_MARKER.regex.match(line)
        off = marker.end() if marker else 0
        body = line[off:].rstrip()
        found.append(
            (ls + off, Segment(body, _positions(body, ls + off, line_starts), "plain"), "")
        )
    found.sort(key=lambda t: t[0])
    return [(s, w) for _, s, w in found], skipped


def _split_depth0(text: str, chars: str) -> list[tuple[int, int, str]]:
    """Pieces of ``text`` between ``chars`` outside brackets: (start, end, separator before)."""
    pieces: list[tuple[int, int, str]] = []
    depth, start, sep = 0, 0, ""
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and ch in chars:
            pieces.append((start, i, sep))
            start, sep = i + 1, ch
    pieces.append((start, len(text), sep))
    return pieces


def _chain_of(
    norm: str, where: tuple[int, ...], seg: Segment, lo: int, hi: int, before: str
) -> ChainText | None:
    links = []
    for a, b, rel in _split_depth0(norm[lo:hi], RELATIONS):
        a, b = a + lo, b + lo
        while a < b and norm[a].isspace():
            a += 1
        while b > a and norm[b - 1].isspace():
            b -= 1
        pos = (
            tuple(seg.pos[min(where[k], len(seg.pos) - 1)] for k in range(a, b)) if seg.pos else ()
        )
        links.append(Link(norm[a:b], rel, pos or (seg.pos[0],)))
    if len(links) < 2:
        return None
    return ChainText(tuple(links), seg.kind, before)


def chains(text: str, *, limits: Limits = DEFAULT_LIMITS) -> tuple[list[ChainText], list[Skipped]]:
    """Every relation chain in ``text`` (``v_1=[1,2], v_2=[3,4]`` gives two)."""
    segs, skipped = segments(text, limits=limits)
    line_starts = _line_starts(text)
    out: list[ChainText] = []
    for seg, before in segs:
        norm, where = normalize(seg.text)
        if not any(r in norm for r in RELATIONS):
            continue
        pieces = _split_depth0(norm, ",")
        if len(pieces) > 1 and all(any(c in norm[a:b] for c in RELATIONS) for a, b, _ in pieces):
            spans = [(a, b) for a, b, _ in pieces]
        else:
            spans = [(0, len(norm))]
        for a, b in spans:
            chain = _chain_of(norm, where, seg, a, b, before)
            if chain is not None:
                out.append(_with_expression_line(chain, text, line_starts))
    return out, skipped


def _with_expression_line(chain: ChainText, text: str, line_starts: list[int]) -> ChainText:
    """``乘积结果=[…]`` right after a line holding only an expression: a claim about that
    expression."""
    if len(chain.links) != 2 or not RESULT_LABEL.regex.match(chain.links[0].text):
        return chain
    li = chain.line - 2  # 0-based index of the line before
    while li >= 0 and li >= chain.line - 4:
        end = line_starts[li + 1] - 1 if li + 1 < len(line_starts) else len(text)
        raw = text[line_starts[li] : end]
        if raw.strip():
            norm, where = normalize(raw)
            body = norm.strip()
            if not (
                EXPRESSION_LINE.regex.match(body)
                and DIGIT.regex.search(body)
                and any(op in body for op in MULTIPLY_OP)
            ):
                return chain
            lead = len(norm) - len(norm.lstrip())
            pos = tuple((li + 1, where[lead + k] + 1) for k in range(len(body)))
            return ChainText((Link(body, "", pos), chain.links[1]), chain.kind, "")
        li -= 1
    return chain
