"""Stage 1 of reading: a document cut into blocks by real parsers.

Markdown goes through ``markdown-it-py`` (CommonMark with tables, and ``mdit-py-plugins``
``dollarmath`` for ``$``/``$$``, and LaTeX's ``\\(``/``\\[`` delimiters, which notes written in
Markdown often use; an environment written outside ``$$`` is read as math from
the prose it is in, so a ``\begin{bmatrix}`` at the start of a line inside ``$$…$$`` does not
break the math in two), LaTeX through
``pylatexenc``'s ``LatexWalker``, plain text is cut into paragraphs at blank lines. Every
block is a span of :attr:`Source.text <symattn.read.source.Source.text>` (the author's
characters, nothing unescaped or re-indented), so every number found later has its exact
line and column.

A :class:`Block` is prose (a paragraph, a heading or a list item, with the spans of its
inline math and inline code), display math, a table (with the span of every cell), or a
code block (a fenced or indented block: code, or the output a notebook printed).
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

from symattn.read.kinds import WORDS, BlockKind
from symattn.read.latex import latex_blocks
from symattn.read.notations import LANGUAGE, MATH_FENCES
from symattn.read.source import Source

__all__ = ["CHUNK", "WORDS", "Block", "BlockKind", "Span", "blocks", "format_of", "iter_blocks"]

#: a LaTeX sectioning command at the start of a line: a new section begins
_SECTIONING: Final = re.compile(
    r"^[ \t]*\\(?:part|chapter|section|subsection|subsubsection|paragraph)\*?\s*[\[{]", re.M
)

#: (start, end) offsets in the source text
Span = tuple[int, int]

#: what a block is
KINDS: Final = tuple(BlockKind)


@dataclass(frozen=True)
class Block:
    """A block of a document: its kind, the span of its content, and what is inside it."""

    kind: BlockKind
    start: int
    end: int
    #: inline math inside prose (content only, without the delimiters)
    math: tuple[Span, ...] = ()
    #: inline code inside prose
    code: tuple[Span, ...] = ()
    #: a table's rows of cells, the header row first
    cells: tuple[tuple[Span, ...], ...] = ()
    #: the fence's info string (``python``), or the environment's name
    info: str = ""
    #: the number of the section (heading) the block is in, from 0
    section: int = 0

    @property
    def span(self) -> Span:
        """(start, end) of the block's content."""
        return (self.start, self.end)


def format_of(path: str, text: str) -> str:
    """``markdown``, ``latex`` or ``text``: by the file's ending, else by what the text holds."""
    lower = path.lower()
    if lower.endswith((".md", ".markdown")):
        return "markdown"
    if lower.endswith(".tex"):
        return "latex"
    if lower.endswith(".txt"):
        return "text"
    head = text[:4000]
    if "\\documentclass" in head or "\\begin{document}" in head:
        return "latex"
    if "```" in head or "\n#" in head or head.startswith("#") or "$$" in head:
        return "markdown"
    return "text"


def blocks(src: Source, fmt: str) -> tuple[Block, ...]:
    """The blocks of a document in order (``fmt`` from :func:`format_of`)."""
    return tuple(iter_blocks(src, fmt))


def iter_blocks(src: Source, fmt: str, end: int = -1) -> Iterator[Block]:
    """The blocks of a document in order, as they are parsed: a long Markdown or plain text
    is parsed in pieces of about :data:`CHUNK` characters cut at blank lines outside fences,
    LaTeX in segments (:func:`~symattn.read.latex.segments`), so that a reader may stop
    early and no parse sees more than one piece at a time. Only ``src.text[:end]`` is
    parsed when ``end`` is given (a block left open there ends there)."""
    end = len(src.text) if end < 0 else min(end, len(src.text))
    if fmt == "latex":
        found: Iterable[Block] = (
            piece
            for k, a, b, m, c, i in latex_blocks(src, end)
            for piece in _headings(src.text, Block(k, a, b, math=m, cells=c, info=i))
        )
    elif fmt == "text" and _is_python(src.text[:end]):
        found = (Block(BlockKind.CODE, 0, end, info="python"),)
    else:
        md = _MD if fmt == "markdown" else _PLAIN
        blocks_only = _MD_BLOCKS if fmt == "markdown" else _PLAIN_BLOCKS
        found = (b for a, e in _chunks(src, end) for b in _markdown(src, md, a, e, blocks_only))
    section = 0
    for b in found:
        if b.kind is BlockKind.HEADING:
            section += 1
        yield Block(b.kind, b.start, b.end, b.math, b.code, b.cells, b.info, section)


