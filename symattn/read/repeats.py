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
    where = {census.src.position(k): k for k in census.keys}
    first: dict[str, tuple[int, Finding]] = {}
    for f in findings:
        at = where.get((f.line, f.column)) or where.get((f.line, f.column + 1))
        key = _key(f.claimed) if f.code in _CARRIED else None
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
            k = census._key(at)
            if census.status.get(k) == "judged" or k not in census.numbers:
                continue
            key = _key(census.numbers[k])
            if key is None or key not in first or first[key][0] >= k:
                continue
            line, column = census.src.position(k)
            if (line, column) in taken:
                continue
            taken.add((line, column))
            f = first[key][1]
            msg = say("repeat", claimed=f.claimed, line=f.line, exact=f.exact, code=f.code)
            out.append(
                text_finding(
                    f.code, line, column, census.numbers[k], f.exact, f.expected, msg, "repeat"
                )
            )
    return out
