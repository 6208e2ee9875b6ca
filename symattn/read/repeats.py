"""A number written again: the same number, reported where it is written again.

- **Carried** (:func:`carried`): a number found wrong (``wrong-value``, ``truncated``,
  ``approximate-constant``) or itself carried (``propagated-error``) and written again later —
  the weights matrix again in ``Output = [weights][V]``, ``Q`` and ``K^T`` again in
  ``QK^T = [Q][K^T] = …``, ``e^{7.09}`` after ``10/1.41 ≈ 7.09`` — is the author's earlier wrong
  number used again: no new error, but wrong for the exact value, so it is reported once as
  ``propagated-error`` naming the line of the number it repeats. A place already judged wrong
  on its own with the same claim and the same exact value, or the same correct rounding of it
  (a table restating a wrong softmax, judged against the author's rounded scores), is that
  repeat too: its finding becomes ``propagated-error``, naming its own code as the
  alternative. A number of a stage Level 2 judged right keeps that verdict.
- **Rounded** (:func:`repeated`): ``[1.083/3.616, …]`` after ``Sum ≈ 3.616`` was found to be
  the sum of rounded exponentials: the number written again gets the same warning.

What counts as the same number (the evidence, never a value alone when it is short):

- a number of three or more significant digits (``0.5`` may be anything), when the last time
  the text wrote that number before was the finding's own place or a repeat of it;
- an array written again whole, its entries in the same order, consecutive (or transposed, for
  a matrix: ``K^T`` after ``K``) — an array of four or more entries, or of enough digits
  (``[0.30, 0.37]``); when the last array written with those entries was not found wrong at an
  entry, that entry is not carried (``V = [[1, 2], [4, 3]]`` given, written again);
- the wrong numbers of one block (``α₁ ≈ 0.32, α₂ ≈ 0.68``, or a vector), or of one row of a
  matrix, each of two or more significant digits, written again in order in one formula
  (``0.32·v₁ + 0.68·v₂``);
- a number said again as a percentage right after it (``0.196 (19.6% …)``), on its line;
- a shorter number found written with fewer decimals than its vector
  (``[0.331, 0.34, 0.329]``), where a formula writes the whole vector again, in order
  (``0.331*v_1 + 0.34*v_2 + 0.329*v_3``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from symattn.errors import SymattnError
from symattn.judge.codes import CODES, FindingCode, Severity
from symattn.judge.findings import Finding, Message
from symattn.numbers import parse_number
from symattn.read.census import Census
from symattn.read.extract import ChainText
from symattn.read.facts import Fact
from symattn.read.messages import say
from symattn.read.report import text_finding
from symattn.read.roles import RoleName

__all__ = ["carried", "repeated"]

#: findings a repeated number carries (warnings: an error used again is no new error)
_CARRIED: Final = frozenset({FindingCode.PROPAGATED_ROUNDING, FindingCode.PRECISION_MIXED})
_MIN_DIGITS = 3
#: findings whose number, written again, is carried (a frame is counted once per text, a
#: definition is no claim, a row's sum is no number of the row)
_WRONG: Final = frozenset(
    {c.code for c in CODES if c.severity == Severity.ERROR}
    - {FindingCode.DK_MISMATCH, FindingCode.CONFLICTING_DEFINITION, FindingCode.NOT_NORMALIZED}
    | {FindingCode.PROPAGATED_ERROR}
)
_RANK: Final[Mapping[str, int]] = {c.code: i for i, c in enumerate(CODES)}
#: an array is evidence of itself when it has this many entries, or this many digits
_MIN_ENTRIES = 4
_MIN_ARRAY_DIGITS = 4
#: how far (times its length) an array interleaved with other numbers may spread in a formula
_SPREAD = 4
_CODE: Final = FindingCode.PROPAGATED_ERROR


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
    others = f.params.get("others") if f.code == FindingCode.PRECISION_MIXED else None
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


@dataclass(frozen=True)
class _Array:
    """An array as the text writes it: its numbers in order (or transposed) and where."""

    texts: tuple[str, ...]
    offsets: tuple[int, ...]
    #: it may be found with other numbers between its own (``0.32·[1,0] + 0.68·[0,1]``)
    interleaved: bool = False
    role: RoleName | None = None


#: the number at an offset is carried from a finding (True: it was reported so); the flag
#: says whether a finding of its own there may be restated as the repeat
_Repeat = Callable[[int, Finding, bool], bool]
#: the numbers a formula or an array writes: offsets, texts, role (None for a formula)
_Written = tuple[tuple[int, ...], list[str], RoleName | None]


def _significant(text: str) -> int:
    try:
        return parse_number(text).significant or 0
    except SymattnError:
        return 0


def _evident(texts: Sequence[str]) -> bool:
    """Whether an array written again is evidence that it is the same array."""
    return len(texts) >= 2 and (
        len(texts) >= _MIN_ENTRIES or sum(map(_significant, texts)) >= _MIN_ARRAY_DIGITS
    )


def _spelled(census: Census, ats: Iterable[int]) -> tuple[list[int], list[str]]:
    """The census offsets and texts of the numbers at ``ats`` (those the census holds)."""
    offsets, texts = [], []
    for at in ats:
        k = census.index(at)
        if k is not None:
            offsets.append(census.offsets[k])
            texts.append(census.text(k))
    return offsets, texts


def _arrays(facts: Sequence[Fact], census: Census, wrong: dict[int, Finding]) -> list[_Array]:
    """Every array the facts write (and a matrix transposed), and the wrong numbers of each
    block in order."""
    out: list[_Array] = []
    blocks: dict[int, set[int]] = {}
    for fact in facts:
        spots = [s for s in fact.spots if s is not None]
        offsets, texts = _spelled(census, (s.at for s in spots))
        blocks.setdefault(fact.block, set()).update(o for o in offsets if o in wrong)
        if len(offsets) != len(fact.spots) or not _evident(texts):
            continue
        out.append(_Array(tuple(texts), tuple(offsets), role=fact.role))
        rows, cols = fact.dims if len(fact.dims) == 2 else (0, 0)
        if min(rows, cols) >= 2 and rows * cols == len(texts):
            order = [r * cols + c for c in range(cols) for r in range(rows)]
            out.append(_Array(tuple(texts[i] for i in order), tuple(offsets[i] for i in order)))
            # (one row's wrong numbers, written again in one formula: ``0.34*v1 + 0.17*v2``)
            out.extend(_wrong_of(offsets[r * cols : (r + 1) * cols], wrong) for r in range(rows))
    out.extend(_wrong_of(sorted(members), wrong) for members in blocks.values())
    return [a for a in out if a.texts]


def _wrong_of(offsets: Sequence[int], wrong: dict[int, Finding]) -> _Array:
    """The wrong numbers at ``offsets``, in order, as an array whose entries may be written
    again with other numbers between them (empty unless two or more, each of two or more
    significant digits)."""
    offsets = [o for o in offsets if o in wrong]
    texts = [wrong[o].claimed for o in offsets]
    if len(offsets) < 2 or not all(_significant(t) >= 2 for t in texts):
        return _Array((), ())
    return _Array(tuple(texts), tuple(offsets), interleaved=True)


def _match(array: _Array, offsets: list[int], texts: list[str], i: int) -> list[int] | None:
    """The offsets of ``array`` written again from ``offsets[i]`` on, or None."""
    n = len(array.texts)
    if tuple(texts[i : i + n]) == array.texts:
        return offsets[i : i + n]
    if not array.interleaved:
        return None
    window = texts[i : i + _SPREAD * n]
    found = _in_order(window, array.texts)
    return [offsets[i + j] for j in found] if found is not None else None


def carried(
    chains: Iterable[ChainText],
    facts: Sequence[Fact],
    findings: Sequence[Finding],
    census: Census,
    judged: Iterable[int] = (),
) -> list[Finding]:
    """``findings`` with every wrong number written again reported as carried (see the module
    docstring); ``judged`` are the offsets of numbers Level 2 judged."""
    lines = {f.line for f in findings}
    where: dict[tuple[int, int], int] = {}
    for off, pos in zip(census.offsets, census.src.positions(census.offsets), strict=True):
        if pos[0] in lines:
            where[pos] = off
    placed: dict[int, list[int]] = {}  # offset -> indices of the findings there
    for i, f in enumerate(findings):
        at = where.get((f.line, f.column), where.get((f.line, f.column + 1)))
        if at is not None:
            placed.setdefault(at, []).append(i)
    wrong: dict[int, Finding] = {}
    for at, ids in placed.items():
        own = [findings[i] for i in ids if findings[i].code in _WRONG]
        if own:
            wrong[at] = min(own, key=lambda f: _RANK[f.code])
    if not wrong:
        return list(findings)
    out = list(findings)
    judged_at = {census.offsets[k] for a in judged if (k := census.index(a)) is not None}
    #: the finding each repeat goes back to (a repeat of a repeat names the first wrong number)
    origin: dict[tuple[int, int], Finding] = {}

    def repeat(at: int, source: Finding, restate: bool) -> bool:
        """Report the number at ``at`` as carried from ``source``; False when it is not."""
        source = origin.get((source.line, source.column), source)
        k = census.index(at)
        text = census.text(k) if k is not None else ""
        ids = placed.get(at, [])
        if ids:
            if not restate:
                return False
            same = [
                i
                for i in ids
                if out[i].severity == Severity.ERROR
                and out[i].claimed == source.claimed
                and _same_value(out[i], source)
            ]
            if not same or any(out[i].severity != Severity.ERROR for i in ids):
                return False
            for i in same:
                g = out[i]
                also = tuple(dict.fromkeys(c for c in (g.code, *g.alternatives) if c != _CODE))
                msg = _said(source)
                out[i] = replace(g, code=_CODE, severity="warning", message=msg, alternatives=also)
                origin[(g.line, g.column)] = source
            wrong[at] = out[same[0]]
            return True
        if at in judged_at or not text:
            return False
        line, column = census.src.position(at)
        msg = _said(source)
        f = text_finding(_CODE, line, column, text, source.exact, source.expected, msg, "repeat")
        f = replace(f, inexact=source.inexact)
        origin[(line, column)] = source
        placed[at] = [len(out)]
        out.append(f)
        wrong[at] = f
        return True

    # the written sequences (formulas and arrays), in the order of the text
    seqs: dict[tuple[int, ...], tuple[list[str], RoleName | None]] = {}
    for fact in facts:
        offs, texts = _spelled(census, (s.at for s in fact.spots if s is not None))
        seqs.setdefault(tuple(offs), (texts, fact.role))
    for chain in chains:
        offs, texts = _spelled(census, chain.number_offsets())
        seqs.setdefault(tuple(offs), (texts, None))
    ordered = sorted((offs, texts, role) for offs, (texts, role) in seqs.items() if offs)
    _arrays_again(ordered, _arrays(facts, census, wrong), wrong, repeat)
    _numbers_again(ordered, wrong, repeat)
    _percent_after(census, wrong, repeat)
    return out


def _same_value(g: Finding, source: Finding) -> bool:
    """Whether two findings on one claim name the same exact value, or exact values whose
    correct rounding at the claim's precision is the same (a matrix restating a row, judged
    against the author's rounded scores where the row was judged against the exact ones)."""
    if g.exact == source.exact:
        return True
    return g.expected is not None and g.expected == source.expected


