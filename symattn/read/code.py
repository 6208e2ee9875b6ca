"""Code blocks read, never run: Python statements parsed with :mod:`ast`, one at a time.

A code block is cut into statements (lines joined while brackets or a triple-quoted string
are open, a compound statement with its indented body); each is parsed with ``ast.parse``,
which builds a syntax tree and executes nothing. A piece that is not Python (a printed
output, a formula ``Scores = [...] = [...]``, prose in a fence) is left to the text readers.
Comments are kept with the statement they follow: ``keys = np.dot(x, w_key) #[[0,1,1],…]``
states the value of ``keys``.

Every reader here is linear in the block: one pass to cut statements, one parse each, and
statements are bounded in lines and characters.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

__all__ = ["Statement", "iter_statements", "offset_of", "statements"]

#: most lines one statement may span (a longer run is read as text)
MAX_STATEMENT_LINES: Final = 400
#: most characters one statement may hold
MAX_STATEMENT_CHARS: Final = 200_000


@dataclass(frozen=True)
class Statement:
    """One statement of a code block: where it is, its syntax tree (None when it is not
    Python), the offsets of its lines, and the spans of its comments."""

    start: int
    end: int
    tree: ast.Module | None
    #: source offset of each of its lines (the first is ``start``'s line start)
    line_offsets: tuple[int, ...]
    #: lines of the parsed text that precede the statement's own (``if 1:`` wrapping)
    shift: int
    comments: tuple[tuple[int, int], ...]
    #: the statement's text (what was parsed, fences blanked)
    text: str


def offset_of(st: Statement, node: ast.AST) -> int:
    """The source offset of ``node`` (its line and column, counted in characters)."""
    lineno = getattr(node, "lineno", 1) - st.shift
    col = getattr(node, "col_offset", 0)
    index = min(max(lineno - 1, 0), len(st.line_offsets) - 1)
    base = st.line_offsets[index]
    line_start = base - st.start
    line_end = st.text.find("\n", line_start)
    line = st.text[line_start : line_end if line_end >= 0 else len(st.text)]
    if not line.isascii():
        col = len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))
    return base + col


class _Lexer:
    """Brackets, strings and comments of Python text, line by line."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote = ""  # the open string's quote: ', ", ''' or """

    def line(self, text: str, a: int, b: int) -> list[tuple[int, int]]:
        """Advance over ``text[a:b]``; the comment spans in it."""
        comments: list[tuple[int, int]] = []
        i = a
        while i < b:
            ch = text[i]
            if self.quote:
                if ch == "\\":
                    i += 2
                    continue
                if text.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = ""
                    continue
                i += 1
                continue
            if ch == "#":
                comments.append((i + 1, b))
                break
            if ch in "'\"":
                triple = ch * 3
                self.quote = triple if text.startswith(triple, i) else ch
                i += len(self.quote)
                continue
            if ch in "([{":
                self.depth += 1
            elif ch in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        if self.quote in ("'", '"'):
            self.quote = ""  # a one-line string does not continue on the next line
        return comments


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _blank_fences(text: str) -> str:
    """``` runs inside a block (a fence glued to code: ```` ]``` ````) read as spaces."""
    return text.replace("```", "   ").replace("~~~", "   ")


def statements(text: str, start: int, end: int) -> list[Statement]:
    """The statements of the code block ``text[start:end]`` in order."""
    return list(iter_statements(text, start, end))


def iter_statements(text: str, start: int, end: int) -> Iterator[Statement]:
    """:func:`statements`, parsed as they are asked for (a reader whose budget is spent
    parses no further)."""
    body = _blank_fences(text[start:end])
    lines: list[tuple[int, int]] = []
    pos = 0
    while pos <= len(body):
        eol = body.find("\n", pos)
        eol = len(body) if eol < 0 else eol
        lines.append((pos, eol))
        pos = eol + 1
    lexer = _Lexer()
    i = 0
    while i < len(lines):
        a, b = lines[i]
        if not body[a:b].strip():
            i += 1
            continue
        group_start = i
        if body[a:b].lstrip().startswith("#"):
            # a run of comment lines is one piece (an array may span them)
            comments = lexer.line(body, a, b)
            j = i + 1
            while j < len(lines) and body[lines[j][0] : lines[j][1]].lstrip().startswith("#"):
                comments += _Lexer().line(body, *lines[j])
                j += 1
            lexer = _Lexer()
            ga, gb = lines[group_start][0], lines[j - 1][1]
            starts = [lines[k][0] for k in range(group_start, j)]
            yield _parse(body, ga, gb, start, comments, starts)
            i = j
            continue
        comments = lexer.line(body, a, b)
        header_indent = _indent(body[a:b])
        j = i + 1
        compound = body[a:b].rstrip().endswith(":") and lexer.depth == 0
        while j < len(lines) and j - group_start < MAX_STATEMENT_LINES:
            la, lb = lines[j]
            line = body[la:lb]
            open_ = lexer.depth > 0 or lexer.quote or body[a:b].rstrip().endswith("\\")
            if open_:
                comments += lexer.line(body, la, lb)
                a, b = la, lb
                j += 1
                continue
            if compound and (not line.strip() or _indent(line) > header_indent):
                comments += lexer.line(body, la, lb)
                a, b = la, lb
                j += 1
                continue
            if compound and line.strip().startswith(("else", "elif", "except", "finally")):
                comments += lexer.line(body, la, lb)
                a, b = la, lb
                j += 1
                continue
            break
        lexer = _Lexer()
        ga, gb = lines[group_start][0], lines[j - 1][1]
        yield _parse(body, ga, gb, start, comments, [lines[k][0] for k in range(group_start, j)])
        i = j


def _parse(
    body: str,
    a: int,
    b: int,
    origin: int,
    comments: list[tuple[int, int]],
    line_starts: list[int],
) -> Statement:
    snippet = body[a:b]
    shift = 0
    tree: ast.Module | None = None
    if len(snippet) <= MAX_STATEMENT_CHARS:
        source = snippet
        if _indent(snippet.split("\n", 1)[0]) > 0:
            source, shift = "if 1:\n" + snippet, 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            tree = None
    return Statement(
        origin + a,
        origin + b,
        tree,
        tuple(origin + s for s in line_starts),
        shift,
        tuple((origin + x, origin + y) for x, y in comments),
        snippet,
    )
