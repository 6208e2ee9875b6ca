"""Arrays laid out over several lines: rows written one per line, and matrices side by side.

- Lines that each hold the same number of one-line vectors of the same lengths are stacked
  into matrices, one per column of the layout (``Result matrix:`` and three lines of
  ``[…]``; ``Q = […] K = […] V = […]`` followed by two lines of three vectors). A word
  before each line's only vector names its row (``I: [0.1, 0.2]``, ``am: […]``).
- A line with two or more ``NAME = [[`` starts (``Q = [[1, 0, 1],    K = [[1, 1, 0],``) and
  the lines under it are cut at those columns, and each column is read on its own.
- A matrix written to the right of the expression it is the value of (``Output ≈ [[…],  =
  [[30.2, 43.6],`` with ``[33.4, 47.2]]`` under it) is read from its column.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from typing import Final

from symattn.config import Limits
from symattn.read.arrays import Entry, Grid, scan_arrays
from symattn.read.notations import LIST_SEPARATOR, ROW_NAME, SIDE_BY_SIDE

__all__ = ["listed_rows", "side_by_side", "stack_rows"]

#: most lines one side-by-side layout may span
_MAX_LINES: Final = 64


def _line_of(text: str, starts: list[int], at: int) -> int:
    return bisect.bisect_right(starts, at) - 1


def stack_rows(text: str, grids: list[Grid], line_starts: list[int]) -> list[Grid]:
    """``grids`` with runs of one-line vectors on consecutive lines stacked into matrices."""
    by_line: dict[int, list[Grid]] = {}
    rest: list[Grid] = []
    for g in grids:
        a, b = _line_of(text, line_starts, g.start), _line_of(text, line_starts, g.end - 1)
        if g.dims is not None and len(g.dims) == 1 and a == b and not g.elided:
            by_line.setdefault(a, []).append(g)
        else:
            rest.append(g)
    out = list(rest)
    lines = sorted(by_line)
    i = 0
    while i < len(lines):
        j = i + 1
        shape = [g.dims for g in by_line[lines[i]]]
        named_rows = all(_row_name(g.label) for g in by_line[lines[i]])
        while j < len(lines) and lines[j] == lines[j - 1] + 1:
            row = by_line[lines[j]]
            if [g.dims for g in row] != shape:
                break
            if any(_names_a_new_array(g) for g in row) and len(shape) > 1:
                break
            if any(_wordy(g.label) for g in row) and not (
                named_rows and all(_row_name(g.label) for g in row)
            ):
                break  # `Attention weights: [...]` under `Raw scores: [...]`: another array
            j += 1
        run = [by_line[n] for n in lines[i:j]]
        if len(run) >= 2:
            out.extend(_stacked(run))
        else:
            out.extend(run[0])
        i = j
    out.sort(key=lambda g: g.start)
    return out


def listed_rows(text: str, grids: list[Grid]) -> list[Grid]:
    """``grids`` with vectors of one length listed one after another in a sentence, after
    one label and with only separators between (``Keys are [1, 0], [0, 1] and [1, 1]``),
    joined into the matrix of those rows, named by the label (one pass)."""
    out: list[Grid] = []
    run: list[Grid] = []

    def flush() -> None:
        if len(run) >= 2:
            first, width = run[0], (run[0].dims or (0,))[0]
            entries = tuple(e for g in run for e in g.entries)
            notation = "listed-rows"
            out.append(
                Grid(
                    first.start,
                    run[-1].end,
                    entries,
                    (len(run), width),
                    (),
                    "",
                    first.label,
                    notation,
                )
            )
        else:
            out.extend(run)
        run.clear()

    for g in grids:
        vector = g.dims is not None and len(g.dims) == 1 and not g.elided and not g.wrapper
        if (
            vector
            and run
            and g.dims == run[0].dims
            and LIST_SEPARATOR.regex.fullmatch(text, run[-1].end, g.start) is not None
        ):
            run.append(g)
            continue
        flush()
        if vector and any(ch.isalpha() for ch in g.label):  # (a label: ``Keys are``, ``键``)
            run.append(g)
        else:
            out.append(g)
    flush()
    return out


def _wordy(label: str) -> bool:
    """Whether a label holds a word (``Attention weights``), not only arithmetic left over."""
    return any(ch.isalpha() for ch in label) and len(label.strip()) > 1


def _row_name(label: str) -> bool:
    return bool(label.strip()) and ROW_NAME.regex.fullmatch(label.strip()) is not None


def _names_a_new_array(g: Grid) -> bool:
    return bool(SIDE_BY_SIDE.regex.search(g.label + " = ["))


def _stacked(run: list[list[Grid]]) -> list[Grid]:
    """One matrix per column of a run of lines."""
    out = []
    for c in range(len(run[0])):
        column = [line[c] for line in run]
        entries = tuple(e for g in column for e in g.entries)
        labels = [g.label for g in column]
        row_names = tuple(
            m.group("name") if (m := ROW_NAME.regex.fullmatch(lb.strip())) else "" for lb in labels
        )
        named_rows = all(row_names) and len(set(row_names)) == len(row_names)
        first = column[0]
        dims = (len(column), *(first.dims or ()))
        out.append(
            Grid(
                first.start,
                column[-1].end,
                entries,
                dims,
                row_names if named_rows else (),
                first.wrapper,
                "" if named_rows else first.label,
                "stacked-rows",
            )
        )
    return out


_ANCHOR: Final = SIDE_BY_SIDE.regex


def side_by_side(
    text: str, start: int, end: int, limits: Limits
) -> tuple[list[Grid], list[tuple[int, int]]]:
    """Matrices written side by side under ``NAME = [[`` starts, and the spans they cover
    (for the other readers to leave alone)."""
    found: list[Grid] = []
    covered: list[tuple[int, int]] = []
    pos = start
    while pos < end:
        eol = text.find("\n", pos, end)
        eol = end if eol < 0 else eol
        anchors = list(_ANCHOR.finditer(text, pos, eol))
        if len(anchors) < 2:
            got = _result_column(text, pos, eol, end, limits)
            if got is not None:
                grid, spans = got
                found.append(grid)
                covered.extend(spans)
                pos = spans[-1][1] + 1
                continue
            pos = eol + 1
            continue
        cols = [m.start("name") - pos for m in anchors]
        names = [m.group("name") for m in anchors]
        lines = [(pos, eol)]
        nxt = eol + 1
        while nxt < end and len(lines) < _MAX_LINES:
            e2 = text.find("\n", nxt, end)
            e2 = end if e2 < 0 else e2
            if not text[nxt:e2].strip():
                break
            lines.append((nxt, e2))
            nxt = e2 + 1
        grids = _columns(text, lines, cols, names, limits)
        if grids:
            found.extend(grids)
            covered.append((pos, lines[-1][1]))
        pos = lines[-1][1] + 1
    return found, covered


def _result_column(
    text: str, pos: int, eol: int, end: int, limits: Limits
) -> tuple[Grid, list[tuple[int, int]]] | None:
    """A matrix written to the right of the expression it is the value of, over several
    lines (``Output ≈ [[0.39×[10,20] + …],  = [[30.2, 43.6],`` with ``[33.4, 47.2]]`` under
    it): from the last ``= [[`` after a gap, the lines under it cut at that column. The
    grid, named by the name its line starts with, and the spans of the column."""
    m = next(reversed(list(_RESULT.finditer(text, pos, eol))), None)
    if m is None or text.find("]]", m.end(), eol) >= 0:
        return None  # (a matrix closed on its line is read as it is)
    col = m.start("rel") - pos
    lines = [(pos + col, eol)]
    nxt = eol + 1
    while nxt < end and len(lines) < _MAX_LINES:
        e2 = text.find("\n", nxt, end)
        e2 = end if e2 < 0 else e2
        a = nxt + col
        if a >= e2 or text[a - 1] not in " \t" or not text[a:e2].strip():
            break
        lines.append((a, e2))
        if "]]" in text[a:e2]:
            break
        nxt = e2 + 1
    if len(lines) < 2 or "]]" not in text[lines[-1][0] : lines[-1][1]]:
        return None
    starts: list[int] = []
    origin: list[int] = []
    pieces: list[str] = []
    v = 0
    for a, b in lines:
        starts.append(v)
        origin.append(a)
        pieces.append(text[a:b])
        v += b - a + 1
    virtual = "\n".join(pieces)
    body = " " + virtual[1:]  # (the ``=`` or ``≈``)
    grids = scan_arrays(body, 0, len(body), limits)
    if len(grids) != 1 or grids[0].dims is None or len(grids[0].dims) != 2:
        return None
    g = grids[0]
    if body[g.end :].strip(" \t\n,.;。"):
        return None
    name = _LINE_NAME.match(text, pos)
    entries = tuple(Entry(e.text, _back(starts, origin, e.at), e.written) for e in g.entries)
    grid = replace(
        g,
        start=_back(starts, origin, g.start),
        end=_back(starts, origin, max(g.end - 1, g.start)) + 1,
        entries=entries,
        label=name.group("name") if name else "",
        notation="side-by-side",
    )
    return grid, lines


#: ``= [[`` after a gap of two spaces or more: a matrix to the right of its expression
_RESULT: Final = re.compile(r"(?<=\S)(?:,|\]|\))?[ \t]{2,}(?P<rel>[=≈])[ \t]*\[\[")
#: the name a line starts with (``Output ≈ …``)
_LINE_NAME: Final = re.compile(r"[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t]*[=≈]")


def _back(starts: list[int], origin: list[int], at: int) -> int:
    """The source offset of offset ``at`` of the virtual text of one column."""
    k = bisect.bisect_right(starts, at) - 1
    return origin[k] + at - starts[k]


def _columns(
    text: str, lines: list[tuple[int, int]], cols: list[int], names: list[str], limits: Limits
) -> list[Grid]:
    out: list[Grid] = []
    for c, name in enumerate(names):
        pieces: list[str] = []
        origin: list[int] = []  # virtual offset of each piece -> source offset
        starts: list[int] = []
        v = 0
        for a, b in lines:
            lo = min(a + cols[c], b)
            hi = min(a + cols[c + 1], b) if c + 1 < len(cols) else b
            starts.append(v)
            origin.append(lo)
            pieces.append(text[lo:hi])
            v += hi - lo + 1
        virtual = "\n".join(pieces)
        body = re.sub(r"^\s*" + re.escape(name) + r"\s*=", lambda m: " " * len(m.group()), virtual)
        grids = scan_arrays(body, 0, len(body), limits)
        if len(grids) != 1:
            return []
        g = grids[0]
        entries = tuple(Entry(e.text, _back(starts, origin, e.at), e.written) for e in g.entries)
        out.append(
            replace(
                g,
                start=_back(starts, origin, g.start),
                end=_back(starts, origin, max(g.end - 1, g.start)) + 1,
                entries=entries,
                label=name,
                notation="side-by-side",
            )
        )
    return out
