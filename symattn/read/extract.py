"""Formulas cut into chains ``a = b ≈ c``: one chain per formula, links at the relations.

A row of math or a line of text (:mod:`symattn.read.formulas`) may hold several formulas:
they are cut at commas between formulas (``v_1=[10, 20], v_2=[30, 40]``; words without a
number around them are left out: ``Shapes, B=2, T=5:``), at ``→``, ``;``
and ``。``, and where a complete value is followed by a new ``NAME =``
(``Q = [[1,0],[0,1]] V = [[1,2],[3,4]] d_k = 2``). Two formulas in two pieces of inline math
are two chains; a piece that starts with a relation continues the one before it only when
just a token name in parentheses stands between them (``$k_1$ (Thinking) $= [1, 2]$``).
Nothing here evaluates anything: :mod:`symattn.read.level1` gives the links meaning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from symattn.judge.findings import Message
from symattn.read.kinds import OUTSIDE_MATH, ChainKind, LinkRelation
from symattn.read.mapped import Mapped
from symattn.read.notations import (
    CASE_COLON,
    EXPRESSION_LINE,
    FORMULA_BREAK,
    MATRIX_ENVIRONMENTS,
    MATRIX_SPACE,
    NAMED_EXPRESSION_LINE,
    NEW_DEFINITION,
    RESULT_LABEL,
    ROW_LABEL,
    ROW_LABEL_COLUMN,
)
from symattn.read.numerals import numbers_in
from symattn.read.source import Source
from symattn.read.tokens import RELATIONS, respell

#: what separates the links of a chain: the relations, and ``→`` (a step to the next stage,
#: which Level 1 reads as the start of a new chain that keeps the name of the one before)
LINKS: Final = RELATIONS + "→"

__all__ = ["ChainText", "Link", "Skipped", "chains_of", "with_result_expression"]

Pos = tuple[int, int]  # (line, column), both 1-based


@dataclass(frozen=True)
class Link:
    """One side of a relation: its text in the grammar's spelling, the relation before it
    ('' for the first link), and where each of its characters was written."""

    text: str
    relation: LinkRelation
    where: Mapped
    src: Source = field(repr=False, compare=False)

    def offset(self, i: int) -> int:
        """The source offset of the character at ``i`` of :attr:`text`."""
        return self.where.at(i)

    def at(self, i: int) -> Pos:
        """(line, column) of the character at ``i`` (clamped)."""
        return self.src.position(self.where.at(i))


@dataclass(frozen=True)
class ChainText:
    """``a = b ≈ c``: the links of one chain, how it was written (``math``, ``text``,
    ``code``), and the prose word right before it (``总和`` in ``总和 $= …$``)."""

    links: tuple[Link, ...]
    kind: ChainKind
    before: str = ""
    #: the names of the rows of its matrix, when a column of labels stands before it
    #: (``X = \begin{array}{r}\text{动物} \\ \text{马路}\end{array} \begin{bmatrix}…``)
    row_names: tuple[str, ...] = ()

    @property
    def line(self) -> int:
        """Line of the chain's start."""
        return self.links[0].at(0)[0]

    @property
    def column(self) -> int:
        """Column of the chain's start."""
        return self.links[0].at(0)[1]

    @property
    def start(self) -> int:
        """Source offset of the chain's start."""
        return self.links[0].offset(0)

    def number_offsets(self) -> Iterator[int]:
        """Source offsets of the numbers written in the chain."""
        for ln in self.links:
            for m in numbers_in(ln.text):
                yield ln.offset(m.start())

    @property
    def text(self) -> str:
        """The chain, respelled, as one string."""
        return "".join(
            f" {ln.relation} {ln.text}" if ln.relation else ln.text for ln in self.links
        ).strip()


@dataclass(frozen=True)
class Skipped:
    """A formula not read (too long, or similar), with the reason."""

    line: int
    text: str
    reason: Message


def _depth0(text: str, chars: str) -> list[tuple[int, int, str]]:
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


def _balanced(text: str, a: int, b: int) -> bool:
    """Whether the brackets of ``text[a:b]`` close in order (a link of a line of text that
    opens or closes one more is part of an array laid out over several lines: the formula
    ends before it)."""
    depth = 0
    for ch in text[a:b]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


#: the operators after which a number is a term of an expression, not a value of its own
_OPERATORS: Final = "+-−×*·⋅/÷"


def _term(norm: str, i: int) -> bool:
    """Whether the number starting at ``i`` follows a binary operator (``+ 0.090``,
    ``× 2``; not ``= -0.5``): a name right after it multiplies it."""
    j = i - 1
    while j >= 0 and norm[j].isspace():
        j -= 1
    if j < 0 or norm[j] not in _OPERATORS:
        return False
    if norm[j] not in "-−":
        return True
    j -= 1
    while j >= 0 and norm[j].isspace():
        j -= 1
    return j >= 0 and (norm[j].isalnum() or norm[j] in ")]}_'")


