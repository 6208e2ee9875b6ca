"""One pass over a text's lines: the inputs it gives and the claims it makes in prose.

Vectors (``q_1 = [1, 2]``), tables (Markdown pipes, LaTeX ``a & b \\\\``, plain columns) of
Q/K/V or of embeddings, weight matrices (``W_Q = [[…]]``, or a ``W^Q`` heading over rows),
single weights (``w_1 … ≈ 0.82``) and prose claims (``注意力权重： […]``), each number kept with
its line and column (:class:`~symattn.read.observations.Scan`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.numbers import parse_number
from symattn.read.notations import (
    CELL_GAP,
    MARKUP,
    NUMBER,
    PROSE_RULES,
    QKV_HEADER,
    TABLE_RULE_NAMES,
    VECTOR,
    VECTOR_DEFINITION,
    W_DEFINITION,
    W_HEADER,
    WEIGHT_LINE,
    X_HEADER,
)
from symattn.read.observations import Row, Scan, Spot
from symattn.read.tokens import normalize

__all__ = ["scan"]

#: the table being read: (kind, roles): ("qkv", ("Q", "K", "V")), ("x", ("X",)), ("w", ("W_Q",))
_Table = tuple[str, tuple[str, ...]]

_BLANK_MARKUP: Final = str.maketrans({c: " " for c in MARKUP.chars})


@dataclass
class _Found:
    """What the scan found so far (local to one call of :func:`scan`)."""

    vectors: dict[str, dict[str, Row]] = field(default_factory=lambda: {"Q": {}, "K": {}, "V": {}})
    names: dict[str, str] = field(default_factory=dict)
    table: dict[str, dict[str, Row]] = field(default_factory=dict)
    x: dict[str, Row] = field(default_factory=dict)
    w: dict[str, list[Row]] = field(default_factory=dict)
    prose: list[tuple[str, Row]] = field(default_factory=list)
    weights: list[tuple[str, Spot]] = field(default_factory=list)

    def freeze(self) -> Scan:
        return Scan(
            MappingProxyType({r: MappingProxyType(d) for r, d in self.vectors.items()}),
            MappingProxyType(self.names),
            MappingProxyType({t: MappingProxyType(d) for t, d in self.table.items()}),
            MappingProxyType(self.x),
            MappingProxyType({r: tuple(rows) for r, rows in self.w.items()}),
            tuple(self.prose),
            tuple(self.weights),
        )


def _clean(raw: str) -> tuple[str, tuple[int, ...]]:
    """A line in the grammar's spelling with ``$``, braces and backslashes blanked out."""
    norm, where = normalize(raw)
    return norm.translate(_BLANK_MARKUP), where


def _spots(
    text: str, start: int, end: int, line: int, where: tuple[int, ...], limits: Limits
) -> Row:
    out = []
    for m in NUMBER.regex.finditer(text, start, end):
        out.append(Spot(parse_number(m.group(), limits=limits), line, where[m.start()] + 1))
    return tuple(out)


def _rows_of(
    text: str, start: int, end: int, line: int, where: tuple[int, ...], limits: Limits
) -> list[Row]:
    return [
        _spots(text, m.start(), m.end(), line, where, limits)
        for m in VECTOR.regex.finditer(text, start + 1, end)
    ]


def _cells(raw: str, clean: str) -> list[str]:
    """The cells of a table row: Markdown pipes, LaTeX ``a & b \\\\``, tabs or two or more
    spaces."""
    body = clean.strip()
    if body.startswith("|"):
        return [c.strip() for c in body.strip("|").split("|")]
    latex = raw.rstrip()
    if "&" in latex or latex.endswith("\\\\"):
        latex = latex.removesuffix("\\\\")
        return [_clean(c)[0].strip() for c in latex.split("&")]
    return [c.strip() for c in CELL_GAP.regex.split(body)]


