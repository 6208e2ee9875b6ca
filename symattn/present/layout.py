"""Displayed math that fits the page: long chains broken into lines, wide matrices split.

Every decision is taken here, in Python, from the estimated width of what is typeset
(:mod:`symattn.present.mathwidth`), never left to the renderer:

- :func:`chain` writes ``lhs = a + b + ... \\approx c`` on one line when it fits in
  :data:`LINE_EM`, else as an ``aligned`` block: each relation starts a line when the line
  so far is full, and a long sum continues on the next line after ``\\quad +``.
- :func:`matrix` writes a matrix as a ``bmatrix`` (row labels to its left when given); a
  matrix too wide for the line is split into column blocks (``\\left[ ... \\right.`` then
  ``\\left. ... \\right]``); one with more than :data:`MAX_ROWS` rows or :data:`MAX_COLS`
  columns is summarised by its first and last rows and columns, with ``\\cdots``.
- :func:`vector` writes ``[a, b, c]``, wrapped or summarised the same way.

``aligned``, ``bmatrix``, ``matrix`` and ``array`` are in KaTeX, MathJax and amsmath, so one
string serves Markdown, HTML and LaTeX.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from symattn.present.mathwidth import BRACKET, COLUMN_GAP, width

#: the width a displayed line may take, in em of the math font (a 10pt A4 page with 2.5 cm
#: margins is 45 em wide; the estimate is within 5%, so this leaves room)
LINE_EM = 38.0
#: the measure of a displayed line in each format, in em of the math font: the A4 text width
#: (2 cm margins: 484 pt, 45.9 em at the 10.5 pt of a Chinese page, 48.4 em at 10 pt) and the
#: HTML page's column at 1000 px and wider (800 px of math at 17.6 px an em)
MEASURE_EM = {"latex": 45.9, "html": 45.4}
#: the width a matrix may take: the narrower measure, less half an em (the estimate errs wide)
MATRIX_EM = min(MEASURE_EM.values()) - 0.5
#: the indent of a continued sum (``\quad``), em
CONTINUE_EM = 1.0
#: a matrix with more rows or columns than this is summarised
MAX_ROWS = 12
MAX_COLS = 12
#: how many first and last rows (columns) a summary keeps
HEAD = 4
TAIL = 2
#: a vector with more entries than this is summarised
MAX_VECTOR = 16
#: a sum with more terms than this shows its first and last terms around ``\\cdots``
MAX_TERMS = 16


@dataclass(frozen=True)
class Side:
    """One link of a chain: a relation and the terms it joins with ``op``."""

    rel: str
    terms: tuple[str, ...]
    op: str = "+"

    @property
    def text(self) -> str:
        return f"{self.rel} {self.terms[0]}" + "".join(" " + p for p in self.pieces)

    @property
    def pieces(self) -> tuple[str, ...]:
        """Every term after the first with its operator (``+ -x`` is written ``- x``)."""
        return tuple(_joined(self.op, t) for t in self.terms[1:])


def _joined(op: str, term: str) -> str:
    if op == "+" and term.startswith("-"):
        return f"- {term[1:]}"
    return f"{op} {term}"


def side(rel: str, *terms: str, op: str = "+") -> Side:
    """``rel t1 op t2 op ...``."""
    return Side(rel, tuple(terms) or ("0",), op)


@dataclass(frozen=True)
class Equation:
    """A displayed equation as the rows of an ``aligned`` block: ``lhs`` and, from the
    alignment point (its first relation) on, ``rows`` (each starts with ``&``).

    One equation is :attr:`latex`; consecutive equations of one step are set as one block by
    :func:`block`, so that they share one left edge (their relations aligned).
    """

    lhs: str
    rows: tuple[str, ...]

    @property
    def latex(self) -> str:
        """The equation on its own: one line, or an ``aligned`` block of its rows."""
        if len(self.rows) == 1:
            return f"{self.lhs} {self.rows[0][1:]}"
        return "\\begin{aligned}\n" + " \\\\\n".join(self.lines) + "\n\\end{aligned}"

    @property
    def lines(self) -> list[str]:
        """The rows of the block, the first one with its left side."""
        return [f"{self.lhs} {self.rows[0]}", *self.rows[1:]]

    @property
    def lhs_em(self) -> float:
        """The width of the left side (before the alignment point)."""
        return width(self.lhs)

    @property
    def rest_em(self) -> float:
        """The width of the widest row from the alignment point on."""
        return max(width(r[1:]) for r in self.rows)


#: the most rows one block of equations holds (a display never breaks across pages)
MAX_BLOCK_ROWS = 12


def fits_together(eqs: Sequence[Equation], budget: float = LINE_EM) -> bool:
    """Whether ``eqs`` set as one block (relations aligned) fit ``budget`` em and
    :data:`MAX_BLOCK_ROWS` rows: the widest left side plus the widest row after it."""
    if sum(len(e.rows) for e in eqs) > MAX_BLOCK_ROWS:
        return False
    return max(e.lhs_em for e in eqs) + max(e.rest_em for e in eqs) <= budget


def block(eqs: Sequence[Equation]) -> str:
    """``eqs`` as one ``aligned`` block, each relation under the first one (one equation: its
    own :attr:`~Equation.latex`)."""
    if len(eqs) == 1:
        return eqs[0].latex
    lines = [line for e in eqs for line in e.lines]
    return "\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}"


def chain(lhs: str, sides: Sequence[Side], budget: float = LINE_EM) -> str:
    """``lhs rel terms rel terms ...`` on one line, or broken into an ``aligned`` block."""
    return chain_eq(lhs, sides, budget).latex


def chain_eq(lhs: str, sides: Sequence[Side], budget: float = LINE_EM) -> Equation:
    """``lhs rel terms rel terms ...``: one row when it fits ``budget``, else several.

    A relation starts a new row when the row is full; a long sum continues after ``\\quad +``.
    A side ``= x`` right after the same ``x`` (``= 0.5 = 0.5``) is written once; a sum of more
    than :data:`MAX_TERMS` terms shows its first and last ones around ``\\cdots``.
    """
    kept: list[Side] = []
    for s in sides:
        if len(s.terms) > MAX_TERMS:
            s = Side(s.rel, (*s.terms[:HEAD], r"\cdots", *s.terms[-TAIL:]), s.op)
        before = kept[-1].terms if kept else (lhs,)
        if s.rel == "=" and s.terms == before:
            continue
        kept.append(s)
    sides = kept
    flat = " ".join([lhs, *(s.text for s in sides)])
    if width(flat) <= budget:
        return Equation(lhs, ("&" + " ".join(s.text for s in sides),))
    room = budget - width(lhs)
    lines: list[str] = []
    cur = ""
    used = 0.0
    for s in sides:
        whole = width(s.text)
        if cur and used + whole > room:
            lines.append(cur)
            cur, used = "", 0.0
        first = f"{s.rel} {s.terms[0]}"
        if cur:
            cur += " " + first
        else:
            cur = "&" + first
        used += width(first)
        for piece in s.pieces:
            w = width(f"x {piece}") - width("x")
            if used + w > room:
                lines.append(cur)
                cur, used = f"&\\quad {piece}", CONTINUE_EM + w
            else:
                cur += " " + piece
                used += w
    lines.append(cur)
    return Equation(lhs, tuple(lines))


# --------------------------------------------------------------------------- vectors


def positions(n: int, limit: int) -> list[int | None]:
    """Indices shown of ``n`` (``None`` marks the elided middle)."""
    if n <= limit:
        return list(range(n))
    return [*range(HEAD), None, *range(n - TAIL, n)]


def vector(items: Sequence[str]) -> str:
    """``[a, b, c]`` on one line, summarised past :data:`MAX_VECTOR` entries."""
    shown = [r"\ldots" if i is None else items[i] for i in positions(len(items), MAX_VECTOR)]
    return "\\left[" + ",\\ ".join(shown) + "\\right]"


def vector_line(lhs: str, rel: str, items: Sequence[str], budget: float = LINE_EM) -> str:
    """``lhs rel [a, b, c]``, wrapped into an ``aligned`` block when too wide."""
    return vector_eq(lhs, rel, items, budget).latex


def vector_eq(lhs: str, rel: str, items: Sequence[str], budget: float = LINE_EM) -> Equation:
    """``lhs rel [a, b, c]``: one row, or wrapped into several when too wide."""
    flat = f"{lhs} {rel} {vector(items)}"
    if width(flat) <= budget:
        return Equation(lhs, (f"&{rel} {vector(items)}",))
    shown = [r"\ldots" if i is None else items[i] for i in positions(len(items), MAX_VECTOR)]
    room = budget - width(f"{lhs} {rel}") - CONTINUE_EM - 2 * 0.6
    rows: list[list[str]] = [[]]
    used = 0.0
    for item in shown:
        w = width(f"{item},\\ ")
        if rows[-1] and used + w > room:
            rows.append([])
            used = 0.0
        rows[-1].append(item)
        used += w
    lines = []
    for k, r in enumerate(rows):
        left = "\\left[" if k == 0 else "\\left."
        right = "\\right]" if k == len(rows) - 1 else ",\\right."
        body = left + ",\\ ".join(r) + right
        lines.append(f"&{rel} {body}" if k == 0 else f"&\\quad {body}")
    return Equation(lhs, tuple(lines))


# --------------------------------------------------------------------------- matrices


@dataclass(frozen=True)
class Grid:
    """The shown part of a matrix: cells (LaTeX), the row labels, and what was left out."""

    cells: tuple[tuple[str, ...], ...]
    labels: tuple[str, ...] | None
    rows_hidden: int
    cols_hidden: int


def shown(shape: tuple[int, int]) -> tuple[list[int], list[int]]:
    """The rows and columns a matrix of ``shape`` shows (all, or the first and last ones)."""
    rows = [r for r in positions(shape[0], MAX_ROWS) if r is not None]
    cols = [c for c in positions(shape[1], MAX_COLS) if c is not None]
    return rows, cols


def summarise(
    shape: tuple[int, int], cell: Callable[[int, int], str], labels: Sequence[str] | None
) -> Grid:
    """The first and last rows and columns of a large matrix, with ``\\cdots``/``\\vdots``;
    ``cell(r, c)`` is asked only for the entries shown."""
    rpos = positions(shape[0], MAX_ROWS)
    cpos = positions(shape[1], MAX_COLS)
    out = []
    for r in rpos:
        if r is None:
            out.append(tuple(r"\ddots" if c is None else r"\vdots" for c in cpos))
        else:
            out.append(tuple(r"\cdots" if c is None else cell(r, c) for c in cpos))
    shown_labels = (
        tuple(r"\vdots" if r is None else labels[r] for r in rpos) if labels is not None else None
    )
    return Grid(
        tuple(out),
        shown_labels,
        shape[0] - sum(r is not None for r in rpos),
        shape[1] - sum(c is not None for c in cpos),
    )


def _rows_tex(cells: Sequence[Sequence[str]]) -> str:
    return " \\\\ ".join(" & ".join(row) for row in cells)


def _labels_tex(labels: Sequence[str]) -> str:
    return "\\begin{array}{r}" + " \\\\ ".join(labels) + "\\end{array}"


def _column_blocks(cells: Sequence[Sequence[str]], room: float) -> list[tuple[int, int]]:
    """Column ranges ``[start, stop)``, as even as possible, whose matrices fit in ``room`` em."""
    n_cols = len(cells[0])
    col_w = [max(width(row[c], display=False) for row in cells) for c in range(n_cols)]

    def fits(a: int, b: int) -> bool:
        return 2 * BRACKET + sum(col_w[a:b]) + COLUMN_GAP * (b - a - 1) <= room

    for k in range(2, n_cols + 1):
        size = -(-n_cols // k)
        blocks = [(a, min(a + size, n_cols)) for a in range(0, n_cols, size)]
        if all(fits(a, b) for a, b in blocks):
            return blocks
    return [(c, c + 1) for c in range(n_cols)]


def _header(labels: Sequence[str], a: int, b: int) -> str:
    """The column labels ``a..b-1`` of a block, small, as the block's first row."""
    return " & ".join(f"\\scriptstyle {lab}" for lab in labels[a:b])