def _is_python(text: str) -> bool:
    """Whether a plain text is a Python program (a script saved as ``.txt``): the whole
    text parses as Python, in more than one statement, not all of them bare expressions,
    and it imports, defines or calls something, so it is read as one code block. Prose and
    printouts never parse whole; formulas that happen to (``结果=[0.5, 0.5]``) call
    nothing. Nothing is run."""
    if len(text) > CHUNK or not text.strip():
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if len(tree.body) < 2 or all(isinstance(s, ast.Expr) for s in tree.body):
        return False
    return any(isinstance(n, _PROGRAM_NODES) for n in ast.walk(tree))


#: what only a program writes: an import, a definition, a call
_PROGRAM_NODES: Final = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Call)


#: texts longer than this are parsed in pieces of about this size
CHUNK: Final = 200_000
#: a line that opens or closes a fence or a display-math block (a piece never ends inside one)
_FENCE_LINE: Final = re.compile(r"^ {0,3}(?:`{3,}|~{3,}|\$\$)", re.M)


def _chunks(src: Source, end: int) -> Iterator[Span]:
    """Pieces of ``src.text[:end]``, cut at a blank line (else a line end) after every
    :data:`CHUNK` characters, where as many fence lines are before the cut as open them."""
    text = src.text
    if end <= CHUNK:
        yield 0, end
        return
    fences = [m.start() for m in _FENCE_LINE.finditer(text, 0, end)]
    start = 0
    while start < end:
        target = start + CHUNK
        if target >= end:
            yield start, end
            return
        cut = -1
        blank = text.find("\n\n", target, min(end, target + CHUNK // 4))
        if blank >= 0 and bisect.bisect_left(fences, blank) % 2 == 0:
            cut = blank + 1
        else:  # the first line end after the target outside every fence
            at = text.find("\n", target, end)
            while 0 <= at < target + CHUNK // 4:
                if bisect.bisect_left(fences, at) % 2 == 0:
                    cut = at + 1
                    break
                k = bisect.bisect_left(fences, at)
                at = text.find("\n", fences[k], end) if k < len(fences) else -1
        if cut < 0:
            yield start, end  # inside a fence to the end: one last piece
            return
        yield start, cut
        start = cut


def _headings(text: str, b: Block) -> Iterator[Block]:
    """A LaTeX paragraph cut where a sectioning command starts a line (``\\subsection*{…}``):
    each piece from one on is a heading block (a section of its own)."""
    cuts = (
        [m.start() for m in _SECTIONING.finditer(text, b.start, b.end)]
        if b.kind is BlockKind.PROSE
        else []
    )
    if not cuts:
        yield b
        return
    edges = [b.start, *[c for c in cuts if c > b.start], b.end]
    for k, (x, y) in enumerate(zip(edges, edges[1:], strict=False)):
        if y <= x:
            continue
        kind = BlockKind.HEADING if k > 0 or x in cuts else BlockKind.PROSE
        math = tuple((p, q) for p, q in b.math if x <= p and q <= y)
        yield Block(kind, x, y, math=math, info=b.info)


# --------------------------------------------------------------------------- Markdown


def _bracket_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``\\[ … \\]`` display math, also right after a line of prose (as notes write it); like
    ``$$`` it ends at the first line ending in ``\\]`` and never spans a blank line."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    at, end = state.bMarks[start_line] + state.tShift[start_line], state.eMarks[start_line]
    if not state.src.startswith("\\[", at, end):
        return False
    line, text = start_line, state.src[at + 2 : end]
    while not text.rstrip().endswith("\\]"):
        line += 1
        if line >= end_line:
            return False
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        if not text.strip():
            return False
    if not silent:
        state.line = line + 1
        token = state.push("math_block", "math", 0)
        token.block, token.markup, token.map = True, "\\[", [start_line, state.line]
    return True


def _paren_inline(state: StateInline, silent: bool) -> bool:
    """``\\( … \\)`` inline math. Where no ``\\)`` follows, none is looked for again in the
    rest of the paragraph (a paragraph of ``\\(`` stays linear)."""
    pos = state.pos
    if not state.src.startswith("\\(", pos) or pos >= state.env.get("no-paren-after", 1 << 62):
        return False
    close = state.src.find("\\)", pos + 2, state.posMax)
    if close < 0:
        state.env["no-paren-after"] = pos
        return False
    if not silent:
        token = state.push("math_inline", "math", 0)
        token.markup, token.content = "\\(", state.src[pos + 2 : close]
    state.pos = close + 2
    return True


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    dollarmath_plugin(md, allow_space=True, allow_digits=True, double_inline=True)
    md.block.ruler.before(
        "fence",
        "bracket_math",
        _bracket_block,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.inline.ruler.before("escape", "paren_math", _paren_inline)
    return md


_MD: Final = _parser()
#: plain text: the same parser without indented code blocks (an indented line is prose)
_PLAIN: Final = _parser().disable("code")
#: the block structure only (each paragraph's inline content is parsed on its own)
_MD_BLOCKS: Final = _parser().disable("inline")
_PLAIN_BLOCKS: Final = _parser().disable("code").disable("inline")
#: a paragraph longer than this is read as plain lines (its inline math and code are not
#: told apart: the inline parser costs a few microseconds per character, and a hostile
#: paragraph of escapes would take minutes)
INLINE_MAX: Final = 50_000


def _lines_span(src: Source, first: int, last: int) -> Span:
    """The span of 0-based lines ``first`` up to ``last`` (excluded)."""
    start = src.line_start(first + 1)
    end = src.line_end(max(last, first + 1))
    return start, max(start, end)


def _between(src: Source, span: Span, opening: str, closing: str) -> Span:
    """The part of ``span`` between its first ``opening`` and its last ``closing``."""
    a, b = span
    text = src.text
    i = text.find(opening, a, b)
    if i < 0:
        return span
    j = text.rfind(closing, i + len(opening), b)
    return (i + len(opening), j if j >= 0 else b)


#: what a line of a list item or a block quote starts with in the source but not in the
#: inline content the parser gives (indentation, ``>`` markers)
_LINE_PREFIX: Final = re.compile(r"\n[ \t>]*")


def _unprefixed(text: str) -> str:
    """``text`` without its lines' container prefixes and outer blanks: inline math that
    spans lines of a list item or a quote is compared with its source that way."""
    return _LINE_PREFIX.sub("\n", text).strip()


def _inline_spans(src: Source, span: Span, children: list[Token]) -> tuple[tuple[Span, ...], ...]:
    """Where the inline math and inline code of a paragraph are in its source span."""
    text = src.text
    cursor, end = span
    math: list[Span] = []
    code: list[Span] = []
    for c in children:
        if c.type in ("math_inline", "math_inline_double"):
            delim = "$$" if c.type == "math_inline_double" else c.markup or "$"
            shut = "\\)" if delim == "\\(" else delim
            at = text.find(delim + c.content + shut, cursor, end)
            if at >= 0:
                math.append((at + len(delim), at + len(delim) + len(c.content)))
                cursor = at + len(delim) + len(shut) + len(c.content)
                continue
            # the parser trims the content: find the delimiters around it instead
            at = text.find(delim, cursor, end)
            close = text.find(shut, at + len(delim), end) if at >= 0 else -1
            inner = text[at + len(delim) : close] if close >= 0 else ""
            if at >= 0 and close >= 0 and _unprefixed(inner) == _unprefixed(c.content):
                math.append((at + len(delim), close))
                cursor = close + len(shut)
        elif c.type == "code_inline" and c.content:
            marks = c.markup or "`"
            at = text.find(c.content, cursor, end)
            if at >= 0 and text.startswith(marks, max(at - len(marks), 0)):
                code.append((at, at + len(c.content)))
                cursor = at + len(c.content)
    return tuple(math), tuple(code)


def _table(src: Source, tokens: list[Token], i: int) -> tuple[Block, int]:
    """The table starting at ``tokens[i]`` and the index after it."""
    rows: list[tuple[Span, ...]] = []
    first, last = tokens[i].map or (0, 0)
    j = i + 1
    while j < len(tokens) and tokens[j].type != "table_close":
        t = tokens[j]
        if t.type == "tr_open" and t.map is not None:
            line = t.map[0] + 1
            start, end = src.line_start(line), src.line_end(line)
            rows.append(_cells(src.text, start, end))
        j += 1
    span = _lines_span(src, first, last)
    return Block(BlockKind.TABLE, span[0], span[1], cells=tuple(rows)), j + 1


def _cells(text: str, start: int, end: int) -> tuple[Span, ...]:
    """The cells of one table row: between unescaped pipes outside inline code."""
    out: list[Span] = []
    a = start
    while a < end and text[a] in " \t":
        a += 1
    if a < end and text[a] == "|":
        a += 1
    cell = a
    k = a
    tick = False
    while k < end:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch == "`":
            tick = not tick
        elif ch == "|" and not tick:
            out.append((cell, k))
            cell = k + 1
        k += 1
    if text[cell:end].strip():
        out.append((cell, end))
    return tuple(out)


def _markdown(
    src: Source,
    md: MarkdownIt,
    start: int = 0,
    end: int = -1,
    blocks_only: MarkdownIt | None = None,
) -> Iterator[Block]:
    """The blocks of ``src.text[start:end]`` (a piece that starts at a line start); with
    ``blocks_only`` (``md`` without its inline rule) each paragraph's inline content is
    parsed on its own, up to :data:`INLINE_MAX` characters."""
    end = len(src.text) if end < 0 else end
    tokens = (blocks_only or md).parse(src.text[start:end])
    if blocks_only is not None:
        for t in tokens:
            if t.type == "inline" and len(t.content) <= INLINE_MAX:
                parsed = md.parseInline(t.content)
                t.children = parsed[0].children if parsed else []
    base = src.line_of(start) - 1
    if base:
        for t in tokens:
            if t.map is not None:
                t.map = [t.map[0] + base, t.map[1] + base]
    i = 0
    while i < len(tokens):
        t = tokens[i]
        m = t.map
        if t.type == "table_open":
            block, i = _table(src, tokens, i)
            yield block
            continue
        if m is not None:
            span = _lines_span(src, m[0], m[1])
            if t.type in ("heading_open", "paragraph_open"):
                inline = tokens[i + 1] if i + 1 < len(tokens) else None
                children = inline.children or [] if inline is not None else []
                math, code = _inline_spans(src, span, children)
                kind = BlockKind.HEADING if t.type == "heading_open" else BlockKind.PROSE
                yield Block(kind, span[0], span[1], math=math, code=code)
            elif t.type in ("math_block", "math_block_label"):
                a, b = _between(src, span, *(("\\[", "\\]") if t.markup == "\\[" else ("$$", "$$")))
                yield Block(BlockKind.MATH, a, b)
            elif t.type == "amsmath":
                yield Block(BlockKind.MATH, span[0], span[1], info="amsmath")
            elif t.type == "fence" and _math_fence(src, t):
                fence = _fence(src, t, m)
                yield Block(BlockKind.MATH, fence.start, fence.end, info=fence.info)
            elif t.type == "fence":
                yield _fence(src, t, m)
            elif t.type == "code_block" and _is_markup(t.content):
                yield from _html(src.text, *span)
            elif t.type == "code_block":
                yield Block(BlockKind.CODE, span[0], span[1], info="indented")
            elif t.type == "html_block":
                yield from _html(src.text, *span)
        i += 1


#: a tag, a comment, or an element whose content is no text (script, style); one left open
#: runs to the end of the block (so a scan is linear)
_TAG: Final = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style)\b[^>]*>.*?(?:</\1\s*>|\Z)|</?[A-Za-z][^<>]*>",
    re.DOTALL | re.I,
)
_ROW: Final = re.compile(r"<tr\b[^>]*>(.*?)(?=<tr\b|</table|\Z)", re.DOTALL | re.I)
_CELL: Final = re.compile(r"<t[dh]\b[^>]*>(.*?)(?=</t[dh]|<t[dh]\b|</tr|\Z)", re.DOTALL | re.I)
_TABLE: Final = re.compile(r"<table\b.*?(?:</table\s*>|\Z)", re.DOTALL | re.I)


