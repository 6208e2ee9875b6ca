"""A query row printed on its own says which query the one-row claims after it are for.

A decode step prints ``Q for last token: tensor([[-0.2345, 0.6789, …]])`` and then one row of
scores, weights and output: the row of Q it restates, number for number, is the query they
are about (numbers over names: "last token" is not read; the numbers say which row it is).
:func:`restated_query_rows` numbers those claims with that row, as ``scores of row 4`` would,
until another query row is printed or the text moves on (a few blocks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Final

from symattn.read.facts import Fact
from symattn.read.roles import RoleName

__all__ = ["restated_query_rows"]

#: the stages of a query row a printed query row numbers
_ROW_CLAIMS: Final = frozenset(
    {RoleName.SCORES, RoleName.SCALED, RoleName.EXP, RoleName.WEIGHTS, RoleName.OUTPUT}
)
#: how many blocks after the query row its claims may be written
_REACH: Final = 3


def restated_query_rows(facts: Sequence[Fact]) -> list[Fact]:
    """``facts`` (in text order) with the one-row claims after a printed row of Q numbered by
    that row (1-based; not in a text that counts its rows from 0)."""
    out = list(facts)
    if any(f.index == 0 for f in facts):
        return out
    matrices = [f for f in facts if f.role is RoleName.Q and len(f.dims) == 2 and f.given]
    current: tuple[int, int] | None = None  # (row, block)
    for i, f in enumerate(out):
        if f.role is RoleName.Q and len(f.dims) == 1 and f.index is None and not f.token:
            current = _restated(f, [m for m in matrices if m.at < f.at])
            continue
        if current is None or f.block - current[1] > _REACH:
            current = None
            continue
        if f.role in _ROW_CLAIMS and len(f.dims) == 1 and f.index is None and not f.token:
            out[i] = replace(f, index=current[0] + 1)
    return out


def _restated(f: Fact, matrices: Sequence[Fact]) -> tuple[int, int] | None:
    """The row of the latest Q before ``f`` that ``f`` writes again, number for number."""
    mine = _values(f)
    if mine is None:
        return None
    for m in reversed(matrices):
        values = _values(m)
        if values is None or len(values) % len(mine):
            continue
        width = len(mine)
        rows = [values[k : k + width] for k in range(0, len(values), width)]
        if m.dims[1] != width:
            continue
        found = [r for r, row in enumerate(rows) if row == mine]
        if len(found) == 1:
            return found[0], f.block
    return None


def _values(f: Fact) -> list[Fraction] | None:
    if any(s is None for s in f.spots):
        return None
    return [s.written.value for s in f.spots if s is not None]