#: the most characters between a number and the percentage that says it again
_PERCENT_REACH: Final = 24


def _percent_after(census: Census, wrong: dict[int, Finding], repeat: _Repeat) -> None:
    """A wrong number said again as a percentage right after it, on its line, before any
    other number (``0.196 (19.6% attention to "The")``): the same number in other units."""
    text = census.src.text
    for at, source in sorted(wrong.items()):
        k = census.index(at)
        if k is None or k + 1 >= len(census.offsets):
            continue
        nxt = census.offsets[k + 1]
        gap = text[at + len(census.text(k)) : nxt]
        pct = census.text(k + 1)
        end = nxt + len(pct)
        if len(gap) > _PERCENT_REACH or "\n" in gap or text[end : end + 1] not in ("%", "％"):
            continue
        try:
            same = parse_number(pct).value == parse_number(census.text(k)).value * 100
        except SymattnError:
            continue
        if same:
            repeat(nxt, source, False)


def _said(source: Finding) -> Message:
    return say(
        "repeat", claimed=source.claimed, line=source.line, exact=source.exact, code=source.code
    )


def _arrays_again(
    ordered: list[_Written], arrays: list[_Array], wrong: dict[int, Finding], repeat: _Repeat
) -> None:
    """Each array written again: its wrong entries carried (the last array written before with
    those entries decides). A wrong entry of its own is restated as the repeat only where the
    array written again is of the same stage (a table restating the weights), not where
    another stage happens to have the same entries (``V`` computed as wrongly as ``Q``)."""
    by_first: dict[str, list[_Array]] = {}
    # (the wrong numbers of a block, grouped, are the array a fact writes: its stage)
    roles = {a.offsets: a.role for a in arrays if a.role is not None}
    for a in sorted(arrays, key=lambda a: max(a.offsets)):
        by_first.setdefault(a.texts[0], []).append(a)
    for offs, texts, role in ordered:
        offsets = list(offs)
        for i, t in enumerate(texts):
            for a in reversed(by_first.get(t, ())):
                if max(a.offsets) >= offsets[i]:
                    continue
                found = _match(a, offsets, texts, i)
                if found is None:
                    continue
                restate = role is not None and role == (a.role or roles.get(a.offsets))
                for source_at, at in zip(a.offsets, found, strict=True):
                    source = wrong.get(source_at)
                    if source is not None and at != source_at:
                        repeat(at, source, restate)
                break


def _numbers_again(ordered: list[_Written], wrong: dict[int, Finding], repeat: _Repeat) -> None:
    """Each number of three or more significant digits written again after it was found wrong
    (and not written in between where it was not)."""
    seen = sorted({(o, t) for offs, texts, _ in ordered for o, t in zip(offs, texts, strict=True)})
    last: dict[str, Finding | None] = {}
    for at, text in seen:
        key = _key(text)
        if key is None:
            continue
        if at in wrong:
            last[key] = wrong[at]
            continue
        source = last.get(key)
        last[key] = wrong[at] if source is not None and repeat(at, source, False) else None
