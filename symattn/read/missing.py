"""What could not be checked for want of inputs, and what needs none.

When the text states weights or outputs but no problem could be rebuilt from it, one
``missing-input`` (info) says what was stated and not checked. Weights need no inputs to be
checked for one thing: a row of weights must sum to 1 within its roundings
(``not-normalized``), wherever it comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from symattn.judge.findings import Finding, Join, Message
from symattn.judge.quantities import Const
from symattn.judge.verdict import judge, normalization_gap
from symattn.read.facts import Fact
from symattn.read.inputs import gather
from symattn.read.kinds import OWN_NAMES, RoleSource, WrittenIn
from symattn.read.messages import fraction_text, not_checked, say
from symattn.read.notations import CAUSAL_TEXT
from symattn.read.observations import Spot
from symattn.read.report import Unparsed, text_finding
from symattn.read.roles import RoleName

__all__ = ["causal_weights", "key_counts", "missing_inputs", "unnormalized"]


def _rows(f: Fact) -> list[list[Spot]]:
    if not f.dims or any(s is None for s in f.spots):
        return []
    width = f.dims[-1]
    spots = [s for s in f.spots if s is not None]
    return [spots[i : i + width] for i in range(0, len(spots), width)]


#: the inputs whose rows are the keys (K, V), and, when the text gives neither, the tokens
_KEY_ROLES: Final = (frozenset({RoleName.K, RoleName.V, RoleName.KV}), frozenset({RoleName.X}))


def key_counts(facts: Sequence[Fact]) -> frozenset[int]:
    """How many keys the inputs the text gives have: the rows of a given K or V (of X when it
    gives neither), or how many numbered k or v vectors (x vectors) it gives. Empty when the
    text gives no such input."""
    for roles in _KEY_ROLES:
        counts: set[int] = set()
        numbered: dict[str, set[int]] = {}
        for f in facts:
            if not f.given or f.role not in roles or f.elided:
                continue
            if len(f.dims) == 2 and f.index is None:
                counts.add(f.dims[0])
            elif len(f.dims) == 1 and f.index is not None:
                numbered.setdefault(f.role, set()).add(f.index)
        counts |= {len(ix) for ix in numbered.values() if len(ix) > 1}
        if counts:
            return frozenset(counts)
    return frozenset()


def _one_slip(row: Sequence[Spot]) -> bool:
    """Whether one entry, written wrongly, can be all that keeps the row from summing to 1:
    the others (each in [0, 1]) leave room for a weight in [0, 1]."""
    values = [s.written.value for s in row]
    rest = sum(values, Fraction(0)) - max(values)
    return rest <= 1


def _not_weights(f: Fact, rows: Sequence[Sequence[Spot]], keys: frozenset[int]) -> Message | None:
    """Why the numbers of ``f`` say it is no array of attention weights (None when they do
    not contradict it): a row of weights has one entry per key, and a slip (one wrong entry
    in a row, a wrong row among right ones) explains a row that does not sum to 1, not an
    array most of whose rows do not."""
    width = len(rows[0])
    if keys and width not in keys:
        counts = Join(tuple(sorted(keys)), not_checked("or"))
        return not_checked("keys-mismatch", width=width, counts=counts)
    off = [r for r in rows if normalization_gap([s.written for s in r]) is not None]
    if len(rows) > 1 and 2 * len(off) > len(rows):
        return not_checked("rows-off", off=len(off), rows=len(rows))
    if any(not _one_slip(r) for r in off):
        return not_checked("row-over")
    return None


def unnormalized(
    facts: Sequence[Fact],
    judged: frozenset[int],
    *,
    accused: frozenset[tuple[int, int]] = frozenset(),
    right: frozenset[tuple[int, int]] = frozenset(),
) -> tuple[list[Finding], list[Unparsed]]:
    """``not-normalized`` for each row of stated weights (not judged in a problem) whose
    written values cannot sum to 1, where the numbers confirm they are weights; for an array
    whose numbers say otherwise (:func:`_not_weights`), why it was not checked.

    The finding is the row's: it is put on the entries of the row that are ``accused``
    already (by line and column: their wrong values are why the row cannot sum to 1, the
    finding is a cause of theirs), else on those not judged; never on an entry judged
    ``right``."""
    out: list[Finding] = []
    notes: list[Unparsed] = []
    keys = key_counts(facts)
    for f in facts:
        if f.role is not RoleName.WEIGHTS or f.given or f.elided or len(f.dims) not in (1, 2):
            continue
        if (
            f.source not in OWN_NAMES
            or (f.how is WrittenIn.PRINTOUT and f.source is not RoleSource.CODE)
            or any(s is not None and not 0 <= s.written.value <= 1 for s in f.spots)
        ):
            continue  # only weights the text (or its code) says are weights, each in [0, 1]
        rows = [r for r in _rows(f) if len(r) >= 2 and not all(s.at in judged for s in r)]
        if not rows or all(normalization_gap([s.written for s in r]) is None for r in rows):
            continue
        why = _not_weights(f, rows, keys)
        if why:
            notes.append(
                Unparsed(
                    rows[0][0].line,
                    f.name or "array",
                    not_checked("not-weights", why=why),
                )
            )
            continue
        for row in rows:
            out.extend(_row_findings(_wrong_part(row, accused, right)))
    return out, notes


def _wrong_part(
    row: Sequence[Spot], accused: frozenset[tuple[int, int]], right: frozenset[tuple[int, int]]
) -> tuple[Sequence[Spot], Sequence[Spot]]:
    """The row, and the entries of it a ``not-normalized`` finding may stand on: those
    accused already, else those not judged right."""
    wrong = [s for s in row if (s.line, s.column) in accused]
    return row, wrong or [s for s in row if (s.line, s.column) not in right]


def _row_findings(part: tuple[Sequence[Spot], Sequence[Spot]]) -> list[Finding]:
    """``not-normalized`` on each entry of ``part[1]`` (of the row ``part[0]``, whose written
    values cannot sum to 1); the first names the sum of the whole row."""
    row, on = part
    gap = normalization_gap([s.written for s in row])
    if gap is None or not on:
        return []
    total, lo, hi = gap
    msg = say(
        "not-normalized",
        sum=fraction_text(total),
        low=fraction_text(lo),
        high=fraction_text(hi),
    )
    first = on[0]
    out = [
        text_finding(
            "not-normalized",
            first.line,
            first.column,
            " + ".join(s.written.text for s in row),
            "1",
            "1",
            msg,
            "not-normalized",
        )
    ]
    out.extend(
        text_finding(
            "not-normalized",
            s.line,
            s.column,
            s.written.text,
            "",
            None,
            msg,
            "not-normalized",
        )
        for s in on[1:]
    )
    return out


#: the stated results a missing-input note names
_RESULTS: Final = frozenset({RoleName.WEIGHTS, RoleName.OUTPUT})
#: inputs enough for the scores: Q and K, or X with W_Q and W_K
_QK: Final = frozenset({RoleName.Q, RoleName.K})
_XW: Final = frozenset({RoleName.X, RoleName.W_Q, RoleName.W_K})


def missing_inputs(facts: Sequence[Fact]) -> list[Finding]:
    """One ``missing-input`` (info) saying which stated weights and outputs were not checked:
    for want of inputs, or, where the text gives them, for want of the row they are for."""
    stated = [f for f in facts if f.role in _RESULTS and not f.given and f.spots]
    if not any(f.dims for f in stated):
        return []  # single numbers alone (``z ≈ 0.5``) say too little to call them attention
    what: list[Message] = []
    weights = [s for f in stated if f.role is RoleName.WEIGHTS for s in f.spots if s is not None]
    if weights:
        shown = tuple(dict.fromkeys(s.written.text for s in weights))[:12]
        what.append(say("what-weights", values=Join(shown)))
    for f in stated:
        if f.role is RoleName.OUTPUT:
            texts = [s.written.text for s in f.spots if s is not None][:12]
            what.append(say("what-output", values="[" + ", ".join(texts) + "]"))
    first = min((s for f in stated for s in f.spots if s is not None), key=lambda s: s.at)
    roles = {r for i in gather(facts).values() for r in i.roles}
    given = _QK <= roles or _XW <= roles
    key = "missing-placed" if given else "missing-input"
    msg = say(key, what=Join(tuple(what[:6]), say("and")))
    return [
        text_finding(
            "missing-input",
            first.line,
            first.column,
            first.written.text,
            "?",
            None,
            msg,
            "missing-input",
        )
    ]


def causal_weights(facts: Sequence[Fact], judged: frozenset[int]) -> list[tuple[int, Finding]]:
    """Stated weights whose own name says they are causal (``Causal attention weights:``), not
    judged in a problem, checked against what the mask alone decides, whatever the inputs:
    a query gives every later key the weight 0, and the first query its only key the weight
    1. The other entries need the inputs (``missing-input`` says so). Each finding comes with
    the offset of its number (judged, for the census)."""
    out: list[tuple[int, Finding]] = []
    for f in facts:
        if (
            f.role is not RoleName.WEIGHTS
            or f.given
            or len(f.dims) != 2
            or f.dims[0] != f.dims[1]
            or f.dims[0] < 2
            or f.source not in _NAMED
            or CAUSAL_TEXT.first(f.name) is None
        ):
            continue
        n = f.dims[0]
        for i in range(n):
            for j in range(n):
                s = f.spots[i * n + j]
                if s is None or s.at in judged or (j < i or (j == i and i > 0)):
                    continue
                value = Const(Fraction(1 if i == j else 0))
                if judge(s.written, value).code is None:
                    continue  # (right whatever the inputs; the rest of the row is not known)
                key = "causal-first" if i == j else "causal-masked"
                msg = say(key, row=i + 1, later=j + 1)
                exact = "1" if i == j else "0"
                finding = text_finding(
                    "wrong-value", s.line, s.column, s.written.text, exact, exact, msg, key
                )
                out.append((s.at, finding))
    return out


#: where the role of weights checked by their causal name may come from: the author's words
#: for the array itself (its name, its label) or the code that computes it
_NAMED: Final = frozenset({RoleSource.NAME, RoleSource.LABEL, RoleSource.CODE})
