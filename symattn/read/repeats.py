"""A rounded number used again: ``[1.083/3.616, …]`` after ``Sum ≈ 3.616`` was found to be
the sum of rounded exponentials. The number written again as an ingredient of a formula is
the same number: it gets the same warning, saying where it was first found. A number found
wrong (an error) and used again is not a new error: the first finding says it.

Only numbers of three or more significant digits are matched (``0.5`` may be anything),
and only to a finding earlier in the text. A shorter number found written with fewer decimals
than its vector (``[0.331, 0.34, 0.329]``) is matched where a formula writes the whole vector
again, in order (``0.331*v_1 + 0.34*v_2 + 0.329*v_3``): the group is the evidence.
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


def _group(f: Finding) -> tuple[tuple[str, ...], int] | None:
    """The numbers of the vector a short ``precision-mixed`` number was found in (as written,
    in order) and its place among them, when the group says more than the number alone."""
    others = f.params.get("others") if f.code == "precision-mixed" else None
    if not isinstance(others, (list, tuple)) or f.claimed not in others or len(others) < 2:
        return None
    group = tuple(str(o) for o in others)
    if not any(_key(o) is not None for o in group):
        return None  # (all short: ``[0.5, 0.25]`` again may be anything)
    return group, group.index(f.claimed)


def _in_order(texts: list[str], group: tuple[str, ...]) -> list[int] | None:
    """The indices in ``texts`` of the numbers of ``group``, found in order, or None."""
    found: list[int] = []
    for i, t in enumerate(texts):
        if len(found) < len(group) and t == group[len(found)]:
            found.append(i)
    return found if len(found) == len(group) else None


def repeated(
    chains: Iterable[ChainText], findings: Sequence[Finding], census: Census
) -> list[Finding]:
    """A finding for each number a formula uses again after it was found wrong."""
    chains = list(chains)
    short = _short_repeats(chains, findings, census)
    findings = [*findings, *short]
    carried = [f for f in findings if f.code in _CARRIED and _key(f.claimed) is not None]
    if not carried:
        return short
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
        return short
    taken = {(f.line, f.column) for f in findings}
    out: list[Finding] = list(short)
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
            out.append(
                text_finding(
                    f.code,
                    line,
                    column,
                    text,
                    f.exact,
                    f.expected,
                    msg,
                    "repeat",
                    inexact=f.inexact,
                )
            )
    return out


def _short_repeats(
    chains: list[ChainText], findings: Sequence[Finding], census: Census
) -> list[Finding]:
    """The short ``precision-mixed`` numbers written again with their whole vector."""
    groups = [(f, g) for f in findings if _key(f.claimed) is None and (g := _group(f))]
    if not groups:
        return []
    taken = {(f.line, f.column) for f in findings}
    out: list[Finding] = []
    for chain in chains:
        offsets = [
            census.offsets[k]
            for at in chain.number_offsets()
            if (k := census.index(at)) is not None
        ]
        texts = [
            census.text(k) for at in chain.number_offsets() if (k := census.index(at)) is not None
        ]
        for f, (group, place) in groups:
            found = _in_order(texts, group)
            if found is None:
                continue
            line, column = census.src.position(offsets[found[place]])
            if (line, column) in taken or (line, column) <= (f.line, f.column):
                continue
            taken.add((line, column))
            # the vector is written again with its mixed decimals: the same sentence says it
            out.append(
                text_finding(
                    f.code,
                    line,
                    column,
                    f.claimed,
                    f.exact,
                    f.expected,
                    f.message,
                    "repeat",
                    inexact=f.inexact,
                )
            )
    return out
