"""Stage 3a′: the roles of the facts, confirmed (or corrected) by reproduction.

The facts come with roles read from words (:mod:`~symattn.read.facts`); here every complete
array is a :class:`~symattn.read.reproduce.Candidate` and the relations of attention are tried
between neighbours (:func:`~symattn.read.reproduce.search`). What the numbers confirm wins over
what the words say, where the words are only words (a heading, a phrase, the prose before the
array: :data:`WORD_SOURCES`); an array the author names itself keeps its name and is judged
as such. A text's own name is never given to numbers that contradict it.

- in a text that gives no Q, K, V or X, a row that is the softmax of a row before it is the
  weights, and that row the scores (a problem that starts from scores:
  ``原始分数：[…] → Softmax 后：[…]``, ``[3.1, 0.4, -inf] → […]``);
- an array that is an earlier array written again (V rows under ``## Output``) is no claim;
- scores named by words only that are the scores before them scaled (``QK^T / sqrt(d_k) ≈
  [[1.414, …]]`` under ``[[2, 8, 14], …]``) are the scaled scores;
- a row that is ``exp(s − max)`` of the scores (the stable softmax) is not the exponentials
  ``check`` computes (``exp(s)``): it is read as that relation, and said so;
- weights that are the scores divided by their sum (plain normalisation, a frame of their
  own) rather than their softmax are judged in that frame: reproduced, they are right and
  not judged as softmax; the report says the frame once. Not when their own label says
  softmax (``Softmax 后：10% 30% 60%``): that is the author's claim, judged as a softmax.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Final

from symattn.judge.findings import Join
from symattn.read.facts import INPUT_ROLES, Fact
from symattn.read.kinds import RoleSource
from symattn.read.messages import not_checked
from symattn.read.notations import SOFTMAX_VALUE
from symattn.read.notations.roles import SOFTMAX_NAMED
from symattn.read.report import Unparsed
from symattn.read.reproduce import (
    Candidate,
    FrameKind,
    Match,
    Relation,
    Search,
    Tally,
    frames,
    search,
)
from symattn.read.roles import RoleName

__all__ = [
    "WORD_SOURCES",
    "Confirmed",
    "candidate_of",
    "confirm_roles",
    "reproduced_notes",
    "says_softmax",
]

#: where a role read from words only comes from (the prose or heading before the array, a
#: role inherited from the step before): the numbers overrule these; a name, a label or a
#: table header is the author's own word for the array, judged as such
WORD_SOURCES: Final = frozenset({RoleSource.CONTEXT, RoleSource.INHERITED})

#: the stages a reproduced row may be given (weights, the scores before them)
_SCORE_ROLES: Final = frozenset({RoleName.SCORES, RoleName.SCALED})
#: the roles a product of scores and another array (no softmax between) is mistaken for
_PRODUCT_ROLES: Final = frozenset({RoleName.OUTPUT, RoleName.SCORES})


@dataclass(frozen=True)
class Confirmed:
    """The facts with their roles decided, and what reproduction said of each it changed."""

    facts: tuple[Fact, ...]
    #: (fact index, the match that decided it)
    decided: tuple[tuple[int, Match], ...] = ()
    #: the relation search stopped at its budget
    stopped: bool = False
    #: the first fact it left untried (its roles, and those after it, are the words')
    untried: int | None = None


def candidate_of(key: int, f: Fact) -> Candidate | None:
    """A fact as a candidate: a complete vector or matrix (masked entries allowed)."""
    if f.elided or len(f.dims) not in (1, 2) or not f.spots:
        return None
    width = f.dims[-1]
    if width == 0 or len(f.spots) != (f.dims[0] if len(f.dims) == 1 else f.dims[0] * width):
        return None
    masked = f.masked or (False,) * len(f.spots)
    if any(s is None and not m for s, m in zip(f.spots, masked, strict=False)):
        return None
    cells = tuple(s.written if s is not None else None for s in f.spots)
    rows = tuple(cells[i : i + width] for i in range(0, len(cells), width))
    return Candidate(key, rows, f.at)


def _divisors(facts: Sequence[Fact]) -> list[Fraction]:
    return [
        s.written.value
        for f in facts
        if f.role in (RoleName.DIVISOR,) and f.dims == () and f.spots and (s := f.spots[0])
    ]


def _integers(f: Fact) -> bool:
    """Whether every entry is written as an integer."""
    return all(s is None or s.written.decimals == 0 for s in f.spots)


def _another(facts: Sequence[Fact], key: int, src: int) -> bool:
    """Whether fact ``key``, which repeats fact ``src``, repeats something else than itself:
    an input (V rows under ``## Output``) or a claim of another stage; not when some earlier
    array with the same numbers has its stage (a claim written twice: each a layer)."""
    s, f = facts[src], facts[key]
    if not (s.given or s.role in INPUT_ROLES or (s.role and s.role != f.role)):
        return False
    mine = [sp.written.value if sp else None for sp in f.spots]
    return not any(
        g.role == f.role and [sp.written.value if sp else None for sp in g.spots] == mine
        for g in facts[:key]
        if g.at < f.at
    )


def says_softmax(f: Fact) -> bool:
    """Whether the array's own label says it is a softmax (``Softmax 后：``): then numbers
    that are the plain normalisation s / Σs are the author's claim of a softmax, judged as
    one, not a frame of their own (a label that only says weights, or normalised, leaves
    that frame to the numbers)."""
    return f.source is RoleSource.LABEL and (
        SOFTMAX_NAMED.regex.search(f.name) is not None
        or SOFTMAX_VALUE.regex.search(f.name) is not None
    )


def confirm_roles(facts: Sequence[Fact], d_k: int | None = None) -> Confirmed:
    """The facts, with the roles their numbers confirm where only words gave one. Only the
    arrays a decision could change are tried, each with the relations that decide it."""
    cands = [c for i, f in enumerate(facts) if (c := candidate_of(i, f)) is not None]
    keys = {f.dims[-1] for f in facts if f.role in (RoleName.K, RoleName.Q) and f.dims}
    widths = sorted(keys | ({d_k} if d_k else set()))
    all_frames = frames(widths, _divisors(facts))
    # (scores and their softmax make a problem of their own only where the text gives no
    # Q, K, V or X: otherwise the scores are a claim of that problem, placed by their names)
    given = any(f.given and f.role in INPUT_ROLES for f in facts)
    free = [c.key for c in cands if not facts[c.key].given]
    real = [k for k in free if not _integers(facts[k])]
    keyed = {c.key for c in cands}
    tries = (
        (
            frozenset({Relation.SAME}),
            (all_frames[0],),
            [k for k in free if facts[k].role and facts[k].source in WORD_SOURCES],
        ),
        (
            frozenset({Relation.WEIGHTS}),
            all_frames,
            []
            if given
            else [
                k
                for k in real
                if facts[k].role != RoleName.WEIGHTS
                and (facts[k].source in WORD_SOURCES or not facts[k].role)
            ],
        ),
        (
            # (scores that are an earlier array scaled: the scaled scores; by words only, or
            # under a letter, ``S = [[0.69, …]]`` below ``Scaled scores``, every entry so)
            frozenset({Relation.SCALED}),
            all_frames,
            [
                c.key
                for c in cands
                if facts[c.key].role == RoleName.SCORES and not _integers(facts[c.key])
            ],
        ),
        (
            frozenset({Relation.EXP, Relation.SHIFTED}),
            all_frames,
            [k for k in real if facts[k].role == RoleName.EXP],
        ),
        (
            # (the weights tried against softmax and against plain normalisation S / ΣS)
            frozenset({Relation.WEIGHTS, Relation.NORMALIZED}),
            all_frames,
            [
                i
                for i, f in enumerate(facts)
                if f.role == RoleName.WEIGHTS and not _integers(f) and i in keyed
            ],
        ),
        (
            # (outputs or scores, by name or words, that are an array of scores times
            # another, no softmax between: the author's frame, unnormalised attention
            # ``(QKᵀ)V``, not check's softmax attention)
            frozenset({Relation.OUTPUT}),
            all_frames[:1],
            [k for k in free if facts[k].role in _PRODUCT_ROLES],
        ),
    )
    # (the given arrays and the scores are sources of a product however far before it)
    anchors = frozenset(
        c.key for c in cands if facts[c.key].given or facts[c.key].role in _SCORE_ROLES
    )
    out = list(facts)
    decided: list[tuple[int, Match]] = []
    stopped, untried = False, None
    for wanted, fs, targets in tries:
        if not targets:
            continue
        found: Search = search(
            cands,
            fs,
            wanted=wanted,
            targets=frozenset(targets),
            anchors=anchors,
        )
        if found.stopped and not stopped:
            stopped, untried = True, found.untried
        for key, m in sorted(found.found.items()):
            if any(k == key for k, _ in decided):
                continue
            f, src = out[key], m.sources[0]
            if m.relation is Relation.SAME:
                if f.role not in INPUT_ROLES and _another(facts, key, src):
                    out[key] = replace(f, role=None, source=RoleSource.REPRODUCED)
                    decided.append((key, m))
            elif (
                m.relation is Relation.WEIGHTS
                and len(m.sources) == 1
                and f.role != RoleName.WEIGHTS  # (weights that are softmax stay as named)
            ):
                s = out[src]
                if s.role is None or s.role in _SCORE_ROLES:
                    out[key] = replace(f, role=RoleName.WEIGHTS, source=RoleSource.REPRODUCED)
                    decided.append((key, m))
                    if not s.role:
                        # (softmax of the row itself: the logits; of the row scaled: scores)
                        unscaled = m.frame is None or m.frame.kind is FrameKind.NONE
                        stage = RoleName.SCALED if unscaled else RoleName.SCORES
                        out[src] = replace(s, role=stage, source=RoleSource.REPRODUCED)
            elif (
                m.relation is Relation.SCALED
                and f.role == RoleName.SCORES
                and m.frame is not None
                and m.frame.kind is not FrameKind.NONE
                and out[m.sources[0]].role in (RoleName.SCORES, None)
                and (f.source in WORD_SOURCES or m.tally.reproduced == m.tally.compared)
            ):
                out[key] = replace(f, role=RoleName.SCALED, source=RoleSource.REPRODUCED)
                decided.append((key, m))
            elif m.relation is Relation.NORMALIZED and len(m.sources) == 1:
                if (out[src].role is None or out[src].role in _SCORE_ROLES) and not says_softmax(f):
                    # s / Σs: the author's frame, not check's softmax; judged in it
                    out[key] = replace(f, role=None, source=RoleSource.REPRODUCED)
                    decided.append((key, m))
            elif m.relation is Relation.OUTPUT and len(m.sources) == 2:
                if out[src].role in _SCORE_ROLES and m.tally.reproduced == m.tally.compared:
                    out[key] = replace(f, role=None, source=RoleSource.REPRODUCED)
                    decided.append((key, m))
            elif m.relation is Relation.SHIFTED:
                # exp(s − max): not check's exp(s); read as the stable softmax, not accused
                out[key] = replace(f, role=None, source=RoleSource.REPRODUCED)
                decided.append((key, m))
    sums = _shifted_sums(out, decided)
    for key, _ in sums:
        out[key] = replace(out[key], role=None, source=RoleSource.REPRODUCED)
    decided += sums
    return Confirmed(tuple(out), tuple(decided), stopped, untried)


def _shifted_sums(
    facts: Sequence[Fact], decided: Sequence[tuple[int, Match]]
) -> list[tuple[int, Match]]:
    """The sum written next after a row read as exp(s − max) (before the next array), when
    it is the sum of that row as written: the stable softmax's sum, not check's Σ exp(s)."""
    out: list[tuple[int, Match]] = []
    arrays = sorted(f.at for f in facts if f.dims)
    for key, m in decided:
        if m.relation is not Relation.SHIFTED:
            continue
        row = facts[key]
        later = [a for a in arrays if a > row.at]
        end = later[0] if later else 1 << 62
        sums = [
            i
            for i, g in enumerate(facts)
            if g.role == RoleName.SUM and g.dims == () and row.at < g.at < end and g.spots
        ]
        spots = [s for s in row.spots if s is not None]
        if not sums or len(spots) != len(row.spots):
            continue
        i = sums[0]
        claimed = facts[i].spots[0]
        if claimed is None:
            continue
        total = sum((s.written.value for s in spots), Fraction(0))
        slack = sum((s.written.half_unit or Fraction(0) for s in spots), Fraction(0))
        slack += claimed.written.half_unit or Fraction(0)
        if abs(claimed.written.value - total) <= slack:
            out.append((i, Match(Relation.SUM, i, (key,), Tally(1, 1), m.frame)))
    return out


def reproduced_notes(c: Confirmed) -> list[Unparsed]:
    """What the report says of each array whose role reproduction changed: it is no claim
    ``check`` judges, and why (what its numbers are)."""
    out = []
    if c.stopped and c.untried is not None:
        f = c.facts[c.untried]
        spot = next((s for s in f.spots if s is not None), None)
        out.append(
            Unparsed(
                spot.line if spot is not None else 1,
                f.name or "array",
                not_checked("budget-stopped"),
            )
        )
    for key, m in c.decided:
        f = c.facts[key]
        if f.role:
            continue  # (given a stage: judged as that stage)
        spot = next((s for s in f.spots if s is not None), None)
        names = Join(
            tuple(c.facts[k].name or c.facts[k].role or _THE_ARRAY for k in m.sources), _AND
        )
        what: object = m.relation.value
        if m.relation in _SAID:
            what = not_checked(_SAID[m.relation])
        out.append(
            Unparsed(
                spot.line if spot is not None else 1,
                f.name or "array",
                not_checked(
                    "reproduced" if m.frame is None else "reproduced-framed",
                    what=what,
                    names=names,
                    frame=m.frame,
                    reproduced=m.tally.reproduced,
                    compared=m.tally.compared,
                ),
            )
        )
    return out


#: how a note names a relation (``[unchecked]`` keys)
_SAID: Final = {
    r: f"said-{r.value}"
    for r in (Relation.SAME, Relation.SHIFTED, Relation.SUM, Relation.NORMALIZED, Relation.OUTPUT)
}
#: how a note names an array with no name nor role, and joins the names
_THE_ARRAY: Final = not_checked("the-array")
_AND: Final = not_checked("and")
