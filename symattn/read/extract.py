"""Find the math in a document and split it into chains of claims.

Math is found in ``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``, LaTeX environments, and in
plain lines such as ``score(它，动物)=[0.47, -0.15] * [[0.22]，[-0.175]]=0.12965``. Each
piece of math is a :class:`Segment` (its characters keep their line and column); a segment
with ``=`` or ``≈`` (``\\approx``, ``约等于``) is cut into a :class:`ChainText` of links. Nothing
here evaluates anything: :mod:`symattn.audit` gives the links meaning.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.read.expr import normalize

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


_DISPLAY_RE: Final = re.compile(
    r"\$\$(?P<d>.*?)\$\$|\\\[(?P<b>.*?)\\\]|\\begin\{(?P<env>(?:equation|align|aligned|alignat|gather|gathered|multline|flalign|eqnarray|displaymath|math|split)\*?)\}(?P<e>.*?)\\end\{(?P=env)\}",
    re.S,
)
_INLINE_RE: Final = re.compile(r"(?<![\\$])\$(?P<i>[^$\n]+?)\$(?!\$)|\\\((?P<p>.*?)\\\)")
_ENV_CMD_RE: Final = re.compile(
    r"\\(?:begin|end)\{[A-Za-z*]+\}(?:\{[^{}]*\})?|\\(?:label|tag|nonumber|notag)(?:\{[^{}]*\})?"
)
_RELATION_RE: Final = re.compile(r"=|≈|\\approx|约等于|\\simeq|≒|≃")
_DIGIT_RE: Final = re.compile(r"[0-9０-９]")
_CODE_RE: Final = re.compile(
    r"[A-Za-z_]\.[A-Za-z_]|^\s*(?:def|return|import|from|class|print)\b|#|==|!=|\+=|;\s*$"
)
_LIST_MARKER_RE: Final = re.compile(r"^\s*(?:[•·*+\-–]\s+|\d{1,3}[.)、]\s*|[（(]\d{1,3}[)）]\s*)")
_PROSE_WORD_RE: Final = re.compile(r"([^\s$:：，,。；;]+)\s*$")


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
    for m in re.finditer(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$", text, re.S | re.M):
        spans.append((m.start(), m.end()))
    return spans


def segments(
    text: str, *, limits: Limits = DEFAULT_LIMITS
) -> tuple[list[tuple[Segment, str]], list[Skipped]]:
    """The math segments of ``text`` in document order, each with the prose word before it."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    skipped: list[Skipped] = []
    found: list[tuple[int, Segment, str]] = []
    blocked = _fenced_spans(text)

    def in_blocked(off: int) -> bool:
        return any(a <= off < b for a, b in blocked)

    # display math: rows split on \\ (aligned environments)
    for m in _DISPLAY_RE.finditer(text):
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
        body = _ENV_CMD_RE.sub(lambda x: " " * len(x.group()), body)
        row_start = 0
        for row in re.split(r"(\\\\)", body):
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
        inline = list(_INLINE_RE.finditer(line))
        if inline:
            prev_end = 0
            prev: Segment | None = None
            for m in inline:
                g = "i" if m.group("i") is not None else "p"
                body, off = m.group(g), m.start(g)
                seg = Segment(body, _positions(body, ls + off, line_starts), "inline")
                between = line[prev_end : m.start()]
                if (
                    _RELATION_RE.match(body.lstrip())
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
                    word = _PROSE_WORD_RE.search(_LIST_MARKER_RE.sub("", between))
                    found.append((ls + off, seg, word.group(1) if word else ""))
                    prev = seg
                prev_end = m.end()
            continue
        if (
            "$" in line
            or not _RELATION_RE.search(line)
            or not _DIGIT_RE.search(line)
            or _CODE_RE.search(line)
        ):
            continue
        marker = _LIST_MARKER_RE.match(line)
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
    for a, b, rel in _split_depth0(norm[lo:hi], "=≈"):
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
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out: list[ChainText] = []
    for seg, before in segs:
        norm, where = normalize(seg.text)
        if "=" not in norm and "≈" not in norm:
            continue
        pieces = _split_depth0(norm, ",")
        if len(pieces) > 1 and all(any(c in norm[a:b] for c in "=≈") for a, b, _ in pieces):
            spans = [(a, b) for a, b, _ in pieces]
        else:
            spans = [(0, len(norm))]
        for a, b in spans:
            chain = _chain_of(norm, where, seg, a, b, before)
            if chain is not None:
                out.append(_with_expression_line(chain, text, line_starts))
    return out, skipped


#: a line that only names the result of the expression on the line before (``乘积结果=[0.44, -0.35]``)
_RESULT_LABEL_RE: Final = re.compile(
    r"^\s*(?:乘积|计算|相乘|点积)?结果\s*$|^\s*(?:the\s+)?(?:product\s+|final\s+)?result\s*$", re.I
)
_EXPR_LINE_RE: Final = re.compile(r"^[\s\[\]()0-9.,+\-*×·÷/^]+$")


def _with_expression_line(chain: ChainText, text: str, line_starts: list[int]) -> ChainText:
    """``乘积结果=[…]`` right after a line holding only an expression: a claim about that expression."""
    if len(chain.links) != 2 or not _RESULT_LABEL_RE.match(chain.links[0].text):
        return chain
    li = chain.line - 2  # 0-based index of the line before
    while li >= 0 and li >= chain.line - 4:
        end = line_starts[li + 1] - 1 if li + 1 < len(line_starts) else len(text)
        raw = text[line_starts[li] : end]
        if raw.strip():
            norm, where = normalize(raw)
            body = norm.strip()
            if not (
                _EXPR_LINE_RE.match(body)
                and _DIGIT_RE.search(body)
                and any(op in body for op in "*×·÷/")
            ):
                return chain
            lead = len(norm) - len(norm.lstrip())
            pos = tuple((li + 1, where[lead + k] + 1) for k in range(len(body)))
            return ChainText((Link(body, "", pos), chain.links[1]), chain.kind, "")
        li -= 1
    return chain


def iter_numbers(text: str) -> Iterator[re.Match[str]]:
    """Number literals in normalized text (used to decide whether math is numeric at all)."""
    return re.finditer(r"[0-9]+(?:\.[0-9]+)?", text)