def scan(text: str, limits: Limits) -> Scan:
    """Inputs and prose claims, line by line (bounded: one pass, lines capped by the limits).

    A line whose numbers cannot be read within the limits (``1e999999999``) is left out, and
    ends the table it is in.
    """
    found = _Found()
    table: _Table | None = None
    for li, raw in enumerate(text.splitlines()[: limits.max_elements], start=1):
        if len(raw) > limits.max_line_length:
            continue
        try:
            table = _scan_line(found, table, raw, li, limits)
        except SymattnError:
            table = None
    return found.freeze()


def _table_row(
    found: _Found,
    table: _Table,
    cells: list[str],
    clean: str,
    li: int,
    where: tuple[int, ...],
    limits: Limits,
) -> _Table | None:
    """A row of the table being read (the table goes on), or None (the table has ended)."""
    kind, roles = table
    vecs = list(VECTOR.regex.finditer(clean))
    if all(set(c) <= set("-: ") or c in TABLE_RULE_NAMES for c in cells):
        return table  # a Markdown separator row, or a LaTeX rule (``\\hline``)
    if any("…" in c or c == "..." for c in cells):
        return table
    width = len(roles) if kind != "w" else 1
    if (
        len(cells) == width + (kind != "w")
        and len(vecs) == width
        and (kind == "w" or not VECTOR.regex.search(cells[0]))
    ):
        rows = [_spots(clean, m.start(), m.end(), li, where, limits) for m in vecs]
        if kind == "w":
            found.w.setdefault(roles[0], []).append(rows[0])
        elif kind == "x":
            found.x.setdefault(cells[0], rows[0])
        else:
            entry = found.table.setdefault(cells[0], {})
            for role, row in zip(roles, rows, strict=False):
                entry.setdefault(role, row)
        return table
    return None


def _table_head(found: _Found, cells: list[str]) -> _Table | None:
    """The table a heading row begins: Q/K/V columns, embeddings, or a weight matrix."""
    heads = [c.strip().lower() for c in cells[1:]]
    w_head = W_HEADER.regex.match(cells[0].strip()) if len(cells) == 1 else None
    if heads and all(h in QKV_HEADER for h in heads):
        return ("qkv", tuple(QKV_HEADER[h] for h in heads))
    if len(cells) == 2 and X_HEADER.regex.match(cells[1].strip()):
        return ("x", ("X",))
    if w_head is not None and not found.w.get("W_" + w_head.group("role")):
        return ("w", ("W_" + w_head.group("role"),))
    return None


def _scan_line(
    found: _Found, table: _Table | None, raw: str, li: int, limits: Limits
) -> _Table | None:
    """Read one line into ``found``; the table being read after it."""
    clean, where = _clean(raw)
    cells = _cells(raw, clean)
    if table is not None:
        table = _table_row(found, table, cells, clean, li, where, limits)
        if table is not None:
            return table
    if not VECTOR.regex.search(clean) and len(cells) >= 1:
        head = _table_head(found, cells)
        if head is not None:
            return head
    for m in VECTOR_DEFINITION.regex.finditer(clean):
        role, idx = m.group("role").upper(), m.group("idx").strip()
        found.vectors[role].setdefault(
            idx, _spots(clean, m.start("vec"), m.end("vec"), li, where, limits)
        )
        if m.group("tok"):
            found.names.setdefault(idx, m.group("tok").strip())
    for m in W_DEFINITION.regex.finditer(clean):
        found.w.setdefault(
            "W_" + m.group("role"), _rows_of(clean, m.start("mat"), m.end("mat"), li, where, limits)
        )
    if (wm := WEIGHT_LINE.regex.search(clean)) is not None:
        spot = _spots(clean, wm.start("num"), wm.end("num"), li, where, limits)[0]
        found.weights.append((wm.group("idx").strip(), spot))
    for rule in PROSE_RULES:
        for m in rule.regex.finditer(clean):
            group = "vec" if m.groupdict().get("vec") else "num" if m.groupdict().get("num") else ""
            if group:
                found.prose.append(
                    (rule.kind, _spots(clean, m.start(group), m.end(group), li, where, limits))
                )
    return None