def matrix(
    lhs: str,
    rel: str,
    shape: tuple[int, int],
    cell: Callable[[int, int], str],
    labels: Sequence[str] | None = None,
    budget: float = MATRIX_EM,
    col_labels: Sequence[str] | None = None,
) -> str:
    """``lhs rel [matrix]``: labels to the left of the rows, laid out by measurement.

    On one line when it fits ``budget`` (the measure of every format); else with ``lhs`` on a
    line of its own when the rest then fits; else split into column blocks, each headed by
    its column labels (``col_labels``, else the column numbers). ``cell(r, c)`` gives the
    LaTeX of an entry; it is asked only for the entries shown.
    """
    grid = summarise(shape, cell, labels)
    lab = _labels_tex(grid.labels) + " " if grid.labels is not None else ""
    body = f"{lab}\\begin{{bmatrix}} {_rows_tex(grid.cells)} \\end{{bmatrix}}"
    whole = f"{lhs} {rel} {body}"
    if width(whole) <= budget or not grid.cells or len(grid.cells[0]) < 2:
        return whole
    if width(f"{rel} {body}") + CONTINUE_EM <= budget:
        return f"\\begin{{aligned}}\n&{lhs} \\\\\n&\\quad {rel} {body}\n\\end{{aligned}}"
    cpos = positions(shape[1], MAX_COLS)
    names = col_labels if col_labels is not None else [str(c + 1) for c in range(shape[1])]
    heads = [r"\cdots" if c is None else names[c] for c in cpos]
    room = budget - width(f"{rel} {lab}") - CONTINUE_EM
    blocks = _column_blocks(grid.cells, room)
    lines = [f"&{lhs}"]
    for k, (a, b) in enumerate(blocks):
        part = [row[a:b] for row in grid.cells]
        left = "\\left[" if k == 0 else "\\left."
        right = "\\right]" if k == len(blocks) - 1 else "\\right."
        rows = _rows_tex(part)
        block = f"{left}\\begin{{matrix}} {_header(heads, a, b)} \\\\ {rows} \\end{{matrix}}{right}"
        lines.append(
            f"&\\quad {rel} {lab}{block}"
            if k == 0
            else f"&\\quad \\hphantom{{{{}}{rel}{{}}}} {lab}{block}"
        )
    return "\\begin{aligned}\n" + " \\\\[1ex]\n".join(lines) + "\n\\end{aligned}"
