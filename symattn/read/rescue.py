"""Numbers that are right elsewhere: another stage of their row, or their stage in another frame.

``check`` judges each claim of a problem in the frame the problem was built with. Before a
number is accused, two readings that make it right are tried, each on the whole array the
number belongs to (a fact), never on one number alone:

- **another stage** (:func:`another_stage`): every number of the array is the entry of another
  stage of its row (the scores written under the weights' name): misnamed, not wrong;
- **another frame** (:func:`another_frame`): every number of the array is its own stage in
  another frame of the same inputs — unscaled, ``1/√n`` or ``1/n`` for the stated ``d_k`` and
  the width of K, or the divisor the text claims. An author who shows the softmax of the
  unscaled scores on purpose, beside the scaled one, is right in that frame; a row in
  another frame among rows of the same stage right in the problem's is not (:func:`_mixed`).
  A frame is a frame error only where the text claims a divisor it does not use; ``check``
  says that on the divisor (``dk-mismatch``), and such arrays keep their findings.

At least :data:`~symattn.read.reproduce.MIN_CONFIRMING` numbers must hold for the other
frame, every one of the array's: chance is then ruled out, as in reproduction. An
exponential that writes its exponent (``e^2.0 = 7.389``) holds two numbers: when the
exponent is its row's scaled score in another frame and the value its exponential, that
frame is the row's. In a frame so confirmed for a row, the row's smaller working (a
two-entry output, a sum, one weight) that holds there is right too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from symattn.config import Limits
from symattn.engine import AttentionResult
from symattn.errors import SymattnError
from symattn.exact import Surd, inv_sqrt
from symattn.judge.codes import FLAGGING, FindingCode
from symattn.judge.findings import Finding
from symattn.judge.frames import key_width, run_in_frame
from symattn.judge.quantities import TensorEntry
from symattn.judge.verdict import consistent_with
from symattn.numbers import Written
from symattn.numbers.rounding import Rounding
from symattn.read.confirm import says_softmax
from symattn.read.facts import Fact
from symattn.read.ownscores import own_scores_frames
from symattn.read.placing import Place, written_exponent
from symattn.read.problem import Problem
from symattn.read.reproduce import MIN_CONFIRMING
from symattn.spec import Spec
from symattn.stages import StepName

__all__ = [
    "own_scores_rows",
    "FRAMED_STEPS",
    "ROW_STEPS",
    "another_frame",
    "another_stage",
    "holds_at",
    "holds_rows",
    "other_frames",
    "places_of",
]

#: the stages a row of numbers may be of, with one entry per key (or per output column)
ROW_STEPS: Final = (
    StepName.SCORES,
    StepName.SCALED,
    StepName.EXP,
    StepName.WEIGHTS,
    StepName.OUTPUT,
)


def another_stage(
    spec: Spec,
    problem: Problem,
    flagged: set[Place],
    accepted: frozenset[Rounding],
    limits: Limits,
    facts: Sequence[Fact] = (),
) -> set[int]:
    """The facts that hold, entry for entry, the values of another stage of their row (the
    scores written under the weights' name): misnamed by the text or by the reading, not
    wrong; they are not accused. Not an array whose own label says it is the softmax
    (``Softmax 后：10% 30% 60%`` of the scores 0.1, 0.3, 0.6): that is the author's claim."""
    by_fact: dict[int, list[Place]] = {}
    for place, i in problem.owner.items():
        by_fact.setdefault(i, []).append(place)
    suspects = {
        o
        for place in flagged
        if (o := problem.owner.get(place)) is not None
        and not (o < len(facts) and says_softmax(facts[o]))
    }
    if not suspects:
        return set()
    result = spec.run()
    queries, keys = list(spec.query_tokens), list(spec.tokens)
    out: set[int] = set()
    for i in suspects:
        places = by_fact.get(i, [])
        if not places or any(len(p[1]) != 2 for p in places):
            continue
        if len(places) == 1 and (problem.spots[places[0]].written.significant or 0) < 3:
            continue  # one short number (``2``) matches some entry of some stage by chance
        own_step, own_row = places[0][0], places[0][1][0]
        if len({p[1][0] for p in places}) > 1:
            # a matrix: another stage of the same rows, row for row (the scaled scores
            # printed under the label ``Attention scores:``)
            if any(
                step != own_step
                and holds_rows(
                    problem, places, result.stage(step), step, queries, keys, accepted, limits
                )
                for step in ROW_STEPS
            ):
                out.add(i)
            continue
        for step in ROW_STEPS:
            tensor = result.stage(step)
            for r_other in range(tensor.shape[0]):
                if step == own_step and queries[r_other] == own_row:
                    continue
                if holds_at(problem, places, tensor, step, r_other, keys, accepted, limits):
                    out.add(i)
                    break
            if i in out:
                break
    return out


def holds_at(
    problem: Problem,
    places: list[Place],
    tensor: object,
    step: str,
    row: int,
    keys: list[str],
    accepted: frozenset[Rounding],
    limits: Limits,
) -> bool:
    """Whether every number of a fact is the entry of ``step`` at ``row``, column by column."""
    assert hasattr(tensor, "shape")
    for place in places:
        col = place[1][1]
        c = (
            keys.index(col)
            if step != StepName.OUTPUT and col in keys
            else (int(col) if col.isdigit() else -1)
        )
        if c < 0 or c >= tensor.shape[-1]:
            return False
        claim = problem.spots[place].written
        try:
            if not consistent_with(claim, TensorEntry(tensor, (row, c)), accepted, limits):  # type: ignore[arg-type]
                return False
        except (ValueError, OverflowError):
            return False  # (judge.floats: a value beyond float32 prints as inf)
    return True


def holds_rows(
    problem: Problem,
    places: list[Place],
    tensor: object,
    step: str,
    queries: list[str],
    keys: list[str],
    accepted: frozenset[Rounding],
    limits: Limits,
) -> bool:
    """Whether every number of a fact of several rows is the entry of ``step`` at its own
    row and column."""
    by_row: dict[str, list[Place]] = {}
    for place in places:
        by_row.setdefault(place[1][0], []).append(place)
    return all(
        q in queries
        and holds_at(problem, row, tensor, step, queries.index(q), keys, accepted, limits)
        for q, row in by_row.items()
    )


#: the stages whose values depend on the frame (the scores do not)
FRAMED_STEPS: Final = frozenset({StepName.SCALED, StepName.EXP, StepName.WEIGHTS, StepName.OUTPUT})
#: the codes that say a number does not reproduce its stage
_WRONG: Final = frozenset({FindingCode.WRONG_VALUE})


def other_frames(spec: Spec, result: AttentionResult) -> list[AttentionResult]:
    """``spec`` computed in each frame but its own: unscaled, ``1/√n`` and ``1/n`` for the
    stated ``d_k`` and the width of K, and the divisor the text claims (as written)."""
    sizes = {n for n in (spec.d_k, key_width(result)) if n is not None and n > 1}
    scales: list[Surd | Fraction] = [Fraction(1)]
    for n in sorted(sizes):
        scales += [inv_sqrt(n), Fraction(1, n)]
    divisor = spec.claims.sqrt_d_k
    if divisor is not None and divisor.value > 0:
        scales.append(1 / divisor.value)
    own = result.scale
    out: list[AttentionResult] = []
    seen: list[Surd] = [own]
    for sc in scales:
        surd = sc if isinstance(sc, Surd) else Surd(sc)
        if surd in seen:
            continue
        seen.append(surd)
        try:
            out.append(run_in_frame(spec, sc))
        except SymattnError:
            continue
    return out


def _mixed(
    i: int, by_fact: dict[int, list[Place]], suspects: set[int], facts: Sequence[Fact]
) -> bool:
    """Whether fact ``i``'s stage is right in the problem's frame for other rows than its
    own, which no fact shows right there: a table whose rows are in two frames (one row
    unscaled among scaled ones) is a slip in that row, not the author's frame. (A row shown
    in both frames, the unscaled beside the scaled, is a comparison: rescued.)"""
    step = by_fact[i][0][0]
    mine = {p[1][0] for p in by_fact[i]}
    right = {
        p[1][0]
        for j, places in by_fact.items()
        if j != i and j not in suspects
        for p in places
        if p[0] == step
    }
    if i < len(facts) and _restated(facts[i], facts):
        return False
    return bool(right) and not mine <= right


def _restated(f: Fact, facts: Sequence[Fact]) -> bool:
    """Whether the text writes the same stage of the same query row again (a comparison)."""
    if f.index is None and not f.token:
        return False
    return any(
        g is not f and g.role == f.role and g.index == f.index and g.token == f.token for g in facts
    )


def another_frame(
    spec: Spec,
    problem: Problem,
    findings: Sequence[Finding],
    accepted: frozenset[Rounding],
    limits: Limits,
    facts: Sequence[Fact] = (),
    placed: frozenset[int] = frozenset(),
) -> set[int]:
    """The facts found wrong whose every number (at least
    :data:`~symattn.read.reproduce.MIN_CONFIRMING` of them) is its own stage, at its own
    row and key, in another frame of the same inputs: right in that frame, not accused.
    (``placed``: the facts :mod:`~symattn.read.locate` placed in their frame, with a note;
    the small working of a row is left to it.)"""
    wrong = {(f.step, f.position) for f in findings if f.code in _WRONG}
    by_fact = places_of(problem)
    framed = _framed(problem, wrong)
    if problem.scale_unknown:
        # (any finding: in a frame it does not know, ``check`` names other causes too)
        wrong = {(f.step, f.position) for f in findings if f.severity in FLAGGING}
        framed = _framed(problem, wrong)
    if not problem.scale_unknown:
        suspects = {o for place in wrong if (o := problem.owner.get(place)) is not None}
        framed = [i for i in framed if not _mixed(i, by_fact, suspects, facts)]
    # (a small fact carried from the row's working in the problem's frame is suspect too)
    carried = {(f.step, f.position) for f in findings if f.code == FindingCode.PROPAGATED_ERROR}
    # (in a problem whose scale the text leaves open, :mod:`~symattn.read.locate` places
    # the small facts in their frames, and says so)
    small = (
        []
        if problem.scale_unknown
        else [
            i
            for i in _small(problem, wrong | carried, by_fact)
            if i not in framed and i not in placed
        ]
    )
    exponents = {i: x for i in small if (x := _exponent(i, by_fact, facts)) is not None}
    if not framed and not exponents:
        return set()
    queries, keys = list(spec.query_tokens), list(spec.tokens)
    out: set[int] = set()
    results = other_frames(spec, spec.run())
    if problem.scale_unknown and framed:
        results += fitted_frames(spec, problem, [by_fact[i] for i in framed])
    for result in results:
        rows: set[str] = set()  # (the query rows this frame is confirmed for)
        for i, x in exponents.items():
            # ``e^2.0 = 7.389``: the exponent it writes is its row's scaled score in this
            # frame (the unscaled score 2.0, not 2/√2): the frame of that row's working
            ((step, position),) = by_fact[i]
            entry = _entry(result, StepName.SCALED, position, queries, keys)
            if entry is not None and _holds_in(
                problem, (step, position), result, queries, keys, accepted, limits
            ):
                try:
                    if consistent_with(x, entry, accepted, limits):
                        out.add(i)
                        rows.add(position[0])
                except (ValueError, OverflowError):
                    pass
        for i in framed:
            if i in out:
                continue
            places = by_fact[i]
            step = places[0][0]
            if holds_rows(
                problem, places, result.stage(step), step, queries, keys, accepted, limits
            ):
                out.add(i)
                rows |= {p[1][0] for p in places}
        for i in small:
            # a row's smaller working (one exponential, a two-entry output, its sum) in the
            # frame its array of at least MIN_CONFIRMING numbers confirmed for that row
            places = by_fact[i]
            if i not in out and {p[1][0] for p in places} <= rows:
                if all(
                    _holds_in(problem, p, result, queries, keys, accepted, limits) for p in places
                ):
                    out.add(i)
    return out


def own_scores_rows(
    spec: Spec,
    problem: Problem,
    findings: Sequence[Finding],
    accepted: frozenset[Rounding],
    limits: Limits,
) -> dict[Place, Surd]:
    """The places of each row of a framed stage found wrong whose every number (at least
    :data:`~symattn.read.reproduce.MIN_CONFIRMING`) is what the author's own written scores
    give in some frame (:func:`~symattn.read.ownscores.own_scores_frames`), with that frame's
    scale: carried from those scores, where their error is, not a new error. Row by row: a
    matrix whose first row the author computed from their scores and whose other rows are
    made up keeps those rows' findings."""
    wrong = {(f.step, f.position) for f in findings if f.code in _WRONG}
    rows: dict[tuple[str, str], list[Place]] = {}
    for place in problem.owner:
        if place[0] in FRAMED_STEPS:
            rows.setdefault((place[0], place[1][0]), []).append(place)
    suspects = {
        key: places
        for key, places in rows.items()
        if len(places) >= MIN_CONFIRMING and any(p in wrong for p in places)
    }
    if not suspects:
        return {}
    queries, keys = list(spec.query_tokens), list(spec.tokens)
    out: dict[Place, Surd] = {}
    for scale, result in own_scores_frames(spec, problem, spec.run()):
        for (step, q), places in suspects.items():
            if places[0] in out or q not in queries:
                continue
            if holds_at(
                problem, places, result.stage(step), step, queries.index(q), keys, accepted, limits
            ):
                out.update(dict.fromkeys(places, scale))
    return out


def _exponent(i: int, by_fact: dict[int, list[Place]], facts: Sequence[Fact]) -> Written | None:
    """The exponent an exponential of one number writes (``e^2.0 = 7.389``: 2.0); None for
    another fact, or an exponent that is no plain number."""
    places = by_fact.get(i, [])
    if len(places) != 1 or places[0][0] != StepName.EXP or len(places[0][1]) != 2:
        return None
    return written_exponent(facts[i]) if i < len(facts) else None


def _entry(
    result: AttentionResult,
    step: str,
    position: tuple[str, ...],
    queries: list[str],
    keys: list[str],
) -> TensorEntry | None:
    """The entry of ``step`` at a (query, key) position, or None where there is none."""
    if len(position) != 2 or position[0] not in queries or position[1] not in keys:
        return None
    return TensorEntry(result.stage(step), (queries.index(position[0]), keys.index(position[1])))


def _small(problem: Problem, wrong: set[Place], by_fact: dict[int, list[Place]]) -> list[int]:
    """The facts with a number in ``wrong`` too small to confirm a frame themselves: fewer
    than :data:`~symattn.read.reproduce.MIN_CONFIRMING` numbers of a framed stage or sum."""
    suspects = {o for place in wrong if (o := problem.owner.get(place)) is not None}
    return [
        i
        for i in sorted(suspects)
        if 0 < len(places := by_fact.get(i, [])) < MIN_CONFIRMING
        and all(p[0] in FRAMED_STEPS | {StepName.SUM} for p in places)
    ]


def _holds_in(
    problem: Problem,
    place: Place,
    result: AttentionResult,
    queries: list[str],
    keys: list[str],
    accepted: frozenset[Rounding],
    limits: Limits,
) -> bool:
    """Whether the number at ``place`` is its stage's entry in ``result``."""
    step, position = place
    if not position or position[0] not in queries:
        return False
    row = queries.index(position[0])
    if len(position) == 2:
        return holds_at(problem, [place], result.stage(step), step, row, keys, accepted, limits)
    claim = problem.spots[place].written
    try:
        return consistent_with(claim, TensorEntry(result.stage(step), (row,)), accepted, limits)
    except (ValueError, OverflowError):
        return False


def places_of(problem: Problem) -> dict[int, list[Place]]:
    """The places of each fact of a problem."""
    by_fact: dict[int, list[Place]] = {}
    for place, i in problem.owner.items():
        by_fact.setdefault(i, []).append(place)
    return by_fact


def _framed(problem: Problem, wrong: set[Place]) -> list[int]:
    """The facts with a number in ``wrong`` that a frame could make right: one framed stage,
    at least :data:`~symattn.read.reproduce.MIN_CONFIRMING` numbers of it."""
    by_fact = places_of(problem)
    suspects = {o for place in wrong if (o := problem.owner.get(place)) is not None}
    return [
        i
        for i in sorted(suspects)
        if len(places := by_fact.get(i, [])) >= MIN_CONFIRMING
        and all(p[0] in FRAMED_STEPS and len(p[1]) == 2 for p in places)
        and len({p[0] for p in places}) == 1
    ]


def _fit(step: str, scores: list[float], claimed: list[float]) -> float | None:
    """The one multiplier ``c`` of the scores that the claimed numbers of a row suggest (two
    of them: the largest and the smallest); whether it holds is decided exactly after."""
    pairs = [(s, c) for s, c in zip(scores, claimed, strict=True) if math.isfinite(s)]
    if len(pairs) < 2:
        return None
    if step == StepName.SCALED:
        s, c = max(pairs, key=lambda p: abs(p[0]))
        return c / s if s else None
    if step == StepName.EXP:
        s, c = max(pairs, key=lambda p: abs(p[0]))
        return math.log(c) / s if s and c > 0 else None
    if step == StepName.WEIGHTS:
        live = [(s, c) for s, c in pairs if c > 0]
        if len(live) < 2:
            return None
        (s1, c1), (s2, c2) = max(live, key=lambda p: p[1]), min(live, key=lambda p: p[1])
        return math.log(c1 / c2) / (s1 - s2) if s1 != s2 else None
    return None


def fitted_frames(
    spec: Spec, problem: Problem, facts: Sequence[list[Place]]
) -> list[AttentionResult]:
    """``spec`` computed with the multiplier of the scores that each fact's own numbers
    suggest: where the text scales but states no ``d_k``, the author's frame is whatever
    reproduces all of their numbers (``After Scaling: 1.0, 2.0, 3.0`` of the scores 2, 4, 6
    is the frame 1/2). Only a multiplier every number of a fact then holds in rescues it."""
    scores = spec.run().stage("scores").to_numpy()
    queries, keys = list(spec.query_tokens), list(spec.tokens)
    out: list[AttentionResult] = []
    seen: set[Fraction] = set()
    for places in facts:
        by_row: dict[str, list[Place]] = {}
        for place in places:
            by_row.setdefault(place[1][0], []).append(place)
        for q, row in by_row.items():
            if q not in queries or any(p[1][1] not in keys for p in row):
                continue
            r = queries.index(q)
            got = [float(scores[r, keys.index(p[1][1])]) for p in row]
            claimed = [float(problem.spots[p].written.value) for p in row]
            c = _fit(row[0][0], got, claimed)
            if c is None or not math.isfinite(c) or c <= 0:
                continue
            sc = Fraction(c).limit_denominator(1000)
            if sc in seen or sc <= 0:
                continue
            seen.add(sc)
            try:
                out.append(run_in_frame(spec, sc))
            except SymattnError:
                continue
            break  # (one row decides a fact's multiplier; every row must then hold)
    return out
