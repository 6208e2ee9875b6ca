"""Arrays as texts write them outside LaTeX: Python lists, numpy/torch/TF printouts, C-style
brace lists, plain rows of numbers, and labelled single numbers of a printout.

One left-to-right scanner (:func:`scan_arrays`) reads a region of the source: a bracket
group holding only numbers (``1.``, ``4.6888194e-230``, ``-inf``), separators, elisions
(``...``, ``…``) and ``# comments`` is an array; anything else inside ends the group and the
scan goes on from there, so no character is read twice (linear time). A run of lines that
hold only numbers is an array of plain rows. Each array keeps where every entry is, the
comment after each row (``# I``: the row's token), the wrapper it is printed in
(``tensor(``, ``array(``) and the text before it on its line or the line above (its label:
``Attention weights:``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.numbers import Written, parse_number
from symattn.read.notations import (
    ARRAY_WRAPPER,
    ELISION,
    NOTEBOOK_PROMPT,
    PLACEHOLDER_CELL,
    PRINT_NOISE,
    PROSE_NUMBER,
    SHAPE_WRAPPER,
    SPECIAL_ENTRY,
)
from symattn.read.notes import is_note, plain_label
from symattn.read.numerals import PERCENT, number_at, percent

__all__ = ["Entry", "Grid", "plain_rows", "prose_numbers", "scan_arrays"]

#: LaTeX sizes and spaces inside a written array (``\left[1,\ 0\right]``)
_LATEX_SIZING: Final = re.compile(r"\\(?:left|right|[bB]igg?[lr]?|quad|qquad|[,;:! ])")
#: a LaTeX size right before an opening bracket (then the bracket is no index)
_LATEX_OPEN: Final = re.compile(r"\\(?:left|[bB]igg?l?)$")
#: a word where an entry stands: ``-inf``, ``nan``, ``-torch.inf``, ``-∞``, ``-\infty``
_WORD: Final = re.compile(r"[-+−]?(?:[A-Za-z_.]+|∞|\\infty)")
_SPACE: Final = " \t\r\n"
_OPEN: Final = {"[": "]", "{": "}"}


@dataclass(frozen=True)
class Entry:
    """One entry of an array as written: its text, offset, and value (None for ``-inf``,
    ``inf``, ``nan`` and an elision ``...``)."""

    text: str
    at: int
    written: Written | None

    @property
    def elided(self) -> bool:
        """Whether this entry stands for entries not shown (``...``, a table's ``·``)."""
        return self.text in ELISION.words or self.text in PLACEHOLDER_CELL.words


@dataclass(frozen=True)
class Grid:
    """An array as written: its entries (row-major), its shape, and what is around it."""

    start: int
    end: int
    entries: tuple[Entry, ...]
    #: the shape as written; () for a single number; None when rows differ in length
    dims: tuple[int, ...] | None
    #: the comment after each row of the outermost level (``# I`` -> ``I``)
    notes: tuple[str, ...] = ()
    #: what it is printed in: ``tensor``, ``array``, ``Tensor``, ``constant``, or ""
    wrapper: str = ""
    #: the text before it on its line, or the line above when that ends in ``:``
    label: str = ""
    #: python-list | printout | braces | plain-rows | scalar
    notation: str = "python-list"

    @property
    def elided(self) -> bool:
        """Whether entries are left out (``...``)."""
        return any(e.elided for e in self.entries)

    def rows(self) -> tuple[tuple[Entry, ...], ...]:
        """The entries by row (the last axis); a vector is one row."""
        if not self.dims:
            return (self.entries,)
        width = self.dims[-1]
        return tuple(
            self.entries[i : i + width] for i in range(0, len(self.entries), max(width, 1))
        )


class _Fail(Exception):
    """The bracket group is not an array of numbers; the scan resumes at ``at``."""

    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at


def _entry(text: str, at: int, limits: Limits) -> Entry:
    try:
        return Entry(text, at, parse_number(text, limits=limits))
    except SymattnError:
        return Entry(text, at, None)


def _number_entry(text: str, m: re.Match[str], end: int, limits: Limits) -> tuple[Entry, int]:
    """The entry of the number ``m`` found (``87%`` with its sign: the percentage, 0.87) and
    the offset after it."""
    e = _entry(m.group(), m.start(), limits)
    after = m.end()
    if after < end and text[after] in PERCENT and e.written is not None:
        w = percent(e.written)
        return Entry(w.text, e.at, w), after + 1
    return e, after


def _group(
    text: str, k: int, end: int, braces: bool, limits: Limits
) -> tuple[object, int, list[str]]:
    """The nested lists of the bracket group opening at ``k``, the offset after it, and the
    comment after each row of its outermost level."""
    root: list[object] = []
    stack: list[tuple[list[object], str]] = [(root, _OPEN[text[k]])]
    notes: list[str] = []
    i = k + 1
    while i < end:
        ch = text[i]
        if ch in _SPACE or ch == ",":
            i += 1
            continue
        if ch == "\\" and (sizing := _LATEX_SIZING.match(text, i, end)) is not None:
            i = sizing.end()  # ``\left[1,\ 0\right]``: sizes and spaces are no entries
            continue
        if ch == "#" or text.startswith("//", i):
            eol = text.find("\n", i, end)
            eol = end if eol < 0 else eol
            if len(stack) == 1 and notes and not notes[-1]:
                notes[-1] = text[i:eol].lstrip("#/ ").strip()  # the row just written
            i = eol
            continue
        if ch in _OPEN and (ch == "[" or braces):
            if len(stack) > limits.max_nesting:
                raise _Fail(i)
            inner: list[object] = []
            stack[-1][0].append(inner)
            stack.append((inner, _OPEN[ch]))
            if len(stack) == 2:
                notes.append("")
            i += 1
            continue
        if ch == stack[-1][1]:
            stack.pop()
            i += 1
            if not stack:
                if notes and not notes[-1]:
                    # ``[0.05, 0.80, 0.55]] # step``: the last row's comment after the close
                    eol = text.find("\n", i, end)
                    rest = text[i : end if eol < 0 else eol].lstrip(" \t),")
                    if rest.startswith("#"):
                        notes[-1] = rest.lstrip("# ").strip()
                return root, i, notes
            continue
        m = number_at(text, i, end)
        if m is not None and not (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
            entry, after = _number_entry(text, m, end, limits)
            if after < end and (text[after].isalpha() or text[after] == "_"):
                raise _Fail(i)
            stack[-1][0].append(entry)
            i = after
            continue
        w = _WORD.match(text, i, end)
        if w is not None and w.group().lower().lstrip("+") in SPECIAL_ENTRY.words:
            stack[-1][0].append(Entry(w.group(), i, None))
            i = w.end()
            continue
        el = next((e for e in ELISION.words if text.startswith(e, i)), None)
        if el is not None:
            stack[-1][0].append(Entry(el, i, None))
            i += len(el)
            continue
        raise _Fail(i)
    raise _Fail(end)


def _flatten(tree: object) -> tuple[list[Entry], tuple[int, ...] | None]:
    """Entries in row-major order and the shape (None when ragged, elisions aside)."""
    if isinstance(tree, Entry):
        return [tree], ()
    assert isinstance(tree, list)
    entries: list[Entry] = []
    shapes: set[tuple[int, ...] | None] = set()
    for item in tree:
        sub, dims = _flatten(item)
        entries.extend(sub)
        shapes.add(dims)
    if not tree:
        return entries, (0,)
    if len(shapes) != 1 or None in shapes:
        return entries, None
    inner = shapes.pop()
    assert inner is not None
    return entries, (len(tree), *inner)


#: how far back (characters) a label is looked for: labels are short, lines may be long
_LABEL_REACH: Final = 160


def _label(text: str, at: int, lo: int) -> tuple[str, str]:
    """(label, wrapper) of an array starting at ``at``: the words before it on its line
    (``print("Attention weights:", …)`` noise dropped), else a line above ending in ``:``;
    as a name (:func:`~symattn.read.notes.plain_label`: ``**Q**（5×4）：`` is ``Q``)."""
    lo = max(lo, at - _LABEL_REACH)
    start = max(text.rfind("\n", lo, at) + 1, lo)
    before = text[start:at]
    wrapper = ""
    m = ARRAY_WRAPPER.regex.search(before)
    if m is not None:
        wrapper = m.group("wrapper")
        before = before[: m.start()]
    label = PRINT_NOISE.regex.sub(" ", before).strip(" \t=:([{,")
    if not label and start > lo:
        prev_end = start - 1
        prev_start = max(text.rfind("\n", lo, prev_end) + 1, lo)
        prev = text[prev_start:prev_end].strip()
        if prev.endswith((":", "：")):
            label = PRINT_NOISE.regex.sub(" ", prev).strip(" \t=:：")
    if not label and not text[lo:at].strip():
        label = _label_above_fence(text, lo)
    return plain_label(label), wrapper


#: the line that opens a fenced block (```python, ~~~)
_FENCE: Final = re.compile(r"\s*(?:`{3,}|~{3,})[^`]*")


def _label_above_fence(text: str, at: int) -> str:
    """``Q:``, a blank line, then a fenced block whose first thing is the array: the line
    ending in ``:`` right above the fence names it (a few lines back, one fence crossed)."""
    end, fences = at, 0
    for _ in range(4):
        if end <= 0 or at - end > _LABEL_REACH:
            return ""
        start = text.rfind("\n", 0, end - 1) + 1
        line = text[start:end].strip()
        if _FENCE.fullmatch(line):
            fences += 1
        elif line:
            if fences == 1 and line.endswith((":", "：")):
                return PRINT_NOISE.regex.sub(" ", line).strip(" \t=:：")
            return ""
        end = start
    return ""


def scan_arrays(
    text: str, start: int, end: int, limits: Limits, *, braces: bool = False
) -> list[Grid]:
    """Every array in ``text[start:end]`` in order (linear: one pass)."""
    end = min(end, len(text))
    out: list[Grid] = []
    i = start
    nxt = {o: text.find(o, start, end) for o in ("[{" if braces else "[")}
    while i < end:
        for o, p in nxt.items():
            if 0 <= p < i:
                nxt[o] = text.find(o, i, end)
        found = [p for p in nxt.values() if p >= 0]
        if not found:
            break
        k = min(found)
        if (
            k > start
            and (text[k - 1].isalnum() or text[k - 1] in "_)]")
            and not _LATEX_OPEN.search(text, max(start, k - 6), k)
        ):
            i = k + 1  # x[0], B[0][1]: an index, not a list
            continue
        if SHAPE_WRAPPER.regex.search(text, max(start, k - 12), k):
            i = k + 1  # torch.Size([5, 4]): a shape, not values
            continue
        prompt = NOTEBOOK_PROMPT.regex.search(text, max(start, k - 4), min(end, k + 12))
        if prompt is not None and prompt.start() < k < prompt.end():
            i = prompt.end()  # In [16]: a notebook's cell prompt, not an array
            continue
        try:
            tree, after, notes = _group(text, k, end, braces, limits)
        except _Fail as f:
            i = max(f.at, k + 1)
            continue
        entries, dims = _flatten(tree)
        if entries and any(e.written is not None for e in entries):
            label, wrapper = _label(text, k, max(start, out[-1].end if out else start))
            notation = "braces" if text[k] == "{" else "printout" if wrapper else "python-list"
            if notation == "python-list" and "," not in text[k:after] and len(entries) > 1:
                notation = "printout"  # numpy prints without commas: [[0.1 0.2] [0.3 0.4]]
            out.append(Grid(k, after, tuple(entries), dims, tuple(notes), wrapper, label, notation))
        i = after
    return out


def _plain_row(text: str, a: int, b: int, limits: Limits) -> list[Entry] | None:
    """The numbers of a line that holds only numbers (spaces, tabs or commas between), and
    perhaps a note after two or more of them (:func:`~symattn.read.notes.is_note`)."""
    row: list[Entry] = []
    i = a
    while i < b:
        ch = text[i]
        if ch in " \t\r,":
            i += 1
            continue
        m = number_at(text, i, b)
        entry, after = _number_entry(text, m, b, limits) if m is not None else (None, i)
        if entry is None or (after < b and text[after] not in " \t\r,"):
            if len(row) >= 2 and text[i - 1] in " \t" and is_note(text[i:b], marked=True):
                return row  # ``0.1 0.9   ← token 1``: a row, then its note
            return None
        row.append(entry)
        i = after
    return row or None


def plain_rows(text: str, start: int, end: int, limits: Limits) -> list[Grid]:
    """Runs of lines that hold only numbers (``0.1 0.2 0.3``): one array per run of lines
    with the same count; a single line of one number is a single number."""
    out: list[Grid] = []
    run: list[list[Entry]] = []
    run_start = run_end = start

    def flush() -> None:
        if not run:
            return
        width = len(run[0])
        entries = tuple(e for row in run for e in row)
        dims: tuple[int, ...] = (len(run), width) if len(run) > 1 else (width,)
        if len(entries) == 1:
            dims = ()
        label, _ = _label(text, run_start, start)
        notation = "plain-rows" if dims else "scalar"
        out.append(Grid(run_start, run_end, entries, dims, (), "", label, notation))
        run.clear()

    a = start
    while a < end:
        b = text.find("\n", a, end)
        b = end if b < 0 else b
        row = _plain_row(text, a, b, limits)
        if row is None or (run and len(row) != len(run[0])):
            flush()
        if row is not None:
            if not run:
                run_start = row[0].at
            run.append(row)
            run_end = row[-1].at + len(row[-1].text)
        a = b + 1
    flush()
    return out


def prose_numbers(text: str, start: int, end: int, limits: Limits) -> list[Grid]:
    """Single numbers prose states with the word for their stage right before them (``（权重
    0.79）``): one number each, labelled with that word."""
    out = []
    for m in PROSE_NUMBER.regex.finditer(text, start, end):
        at = m.start("num")
        entry = _entry(m.group("num"), at, limits)
        out.append(Grid(at, m.end("num"), (entry,), (), (), "", m.group("phrase"), "scalar"))
    return out