def _sentence_next(norm: str, i: int) -> bool:
    """Whether a sentence starts at ``norm[i:]`` after blanks: a capital letter, never a digit
    (``[1. 2.]`` prints floats), a sign or a bracket."""
    while i < len(norm) and norm[i].isspace():
        i += 1
    return i < len(norm) and norm[i].isupper()


def _relation_next(norm: str, i: int) -> bool:
    """Whether the first character at or after ``i`` that is no space is a relation."""
    while i < len(norm) and norm[i].isspace():
        i += 1
    return i < len(norm) and norm[i] in RELATIONS


def _formulas(norm: str) -> list[tuple[int, int]]:
    """Where the formulas of one row are: cut at breaks, at new definitions, and at commas
    between formulas."""
    cuts = [0]
    depth = 0
    ends_value = False
    related = False  # (a relation since the last cut: the formula before a colon is one)
    numbered = False  # (and a digit: ``j=1 ("I"):`` is a case, ``y = lambda:`` is none)
    last_relation = max(norm.rfind(r) for r in RELATIONS)
    i = 0
    n = len(norm)
    while i < n:
        ch = norm[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
            ends_value = depth == 0
        elif depth == 0:
            if ch in FORMULA_BREAK.chars or (
                ch == "."
                and i > 0
                and norm[i + 1 : i + 2].isspace()
                and (norm[i - 1] in ")]}" or _sentence_next(norm, i + 1))
            ):  # (``q = [1, 0]. Keys are …``, ``d = 2. Use …``: a sentence ends after a value)
                cuts.append(i + 1 if ch == "." else i)
                ends_value = related = numbered = False
            elif (
                ch in CASE_COLON.chars
                and related
                and numbered
                and i < last_relation
                and (ch != ":" or norm[i + 1 : i + 2].isspace())
                and not _relation_next(norm, i + 1)
            ):  # (``j=1 ("I"): (-0.15 - 0.96)/1.414 = -0.78``: a case, then its formula)
                cuts.append(i)
                ends_value = related = numbered = False
            elif ch in RELATIONS:
                related = True
                ends_value = False
            elif ch.isspace() and ends_value:
                m = NEW_DEFINITION.regex.match(norm, i)
                if m is not None:
                    cuts.append(i)
                    ends_value = related = numbered = False
            elif ch.isdigit() or (ch == "." and norm[i + 1 : i + 2].isdigit()):
                # (a dot between blanks is a product, ``q1 . k1``: no part of a number)
                numbered = numbered or ch.isdigit()
                # (after a name, ``A V =`` is a product: no new formula; so is a name after a
                # number that is a term of a sum, ``0.245 v_2 + 0.090 v_3 ≈ …``)
                if i == 0 or not (norm[i - 1].isdigit() or norm[i - 1] == "."):
                    ends_value = not _term(norm, i)
            elif ch.isalpha() or ch == "_":
                ends_value = False
            elif not ch.isspace():
                ends_value = False
        i += 1
    cuts.append(n)
    spans: list[tuple[int, int]] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        while a < b and (
            norm[a] in FORMULA_BREAK.chars or norm[a] in CASE_COLON.chars or norm[a].isspace()
        ):
            a += 1
        if a < b:
            spans.append((a, b))
    out: list[tuple[int, int]] = []
    for a, b in spans:
        pieces = _depth0(norm[a:b], ",")
        related_pieces = [
            (x, y) for x, y, _ in pieces if any(c in norm[a + x : a + y] for c in RELATIONS)
        ]
        if (
            len(pieces) > 1
            and (
                len(related_pieces) == len(pieces)
                # (``Shapes, B=2, T=5, d=8:``: the parameters of an example listed after words,
                # or before them; a piece with no relation and no digit is those words)
                or (
                    len(related_pieces) > 1
                    and not any(
                        ch.isdigit()
                        for x, y, _ in pieces
                        if (x, y) not in related_pieces
                        for ch in norm[a + x : a + y]
                    )
                )
            )
        ):
            out.extend((a + x, a + y) for x, y in related_pieces)
        else:
            out.append((a, b))
    return out


#: a brace that no LaTeX command, ``^`` or ``_`` opens (in prose it is no grouping)
_BARE_BRACE: Final = re.compile(r"(?<![\\A-Za-z^_}])\{")

#: a matrix environment opened or closed (to find the matrix a column of labels is beside)
_BEGIN: Final = re.compile(r"\\begin\s*\{(?P<env>[A-Za-z]+)\}(?:\s*\{[^{}]{0,20}\})?")
_END: Final = re.compile(r"\\end\s*\{(?P<env>[A-Za-z]+)\}")


def _rows_of(body: str) -> int:
    """The number of rows of a matrix's body (rows end at ``\\\\``; an empty last one is none)."""
    rows = body.split("\\\\")
    return len(rows) - (not rows[-1].strip())


def _beside(text: str, a: int, b: int) -> int | None:
    """The rows of the matrix right beside ``text[a:b]`` (after it, else before it: only
    spacing between), or None when no matrix stands there."""
    after = MATRIX_SPACE.regex.match(text, b)
    m = _BEGIN.match(text, after.end()) if after else None
    if m is not None and m["env"] in MATRIX_ENVIRONMENTS.words:
        close = text.find("\\end", m.end())
        end = _END.match(text, close) if close >= 0 else None
        if end is not None and end["env"] == m["env"]:
            return _rows_of(text[m.end() : close])
    for e in _END.finditer(text, max(0, a - 400), a):
        if e["env"] in MATRIX_ENVIRONMENTS.words and MATRIX_SPACE.regex.fullmatch(text, e.end(), a):
            opened = [o for o in _BEGIN.finditer(text, 0, e.start()) if o["env"] == e["env"]]
            if opened:
                return _rows_of(text[opened[-1].end() : e.start()])
    return None


def _labels(piece: Mapped) -> tuple[Mapped, list[tuple[int, tuple[str, ...]]]]:
    """``piece`` with its columns of row labels blanked, and each column's place and names.
    A column of words is one only right beside a matrix (before it,
    ``\\begin{array}{r}\\text{动物} \\\\ …\\end{array} \\begin{bmatrix}``, or after it,
    ``\\end{bmatrix} \\begin{matrix} \\leftarrow \\text{"The"} \\\\ …``); its words name
    the matrix's rows when they are as many."""
    text = piece.text
    found = []
    for m in ROW_LABEL_COLUMN.regex.finditer(text):
        names = tuple(
            n["name"].strip().strip("\"'“”‘’").strip()
            for row in m["body"].split("\\\\")
            if (n := ROW_LABEL.regex.fullmatch(row)) is not None
        )
        rows = _beside(text, m.start(), m.end())
        if rows is not None:
            found.append((m.start(), m.end(), names if rows == len(names) else ()))
    if not found:
        return piece, []
    blanked = piece.replace([(a, b, " " * (b - a)) for a, b, _ in found])
    return blanked, [(a, names) for a, _, names in found]


def chains_of(piece: Mapped, src: Source, kind: ChainKind, before: str = "") -> list[ChainText]:
    """The chains of one row of math or one line of text (respelled first)."""
    piece, labels = _labels(piece)
    norm = respell(piece)
    text = norm.text
    if not any(r in text for r in RELATIONS):
        return []
    out = []
    for a, b in _formulas(text):
        links = []
        for x, y, rel in _depth0(text[a:b], LINKS):
            x, y = x + a, y + a
            while x < y and text[x].isspace():
                x += 1
            while y > x and text[y - 1].isspace():
                y -= 1
            if kind in OUTSIDE_MATH and not _balanced(text, x, y):
                break  # ``[0,1],  ×  [0,1,1]] = …``: a line of arrays laid out over lines
            links.append(Link(text[x:y], LinkRelation(rel), norm.slice(x, max(y, x + 1)), src))
        if len(links) >= 2 and kind is ChainKind.TEXT and _BARE_BRACE.search(text, a, b):
            continue  # ``z = {{7*7}}`` in prose: braces outside math group nothing
        if len(links) >= 2:
            names = next(
                (n for at, n in labels if norm.at(a) <= piece.at(at) <= norm.at(max(a, b - 1))),
                (),
            )
            out.append(ChainText(tuple(links), kind, before if a == 0 else "", names))
    return out


def with_result_expression(chain: ChainText, src: Source) -> ChainText:
    """``乘积结果=[0.44, -0.35]`` under a line holding only ``[0.55, …]*[[1, 0], …]``: the
    result is claimed for that arithmetic (the chain's label becomes the expression); so is
    ``= [0.845, 0.580]`` (a line that starts with its relation) under a line of arithmetic
    that names its vectors (``0.665 * v0 + 0.245 * v1``)."""
    if chain.kind not in OUTSIDE_MATH:
        return chain
    label = chain.links[0].text
    bare = not label.strip()
    if not bare and (chain.kind is not ChainKind.TEXT or not RESULT_LABEL.regex.fullmatch(label)):
        return chain
    text = src.text
    end = text.rfind("\n", 0, chain.start)
    while end > 0:
        start = text.rfind("\n", 0, end) + 1
        if text[start:end].strip():
            break
        end = start - 1
    else:
        return chain
    line = EXPRESSION_LINE if not bare else NAMED_EXPRESSION_LINE
    if end - start > 2000 or not line.regex.fullmatch(text[start:end]):
        return chain
    norm = respell(Mapped.of(text, start, end))
    a = len(norm.text) - len(norm.text.lstrip())
    b = len(norm.text.rstrip())
    first = Link(norm.text[a:b], LinkRelation.NONE, norm.slice(a, b), src)
    return ChainText((first, *chain.links[1:]), chain.kind, chain.before)
