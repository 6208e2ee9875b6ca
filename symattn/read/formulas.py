"""The formulas of a block: LaTeX math cut into rows, and prose or code lines that hold one.

- LaTeX math (``$…$``, display math, environments written in prose) is cut into rows at
  ``\\\\`` and ``\\newline`` outside matrices; alignment ``&``, ``\\label``, ``\\tag`` and the
  ``aligned``/``align`` markers are blanked; matrices (``bmatrix``, ``pmatrix``, ``array``, …)
  are kept whole for the grammar.
- A line of prose, of plain text or of code that is not Python holds a formula when it has a
  relation and a digit (``exp(0.08) ≈ 1.083``); a list marker at its start (``1. ``, ``• ``)
  is not part of it, but ``1.15/1.414≈0.813`` starts with a number, not a marker. Markdown
  escapes (``\\[1, 0]``) and emphasis (``**0.82**``) are read through. A line that starts with
  a relation continues the formula of the line before (``Scores = […]`` / ``= […]``).

Each row is a :class:`~symattn.read.mapped.Mapped` text: every character knows where it was
written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from symattn.read.mapped import Mapped, MappedBuilder
from symattn.read.notations import (
    CODE_LINE,
    COMMENT_MARKER,
    DIGIT,
    LIST_MARKER,
    MARKDOWN_MARKUP,
    MATRIX_ENVIRONMENTS,
    RELATION,
)
from symattn.read.source import outside

__all__ = ["math_rows", "starts_with_relation", "text_lines", "unmarked"]

_MATH_TOKEN: Final = re.compile(
    r"\\begin\s*\{(?P<begin>[A-Za-z*]+)\}(?:\{[^{}]*\})?"
    r"|\\end\s*\{(?P<end>[A-Za-z*]+)\}"
    r"|(?P<row>\\\\(?:\s*\[[^\]\n]{0,12}\])?|\\newline\b|\\cr\b)"
    r"|(?P<amp>&)"
    r"|(?P<drop>\\(?:label|tag|eqref|ref)\s*\{[^{}]*\}|\\nonumber\b|\\notag\b)"
)


def _is_matrix(env: str) -> bool:
    return env.rstrip("*") in MATRIX_ENVIRONMENTS.words


def math_rows(text: str, start: int, end: int) -> Iterator[Mapped]:
    r"""The rows of the LaTeX math ``text[start:end]``; a row that starts with an operator or
    a relation (``&\quad + t_7 + t_8``, ``&= -0.5``) continues the row before it."""
    previous: Mapped | None = None
    for row in _rows(text, start, end):
        if previous is not None and _CONTINUES.match(row.text):
            previous = Mapped.concat(previous, row)
            continue
        if previous is not None:
            yield previous
        previous = row
    if previous is not None:
        yield previous


#: the start of an aligned row that continues the one before it
_CONTINUES: Final = re.compile(
    r"\s*(?:\\q?quad\b|\\[,;:!]|\s)*(?:[-+=≈×·]|\\(?:approx|times|cdot|simeq)\b)"
)


#: the start of a block of display math that continues the formula of the block before it
_RELATION_START: Final = re.compile(r"\s*(?:\\q?quad\b|\\[,;:!]|\s)*(?:[=≈]|\\(?:approx|simeq)\b)")


def starts_with_relation(row: Mapped) -> bool:
    r"""Whether the row of math starts with a relation (``= [3.406, 4.406]``,
    ``\approx 0.5``): it has no left side of its own."""
    return _RELATION_START.match(row.text) is not None


def _rows(text: str, start: int, end: int) -> Iterator[Mapped]:
    """The rows of the LaTeX math ``text[start:end]``, as written."""
    stack: list[str] = []
    row_start = start
    blanks: list[tuple[int, int, str]] = []
    for m in _MATH_TOKEN.finditer(text, start, end):
        if m.group("begin"):
            stack.append(m.group("begin"))
            if not _is_matrix(m.group("begin")):
                blanks.append((m.start(), m.end(), " "))
        elif m.group("end"):
            env = m.group("end")
            if env in stack:
                while stack and stack.pop() != env:
                    pass
            if not _is_matrix(env):
                blanks.append((m.start(), m.end(), " "))
        elif m.group("row") is not None:
            if stack and _is_matrix(stack[-1]):
                continue
            yield _piece(text, row_start, m.start(), blanks)
            blanks = []
            row_start = m.end()
        elif m.group("amp"):
            if not (stack and _is_matrix(stack[-1])):
                blanks.append((m.start(), m.end(), " "))
        else:
            blanks.append((m.start(), m.end(), " "))
    yield _piece(text, row_start, end, blanks)


def _piece(text: str, a: int, b: int, blanks: list[tuple[int, int, str]]) -> Mapped:
    """One row, with what is blanked and the braces it does not close (``{\\textstyle`` of a
    group that spans rows) blanked too."""
    reps = {x: (x, y, new) for x, y, new in blanks if a <= x and y <= b}
    open_: list[int] = []
    i = a
    while i < b:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            open_.append(i)
        elif ch == "}":
            if open_:
                open_.pop()
            else:
                reps.setdefault(i, (i, i + 1, " "))
        i += 1
    for x in open_:
        reps.setdefault(x, (x, x + 1, " "))
    # `{\\textstyle A = …}`: a group around the whole row is no group of a term
    first = a
    while first < b and text[first] in " \t\n":
        first += 1
    if first < b and text[first] == "{" and first not in reps:
        depth, k = 0, first
        while k < b:
            ch = text[k]
            if ch == "\\":
                k += 2
                continue
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        if k < b and not text[k + 1 : b].strip(" \t\n$"):
            reps[first] = (first, first + 1, " ")
            reps[k] = (k, k + 1, " ")
    whole = Mapped.of(text, a, b)
    if not reps:
        return whole
    ordered = []
    last = a
    for x in sorted(reps):
        x0, y0, new = reps[x]
        if x0 >= last:
            ordered.append((x0 - a, y0 - a, new))
            last = y0
    return whole.replace(ordered)


def unmarked(text: str, a: int, b: int) -> Mapped:
    """``text[a:b]`` with Markdown emphasis and code marks blanked and escapes read through."""
    line = Mapped.of(text, a, b)
    reps = []
    for m in MARKDOWN_MARKUP.regex.finditer(text, a, b):
        reps.append((m.start() - a, m.end() - a, m.group("keep") or " " * (m.end() - m.start())))
    return line.replace(reps) if reps else line


def text_lines(
    text: str,
    start: int,
    end: int,
    skip: list[tuple[int, int]] | None = None,
    *,
    markdown: bool = False,
    code: bool = False,
) -> Iterator[Mapped]:
    """The lines of ``text[start:end]`` that hold a formula (each with a continuation line
    ``= …`` joined to it), outside the ``skip`` spans (math already read)."""
    skip = sorted(skip or [])
    k = 0
    pending: list[tuple[int, int]] = []
    pos = start
    while pos <= end:
        eol = text.find("\n", pos, end)
        eol = end if eol < 0 else eol
        parts, k = outside(pos, eol, skip, k)
        for x, y in parts:
            body = text[x:y]
            stripped = body.lstrip()
            if stripped[:1] in ("=", "≈") and pending:
                pending.append((x + len(body) - len(stripped), y))
                continue
            if pending:
                yield _joined(text, pending, markdown)
                pending = []
            if not RELATION.regex.search(body) or not DIGIT.regex.search(body):
                continue
            if not code and CODE_LINE.regex.search(body):
                continue
            comment = COMMENT_MARKER.regex.match(body) if code else None
            off = comment.end() if comment else 0  # (a comment writes its math as text)
            marker = LIST_MARKER.regex.match(body, off)
            off = marker.end() if marker else off
            pending = [(x + off, y)]
        pos = eol + 1
    if pending:
        yield _joined(text, pending, markdown)


def _joined(text: str, spans: list[tuple[int, int]], markdown: bool) -> Mapped:
    b = MappedBuilder()
    for i, (x, y) in enumerate(spans):
        piece = unmarked(text, x, y) if markdown else Mapped.of(text, x, y)
        if i:
            b.add(" ", x, 0)
        for run, origin, length in piece.runs():
            b.add(run, origin, length)
    return b.build()
