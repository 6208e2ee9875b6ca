"""LaTeX documents cut into blocks with ``pylatexenc``'s ``LatexWalker``.

The walker gives every node its offset, so a block is a span of the source: display math
(``\\[…\\]``, ``$$…$$``, the math environments), tables (``tabular``), code (``verbatim``,
``lstlisting``, ``minted``), and prose paragraphs (runs between blank lines) with the spans
of their inline math. The preamble (before ``\\begin{document}``, when there is one) and
comments are not read. A document nested deeper than the walker can follow is read as plain
paragraphs instead (said in the report through the blocks' ``info``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from pylatexenc.latexwalker import (
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexWalker,
)

from symattn.read.kinds import BlockKind
from symattn.read.notations import CODE_ENVIRONMENTS, MATH_ENVIRONMENTS, TABLE_ENVIRONMENTS
from symattn.read.source import Source, outside

__all__ = ["SEGMENT", "LatexBlock", "latex_blocks", "math_nodes", "segments"]

#: (kind, start, end, inline math spans, table cells, info)
LatexBlock = tuple[
    BlockKind, int, int, tuple[tuple[int, int], ...], tuple[tuple[tuple[int, int], ...], ...], str
]

#: deepest brace or environment nesting handed to the walker (it recurses per level)
MAX_DEPTH: Final = 60

_BLANK_LINES: Final = re.compile(r"\n[ \t]*\n")
_DOCUMENT: Final = re.compile(r"\\begin\s*\{document\}")
_BEGIN: Final = re.compile(r"\\begin\s*\{[^{}]*\}(?:\s*\[[^\]\n]*\])?(?:\{[^{}\n]*\})?")


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether braces nest deeper than ``limit`` anywhere in ``text`` (one linear pass)."""
    depth = 0
    for m in re.finditer(r"\\[{}]|[{}]", text):
        s = m.group()
        if s == "{":
            depth += 1
            if depth > limit:
                return True
        elif s == "}":
            depth = max(0, depth - 1)
    return False


#: (kind, content start, content end, name, outer start, outer end)
Node = tuple[str, int, int, str, int, int]


def math_nodes(text: str, start: int = 0) -> list[Node]:
    """(kind, content start, content end, name, outer start, outer end) of the math, tables
    and code in ``text`` (offsets plus ``start``): ``inline``, ``display``, ``table``,
    ``code``, ``comment``."""
    walker = LatexWalker(text, tolerant_parsing=True)
    try:
        nodes, _, _ = walker.get_latex_nodes()
    except (RecursionError, ValueError, IndexError, TypeError):
        return []
    out: list[Node] = []
    stack = [(n, 0) for n in reversed(nodes or [])]
    while stack:
        node, depth = stack.pop()
        if node is None or depth > MAX_DEPTH:
            continue
        if isinstance(node, LatexMathNode):
            delims = node.delimiters or ("", "")
            a = node.pos + len(delims[0])
            b = node.pos + node.len - len(delims[1])
            outer = (start + node.pos, start + node.pos + node.len)
            out.append((node.displaytype, start + a, start + max(a, b), "", *outer))
            continue
        if isinstance(node, LatexEnvironmentNode):
            name = node.environmentname.rstrip("*")
            body = node.nodelist or []
            a = body[0].pos if body else node.pos + node.len
            b = body[-1].pos + body[-1].len if body else a
            outer = (start + node.pos, start + node.pos + node.len)
            if name in MATH_ENVIRONMENTS.words:
                out.append(("display", *outer, name, *outer))
                continue
            if name in TABLE_ENVIRONMENTS.words:
                out.append(("table", start + a, start + b, name, *outer))
                continue
            if name in CODE_ENVIRONMENTS.words:
                # (the walker keeps a verbatim body as the environment's argument, not as
                # nodes: the body is what stands between ``\begin{…}[…]{…}`` and ``\end``)
                whole = text[node.pos : node.pos + node.len]
                head = _BEGIN.match(whole)
                a = node.pos + (head.end() if head else 0)
                b = max(a, node.pos + whole.rfind("\\end"))
                out.append(("code", start + a, start + b, name, *outer))
                continue
        if isinstance(node, LatexCommentNode):
            outer = (start + node.pos, start + node.pos + node.len)
            out.append(("comment", *outer, "", *outer))
            continue
        children: list[object] = []
        if isinstance(node, LatexEnvironmentNode | LatexGroupNode):
            children = list(node.nodelist or [])
        elif isinstance(node, LatexMacroNode) and node.nodeargd is not None:
            children = [a for a in (node.nodeargd.argnlist or []) if a is not None]
        for child in reversed(children):
            stack.append((child, depth + 1))
    out.sort(key=lambda t: t[1])
    return out


