"""A rounded number used again: ``[1.083/3.616, …]`` after ``Sum ≈ 3.616`` was found to be
the sum of rounded exponentials. The number written again as an ingredient of a formula is
the same number: it gets the same warning, saying where it was first found. A number found
wrong (an error) and used again is not a new error: the first finding says it.

Only numbers of three or more significant digits are matched (``0.5`` may be anything),
and only to a finding earlier in the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from symattn.errors import SymattnError
from symattn.judge.findings import Finding
from symattn.numbers import parse_number
from symattn.read.census import Census
from symattn.read.extract import ChainText
from symattn.read.messages import say
from symattn.read.report import text_finding

__all__ = ["repeated"]

#: findings a repeated number carries (warnings: an error used again is no new error)
_CARRIED = ("propagated-rounding", "precision-mixed")
_MIN_DIGITS = 3


def _key(text: str) -> str | None:
    try:
        w = parse_number(text)
    except SymattnError:
        return None
    if (w.significant or 0) < _MIN_DIGITS:
        return None
    return str(w.value)


def repeated(
    chains: Iterable[ChainText], findings: Sequence[Finding], census: Census
) -> list[Finding]:
    """A finding for each number a formula uses again after it was found wrong."""
    carried = [f for f in findings if f.code in _CARRIED and _key(f.claimed) is not None]
    if not carried:
        return []
    # where each carried finding's number is (the census's positions, for those lines only)
    lines = {f.line for f in carried}
    where: dict[tuple[int, int], int] = {}
    for i, pos in enumerate(census.src.positions(census.offsets)):
        if pos[0] in lines:
            where[pos] = census.offsets[i]
    first: dict[str, tuple[int, Finding]] = {}
    for f in carried:
        at = where.get((f.line, f.column)) or where.get((f.line, f.column + 1))
        key = _key(f.claimed)
        if at is None or key is None:
            continue
        if key not in first or first[key][0] > at:
            first[key] = (at, f)
    if not first:
        return []
    taken = {(f.line, f.column) for f in findings}
    out: list[Finding] = []
    for chain in chains:
        for at in chain.number_offsets():
            k = census.index(at)
            if k is None or census.status[k] == 2:
                continue
            text = census.text(k)
            key = _key(text)
            offset = census.offsets[k]
            if key is None or key not in first or first[key][0] >= offset:
                continue
            line, column = census.src.position(offset)
            if (line, column) in taken:
                continue
            taken.add((line, column))
            f = first[key][1]
            msg = say("repeat", claimed=f.claimed, line=f.line, exact=f.exact, code=f.code)
            out.append(text_finding(f.code, line, column, text, f.exact, f.expected, msg, "repeat"))
    return out