#: an indented block that opens with an element and closes one: HTML (a page's source pasted
#: indented, as saved pages and exported notes are), not a code listing
_MARKUP: Final = re.compile(r"\A\s*<(?:[A-Za-z][\w-]*|!--)[^<>]*>.*</[A-Za-z][\w-]*\s*>", re.DOTALL)


def _is_markup(content: str) -> bool:
    """Whether an indented block's content is HTML markup (see :data:`_MARKUP`)."""
    return _MARKUP.match(content) is not None


def _html(text: str, start: int, end: int) -> Iterator[Block]:
    """An HTML block: each ``<table>`` a table of its ``<td>``/``<th>`` cells, every other run
    of text between tags (``<br>`` included) a prose block, each at its place in the text."""
    pos = start
    for t in _TABLE.finditer(text, start, end):
        yield from _html_text(text, pos, t.start())
        rows = tuple(
            tuple(c.span(1) for c in _CELL.finditer(text, *r.span(1)))
            for r in _ROW.finditer(text, *t.span())
        )
        if any(rows):
            yield Block(BlockKind.TABLE, t.start(), t.end(), cells=tuple(r for r in rows if r))
        pos = t.end()
    yield from _html_text(text, pos, end)


def _html_text(text: str, start: int, end: int) -> Iterator[Block]:
    pos = start
    for m in (*_TAG.finditer(text, start, end), None):
        a, b = pos, m.start() if m is not None else end
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            yield Block(BlockKind.PROSE, a, b)
        if m is not None:
            pos = m.end()