def _cells(text: str, a: int, b: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Rows of cell spans of a ``tabular`` body: cells at ``&``, rows at ``\\\\``."""
    rows: list[tuple[tuple[int, int], ...]] = []
    for row in _split(text, a, b, "\\\\"):
        cells = tuple(_split(text, row[0], row[1], "&"))
        if any(text[x:y].strip() for x, y in cells):
            rows.append(cells)
    return tuple(rows)


def _split(text: str, a: int, b: int, sep: str) -> Iterator[tuple[int, int]]:
    start = a
    while True:
        k = text.find(sep, start, b)
        if k < 0:
            yield (start, b)
            return
        yield (start, k)
        start = k + len(sep)


#: a LaTeX body is walked in segments of about this many characters, cut at a blank line
#: outside every group, environment and display math (the walker costs a few microseconds
#: per character and more per character the longer its input: pieces keep it linear)
SEGMENT: Final = 20_000
#: a segment that finds no such blank line is cut anyway after this many characters (an
#: environment or a brace left open: the rest is read in pieces, as TeX would not)
SEGMENT_MAX: Final = 100_000
#: what opens or closes a group, an environment or display math, a comment, a blank line
_STRUCTURE: Final = re.compile(
    r"\\begin\s*\{([^{}\n]*)\}|\\end\s*\{[^{}\n]*\}|\\[\[\]]|\\.|\$\$|[{}]|%[^\n]*|\n[ \t]*\n",
    re.S,
)
#: a segment holding none of these has no math, table, code or comment: it is not walked
_SPECIAL: Final = re.compile(r"[\\$%]")


def segments(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """``[start, end)`` cut into segments of about :data:`SEGMENT` characters at blank lines
    outside every brace group, environment and display math (one linear pass); a segment
    that meets no such line by :data:`SEGMENT_MAX` characters is cut at the next blank line,
    else line end, else where it is."""
    a = pos = start
    depth = envs = 0
    display = False
    while end - a > SEGMENT:
        m = _STRUCTURE.search(text, pos, end)
        if m is None:
            break
        pos, tok = m.end(), m.group()
        if tok[0] == "\n":
            if m.start() - a >= (SEGMENT if depth == envs == 0 and not display else SEGMENT_MAX):
                yield a, m.start()
                a, depth, envs, display = m.start(), 0, 0, False
            continue
        if m.group(1) is not None:
            envs += 1
            if m.group(1).strip().rstrip("*") in CODE_ENVIRONMENTS.words:
                # (verbatim: nothing inside counts, up to its end if that is near)
                close = text.find("\\end{" + m.group(1) + "}", pos, end)
                if 0 <= close - pos <= SEGMENT_MAX:
                    pos = close
        elif tok.startswith("\\end"):
            envs = max(0, envs - 1)
        elif tok in ("\\[", "\\]", "$$"):
            display = tok == "\\[" or (tok == "$$" and not display)
        elif tok == "{":
            depth += 1
        elif tok == "}":
            depth = max(0, depth - 1)
        if pos - a > SEGMENT_MAX:
            cut = _forced_cut(text, pos, end)
            yield a, cut
            a, pos, depth, envs, display = cut, cut, 0, 0, False
    while end - a > SEGMENT_MAX:  # (one paragraph left, no group: cut at line ends)
        cut = _forced_cut(text, a + SEGMENT, end)
        yield a, cut
        a = cut
    if a < end:
        yield a, end


def _forced_cut(text: str, pos: int, end: int) -> int:
    """Where a segment without a safe cut ends: the next blank line, else line end, within
    :data:`SEGMENT` characters, else ``pos``."""
    m = _BLANK_LINES.search(text, pos, min(end, pos + SEGMENT))
    if m is not None:
        return m.start()
    line = text.find("\n", pos, min(end, pos + SEGMENT))
    return line if line >= 0 else pos


def latex_blocks(src: Source, end: int = -1) -> Iterator[LatexBlock]:
    """The blocks of a LaTeX document (up to ``end``) in order, segment by segment
    (:func:`segments`: a reader that stops early walks no further)."""
    text = src.text
    end = len(text) if end < 0 else min(end, len(text))
    begin = _DOCUMENT.search(text, 0, end)
    body_start = begin.end() if begin else 0
    for a, b in segments(text, body_start, end):
        yield from _segment_blocks(text, a, b)


def _segment_blocks(text: str, start: int, end: int) -> list[LatexBlock]:
    """The blocks of ``text[start:end]`` (a segment: its paragraphs end inside it)."""
    piece = text[start:end]
    walk = _SPECIAL.search(piece) is not None and not too_deep(piece)
    nodes = math_nodes(piece, start) if walk else []
    display = [n for n in nodes if n[0] in ("display", "table", "code", "comment")]
    inline = [n for n in nodes if n[0] == "inline"]
    # paragraphs: the text between blank lines, outside display math, tables and code
    cuts = [(n[4], n[5]) for n in display]
    k = 0
    j = 0
    pos = start
    pieces: list[tuple[int, int]] = []
    for m in [*_BLANK_LINES.finditer(text, start, end), None]:
        stop = m.start() if m is not None else end
        pieces.append((pos, stop))
        pos = m.end() if m is not None else end
    events: list[LatexBlock] = []
    for kind, a, b, name, _, _ in display:
        if kind == "comment":
            continue
        if kind == "table":
            events.append((BlockKind.TABLE, a, b, (), _cells(text, a, b), name))
        else:
            block = BlockKind.MATH if kind == "display" else BlockKind.CODE
            events.append((block, a, b, (), (), name))
    for a, b in pieces:
        # cut out the display parts inside the paragraph
        segs, k = outside(a, b, cuts, k)
        for x, y in segs:
            if not text[x:y].strip():
                continue
            while j < len(inline) and inline[j][2] <= x:
                j += 1
            spans = []
            jj = j
            while jj < len(inline) and inline[jj][1] < y:
                # (math left open runs past its paragraph: only its part inside is read)
                spans.append((max(x, inline[jj][1]), min(y, inline[jj][2])))
                jj += 1
            events.append((BlockKind.PROSE, x, y, tuple(spans), (), ""))
    events.sort(key=lambda e: e[1])
    return events
