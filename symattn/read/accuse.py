"""Accuse only inside a confirmed structure.

``check`` judges every claim of a problem against the exact values of its stage. A number is
reported wrong only when the relation it belongs to is confirmed: its own array reproduces
its stage for most entries and more than a couple (:class:`~symattn.read.reproduce.Tally`),
or, for an array too small to confirm itself (one score, a two-key row), the rest of the
problem does. An array whose numbers mostly do not reproduce its stage, and whose role came
from words only (a heading, a phrase, the prose before it:
:data:`~symattn.read.confirm.WORD_SOURCES`), is not accused: it is "not checked", with the
closest relation reproduction finds; so is an array too small to confirm itself (one score, a
two-key row) whose numbers mostly do not reproduce, placed in a problem whose other numbers do
not confirm it either; so is an array only words call the weights that holds a number
outside [0, 1]. An entry "reproduces" unless ``check`` finds no rounding,
frame or earlier number of the author's that explains it (``wrong-value``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import flint

from symattn.judge.codes import FindingCode
from symattn.judge.findings import Finding, Join, Message
from symattn.judge.intervals import interval_ball
from symattn.read.confirm import WORD_SOURCES, candidate_of
from symattn.read.facts import Fact
from symattn.read.messages import not_checked
from symattn.read.observations import Spot
from symattn.read.placing import Place, written_exponent
from symattn.read.reproduce import NEAREST, Tally, best_match, frames, relate
from symattn.read.roles import RoleName

__all__ = ["fact_tallies", "tentative", "unconfirmed"]

#: the codes that say an entry does not reproduce its stage (the others name a rounding, a
#: frame or the author's own earlier numbers that explain it)
_NOT_REPRODUCED: Final = frozenset({FindingCode.WRONG_VALUE})


def fact_tallies(owner: dict[Place, int], findings: Sequence[Finding]) -> dict[int, Tally]:
    """For each fact of a problem, how many of its entries ``check`` found reproduced."""
    wrong = {(f.step, f.position) for f in findings if f.code in _NOT_REPRODUCED}
    out: dict[int, Tally] = {}
    for place, i in owner.items():
        out[i] = out.get(i, Tally(0, 0)) + Tally(int(place not in wrong), 1)
    return out


def unconfirmed(
    owner: dict[Place, int],
    findings: Sequence[Finding],
    facts: Sequence[Fact],
    tentative: bool = False,
) -> dict[int, Message]:
    """The facts of a problem whose findings are not accusations, each with the reason.
    ``tentative``: the problem's place for its claims is itself a guess (:func:`tentative`):
    a claim the author names is then accused only where its own numbers or its neighbours
    confirm that place."""
    tallies = fact_tallies(owner, findings)
    total = sum(tallies.values(), Tally(0, 0))
    out: dict[int, Message] = {}
    for i, own in tallies.items():
        if i >= len(facts):
            continue
        f = facts[i]
        if (why := _foreign_exponent(f, i, owner, findings)) is not None:
            out[i] = why
            continue
        if f.derived and f.size == 1 and own.reproduced < own.compared:
            # `Z = 2.7183 + 1 + 1.6487 = 5.3670`: its own formula computes it from the
            # numbers it writes; where the problem disagrees, those numbers are not the
            # problem's at its place (another variant, or a slip among them), not this one.
            # (An array so computed is the author's: what is carried from it is judged.)
            out[i] = not_checked(
                "own-formula", role=f.role, reproduced=own.reproduced, compared=own.compared
            )
            continue
        if f.source not in WORD_SOURCES:
            if not tentative:
                continue
            rest = Tally(total.reproduced - own.reproduced, total.compared - own.compared)
            if 2 * own.reproduced <= own.compared and not rest.confirmed:
                # (the author's own word for it, but neither its numbers nor its neighbours
                # confirm the place it was given: ``a = […]`` after another example's start)
                out[i] = not_checked("place-not-reproduced", **_tallied(f, own, rest))
            continue
        outside = [
            s.written.text for s in f.spots if s is not None and not 0 <= s.written.value <= 1
        ]
        if f.role is RoleName.WEIGHTS and outside:
            out[i] = not_checked(
                "no-weight", name=f.name or _AN_ARRAY, value=outside[0], closest=_closest(i, facts)
            )
            continue
        if own.confirmed or own.reproduced == own.compared:
            continue
        rest = Tally(total.reproduced - own.reproduced, total.compared - own.compared)
        if own.contradicted:
            out[i] = not_checked("words-only", **_tallied(f, own), closest=_closest(i, facts))
        elif 2 * own.reproduced <= own.compared and not rest.confirmed:
            # too small to confirm itself, and nothing around it in the problem does
            out[i] = not_checked("too-few", **_tallied(f, own, rest))
    if out:
        out.update(_carried_from(out, owner, findings, tallies, facts))
    return out


def _tallied(f: Fact, own: Tally, rest: Tally | None = None) -> dict[str, object]:
    """The parameters of a reason that names an array and how many of its entries (and of
    the rest of its problem's) reproduce."""
    out: dict[str, object] = {
        "name": f.name or f.role or _AN_ARRAY,
        "role": f.role,
        "reproduced": own.reproduced,
        "compared": own.compared,
    }
    if rest is not None:
        out |= {"rest_reproduced": rest.reproduced, "rest_compared": rest.compared}
    return out


def tentative(
    layer: int,
    starts: Sequence[int],
    spots: Mapping[Place, Spot],
    settled: Mapping[Place, str],
    refuted: frozenset[int],
) -> bool:
    """Whether a problem places its claims by a guess: it starts from an array (at the offsets
    ``starts``) that is itself not checked (``refuted``: ``c = [0.845, 0.578, 0]`` that only
    words called the scaled scores), or it is a repeat (``layer`` > 0) whose claims stand at
    places the first layer holds (``settled``: its claims there reproduce) with other values:
    another example's numbers (an exercise after the worked one), not this one's again."""
    if any(at in refuted for at in starts):
        return True
    shared = [(place, spot) for place, spot in spots.items() if place in settled]
    if layer == 0 or not shared or 2 * len(shared) < len(spots):
        return False
    return all(settled[place] != spot.written.text for place, spot in shared)


def _carried_from(
    dropped: dict[int, Message],
    owner: dict[Place, int],
    findings: Sequence[Finding],
    tallies: dict[int, Tally],
    facts: Sequence[Fact],
) -> dict[int, Message]:
    """The facts whose every finding is carried (``propagated-error``) in a problem whose
    numbers, without the facts not accused (``dropped``), confirm nothing: what they are
    carried from is not checked, so neither are they."""
    left = sum((t for i, t in tallies.items() if i not in dropped), Tally(0, 0))
    if left.confirmed:
        return {}
    codes: dict[int, set[FindingCode]] = {}
    for f in findings:
        if (i := owner.get((f.step, f.position))) is not None and i not in dropped:
            codes.setdefault(i, set()).add(FindingCode(f.code))
    return {
        i: not_checked(
            "carried-unchecked",
            name=facts[i].name or facts[i].role or _AN_ARRAY,
            reproduced=left.reproduced,
            compared=left.compared,
        )
        for i, c in codes.items()
        if i < len(facts) and c == {FindingCode.PROPAGATED_ERROR}
    }


def _foreign_exponent(
    f: Fact, i: int, owner: dict[Place, int], findings: Sequence[Finding]
) -> Message | None:
    """Why an exponential found wrong at its place is not accused: it writes its exponent
    (``e^{0.1}=1.105``), its value is that exponent's exponential, and the exponent is not
    the scaled score of the place it was given (the log of the exact value there): it is
    the exponential of another number (an index weight pooled by another softmax)."""
    x = written_exponent(f)
    if f.role is not RoleName.EXP or f.size != 1 or x is None or f.spots[0] is None:
        return None
    wrong = [
        g
        for g in findings
        if g.code in _NOT_REPRODUCED and owner.get((g.step, g.position)) == i and g.exact
    ]
    if len(wrong) != 1:
        return None
    with flint.ctx.workprec(_PREC):
        try:
            here = flint.arb(wrong[0].exact.rstrip("…")).log()
        except (ValueError, ZeroDivisionError):
            return None
        own = interval_ball(x).exp()
        if here.overlaps(interval_ball(x)) or not own.overlaps(interval_ball(f.spots[0].written)):
            return None
    return not_checked("foreign-exponent", exponent=f.exponent.strip("{} "))


#: how a reason names an array that has no name nor role
_AN_ARRAY: Final = not_checked("an-array")

#: the working precision of the comparisons (bits)
_PREC: Final = 128


def _closest(i: int, facts: Sequence[Fact]) -> Message:
    """The relation to the arrays written before fact ``i`` that reproduces most of it."""
    target = candidate_of(i, facts[i])
    if target is None:
        return not_checked("closest-none")
    before = [
        c
        for j in range(i - 1, -1, -1)
        if facts[j].at < facts[i].at and (c := candidate_of(j, facts[j])) is not None
    ][:NEAREST]
    widths = sorted({c.shape[1] for c in before})
    best = best_match(relate(target, before, frames(widths)))
    if best is None or best.tally.reproduced == 0:
        return not_checked("closest-unrelated")
    names = Join(tuple(facts[k].name or facts[k].role or _AN_ARRAY for k in best.sources))
    return not_checked(
        "closest" if best.frame is None else "closest-framed",
        relation=best.relation.value,
        names=names,
        frame=best.frame,
        reproduced=best.tally.reproduced,
        compared=best.tally.compared,
    )