def _math_fence(src: Source, t: Token) -> bool:
    """Whether a fence holds a formula (``` ```math ```, ``` ```latex ``` without a document):
    its content is display math."""
    if t.info.strip().lower() not in MATH_FENCES.words:
        return False
    return "\\documentclass" not in t.content and "\\begin{document}" not in t.content


def _fence(src: Source, t: Token, m: list[int]) -> Block:
    """A fenced block: the lines between its fences; an info string that is not a language
    name (```` ```input = [ ````) is the first line of the content."""
    text = src.text
    first, last = m[0] + 1, m[1]  # 1-based lines of the opening fence and the last line
    open_at = text.find(t.markup, src.line_start(first), src.line_end(first))
    info = t.info.strip()
    if info and not LANGUAGE.regex.fullmatch(info) and open_at >= 0:
        a = open_at + len(t.markup)
    else:
        a = src.line_start(first + 1) if last > first else src.line_end(first)
    b = src.line_end(last)
    closing = text[src.line_start(last) : b].strip()
    if last > first and closing and set(closing) == set(t.markup[:1]):
        b = src.line_end(last - 1) if last - 1 > first else a
    return Block(BlockKind.CODE, a, max(a, b), info=info)


# --------------------------------------------------------------------------- plain text


def _plain(src: Source) -> Iterator[Block]:
    """Paragraphs: runs of lines between blank lines."""
    start: int | None = None
    for line in range(1, src.lines + 1):
        a, b = src.line_start(line), src.line_end(line)
        blank = not src.text[a:b].strip()
        if blank and start is not None:
            yield Block(BlockKind.PROSE, start, src.line_end(line - 1))
            start = None
        elif not blank and start is None:
            start = a
    if start is not None:
        yield Block(BlockKind.PROSE, start, len(src.text.rstrip()) if src.text.strip() else start)
