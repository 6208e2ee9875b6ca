"""Level 2: the attention problem behind the text, judged by ``check``.

Each :class:`~symattn.read.problem.Problem` is built into a spec with
:func:`symattn.spec.build.build_spec` (no text round trip) and judged by
:func:`symattn.judge.check`; each finding lands on the number the text wrote. When the text
leaves the scale open, a number is reported only if it is wrong in every frame tried
(the first frame's finding is shown). A number Level 1 already reported gets no second
finding; a number both levels judged is counted once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.judge.check import CheckReport, check
from symattn.judge.codes import FLAGGING, FindingCode, Severity
from symattn.judge.findings import Finding, Message, TextLocation
from symattn.judge.quantities import TensorEntry
from symattn.judge.verdict import judge
from symattn.numbers.rounding import Rounding
from symattn.numbers.written import ROUNDED_KINDS
from symattn.read.accuse import tentative, unconfirmed
from symattn.read.chainstate import value_key
from symattn.read.claims import Known
from symattn.read.dataflow import Derivation
from symattn.read.emit import JudgedProblem
from symattn.read.facts import Fact
from symattn.read.locate import locate
from symattn.read.messages import not_checked, reason_of, say
from symattn.read.observations import Spot
from symattn.read.ownscores import own_scores_finding
from symattn.read.placing import Place
from symattn.read.problem import Problem
from symattn.read.report import Recognised, Unparsed, text_finding
from symattn.read.rescue import ROW_STEPS, another_frame, another_stage, own_scores_rows
from symattn.read.roles import RoleName
from symattn.read.scalar import Op, Scalar
from symattn.spec import Spec
from symattn.spec.build import build_spec
from symattn.stages import BY_CLAIM, ROW_STAGES, StepName

__all__ = ["Level2", "judge_problems"]


@dataclass(frozen=True)
class Level2:
    """What Level 2 adds: findings, what it could not check, what it judged, the problem."""

    findings: tuple[Finding, ...] = ()
    unparsed: tuple[Unparsed, ...] = ()
    judged: frozenset[int] = frozenset()
    #: the attention problem of each problem judged (the frame it fits best), in order; when
    #: none could be judged, the first one built
    recognised: tuple[Recognised, ...] = ()
    #: the exact value of each number the problem states, by its value as written, with where
    #: it is written (for the formulas that use it as an ingredient: ``0.18 × 30``)
    known: Mapping[str, tuple[tuple[int, Known], ...]] = field(default_factory=dict)
    #: each problem judged (the frame the text fits best), with the claims whose verdicts
    #: were withheld (frames disagree, or the number is another stage's)
    problems: tuple[JudgedProblem, ...] = ()


#: the trace step of each stage a claim of a row may be about (a fact without a role is none)
_STAGE_STEP: Final[Mapping[RoleName | None, str]] = {
    RoleName(c): s.step for c, s in BY_CLAIM.items()
}


#: the steps whose stated numbers are kept as the author's values: the row's stages
_VALUED: Final = frozenset({*ROW_STEPS, StepName.SUM})
#: verdict codes that do not say a number is wrong
_NOT_WRONG: Final = frozenset({FindingCode.FLOAT_REPRESENTATION, FindingCode.UNDECIDED})


def _unplaced(problems: Sequence[Problem], judged: set[int]) -> list[Unparsed]:
    """One note for each one-row claim no problem could place: its words name no query and
    its numbers are those of none of the rows (or of several)."""
    out: list[Unparsed] = []
    seen: set[int] = set()
    for p in problems:
        queries = len(p.data.get("query_tokens") or p.data.get("tokens") or ())  # type: ignore[arg-type]
        for f in p.unplaced:
            spots = [s for s in f.spots if s is not None]
            if f.at in seen or not spots or any(s.at in judged for s in spots):
                continue
            seen.add(f.at)
            out.append(
                Unparsed(
                    spots[0].line,
                    f.name or "row",
                    not_checked(
                        "unplaced-row",
                        step=not_checked(f"step-{_STAGE_STEP[f.role]}"),
                        queries=queries,
                    ),
                )
            )
        for f in p.wide:
            spots = [s for s in f.spots if s is not None]
            if f.at in seen or not spots or any(s.at in judged for s in spots):
                continue
            seen.add(f.at)
            keys = len(p.data.get("tokens") or ())  # type: ignore[arg-type]
            out.append(
                Unparsed(
                    spots[0].line,
                    f.name or "number",
                    not_checked("wide-row", keys=keys),
                )
            )
    return out


def _misshapen(
    spec: Spec, problem: Problem, accepted: frozenset[Rounding], limits: Limits
) -> list[tuple[int, Finding]]:
    """Claims written in another shape than their stage (a 3×2 matrix for the 3×3 scores):
    each entry judged against the entry at the same place, and flagged where there is none."""
    if not problem.misshapen:
        return []
    result = spec.run()
    queries = list(spec.query_tokens)
    out: list[tuple[int, Finding]] = []
    for fact, row in problem.misshapen:
        tensor = result.stage(_STAGE_STEP[fact.role])
        n_rows, n_cols = tensor.shape[0], tensor.shape[-1]
        if row is None:
            r_claim, c_claim = fact.dims
            places = [(i, j, i * c_claim + j) for i in range(r_claim) for j in range(c_claim)]
        else:
            i = queries.index(row)
            places = [(i, j, j) for j in range(fact.dims[0])]
            r_claim, c_claim = 1, fact.dims[0]
        shape = {
            "stage": say(f"stage-{fact.role}"),
            "rows": n_rows if row is None else 1,
            "cols": n_cols,
            "claimed_rows": r_claim,
            "claimed_cols": c_claim,
        }
        for i, j, k in places:
            spot = fact.spots[k]
            if spot is None:
                continue
            if i < n_rows and j < n_cols:
                v = judge(
                    spot.written, TensorEntry(tensor, (i, j)), accepted=accepted, limits=limits
                )
                if v.code is None or v.code in _NOT_WRONG:
                    continue
                exact, code = v.exact, FindingCode.WRONG_VALUE
                msg = say("wrong-shape", exact=exact, **shape)
            else:
                exact, code = "", FindingCode.WRONG_VALUE
                msg = say("wrong-shape-extra", **shape)
            out.append(
                (
                    spot.at,
                    text_finding(
                        code,
                        spot.line,
                        spot.column,
                        spot.written.text,
                        exact,
                        None,
                        msg,
                        "wrong-shape",
                    ),
                )
            )
    return out


def _known(
    spec: Spec,
    problem: Problem,
    into: dict[str, dict[int, Known | None]],
    skip: set[int],
    wrong: set[int],
) -> None:
    """The exact value of every number the problem states, by its value as written and where
    it is written (a place given two values becomes None); not of the facts found to hold
    another stage (``skip``), nor of numbers found wrong (``wrong``: offsets), whose exact
    value is no rounding the author made."""
    result = spec.run()
    queries, keys = list(spec.query_tokens), list(spec.tokens)
    for (step, pos), spot in problem.spots.items():
        if problem.owner.get((step, pos)) in skip or spot.at in wrong:
            continue
        if step not in _VALUED or not pos or pos[0] not in queries:
            continue
        r = queries.index(pos[0])
        if len(pos) == 1:
            index: tuple[int, ...] = (r,)
        elif step == StepName.OUTPUT:
            index = (r, int(pos[1]))
        elif pos[1] in keys:
            index = (r, keys.index(pos[1]))
        else:
            continue
        entry = TensorEntry(result.stage(step), index)
        places = into.setdefault(value_key(spot.written), {})
        new = Known(Scalar(Op.EXT, ext=entry), spot.written.text, False)
        if spot.at in places:
            old = places[spot.at]
            if old is not None and not _same(old.value.ext, entry):
                places[spot.at] = None
        else:
            places[spot.at] = new


def _given(facts: Sequence[Fact], into: dict[str, dict[int, Known | None]]) -> None:
    """Every number of an input the text gives is its own exact value where it is written:
    a formula after it that writes the number again (``[[0.9, 0.3], …] × …`` after ``Q:
    [[0.9, 0.3], …]``) means the input, not a claim of the same value stated before it."""
    if not into:
        return
    for f in facts:
        if not f.given:
            continue
        for spot in f.spots:
            if spot is None or spot.written.kind not in ROUNDED_KINDS:
                continue
            lit = Known(Scalar(Op.LIT, value=spot.written.value), spot.written.text, False)
            into.setdefault(value_key(spot.written), {}).setdefault(spot.at, lit)


def _same(a: object, b: TensorEntry) -> bool:
    """Whether two exact quantities are one value (rationals exactly, others within 2^-100)."""
    if not isinstance(a, TensorEntry):
        return False
    ra, rb = a.rational(), b.rational()
    if ra is not None or rb is not None:
        return ra == rb
    x, y = a.arb(160), b.arb(160)
    d = x - y
    return bool(d.contains(0)) and float(d.rad()) < 2.0**-100


def _one(
    problem: Problem,
    path: str,
    accepted: frozenset[Rounding],
    limits: Limits,
    checked: dict[str, CheckReport],
    facts: Sequence[Fact] = (),
    settled: Mapping[object, dict[Place, str]] | None = None,
    refuted: frozenset[int] = frozenset(),
) -> tuple[list[tuple[int, Finding]], set[int], dict[int, Message]] | Message:
    """The findings of one problem, each with the offset of its number, the facts found to be
    another stage, and the facts not accused (:func:`~symattn.read.accuse.unconfirmed`) with
    the reason; or why it could not be checked. ``checked``: the reports of the specs
    checked so far, by their data (a text often gives rise to the same spec twice: it is
    checked once)."""
    try:
        spec = build_spec(problem.data, path, limits)
        key = repr(problem.data)
        report = checked.get(key) or check(spec, accepted=accepted, limits=limits)
        checked[key] = report
        shaped = _misshapen(spec, problem, accepted, limits)
        flagged = {(f.step, f.position) for f in report.findings if f.severity in FLAGGING}
        flagged |= {
            place
            for f in report.findings
            if f.code == FindingCode.NOT_NORMALIZED
            for place in problem.owner
            if place[0] == f.step and place[1][:1] == f.position[:1]
        }
        rescued = another_stage(spec, problem, flagged, accepted, limits, facts)
        located = locate(spec, problem, report.findings, accepted, limits, facts)
        rescued |= another_frame(
            spec, problem, report.findings, accepted, limits, facts, frozenset(located)
        )
        carried_rows = own_scores_rows(spec, problem, report.findings, accepted, limits)
    except SymattnError as e:
        return reason_of(e)
    start = problem.group[0] if problem.group else None
    layer = problem.group[1] if len(problem.group) > 1 else 0
    guess = tentative(
        layer if isinstance(layer, int) else 0,
        start.refs if isinstance(start, Derivation) else (),
        problem.spots,
        (settled or {}).get(start, {}),
        refuted,
    )
    unsure = unconfirmed(problem.owner, report.findings, facts, guess)
    # (a fact whose numbers reproduce at another place the problem confirms: placed there)
    unsure.update({i: loc.reason for i, loc in located.items() if i not in rescued})
    rescued |= set(located)
    out = list(shaped)
    # (a row of weights that cannot sum to 1: that is a cause of each of its wrong entries)
    unsummed = {
        (f.step, f.position) for f in report.findings if f.code == FindingCode.NOT_NORMALIZED
    }
    for f in report.findings:
        if problem.owner.get((f.step, f.position)) in rescued:
            continue
        if (scale := carried_rows.get((f.step, f.position))) is not None:
            f = own_scores_finding(f, scale)  # (what the author's own scores give)
        if f.code == FindingCode.NOT_NORMALIZED and any(
            i in rescued
            for (st, pos), i in problem.owner.items()
            if st == f.step and pos[:1] == f.position[:1]
        ):
            continue
        if f.code == FindingCode.DK_MISMATCH and (f.step, f.position) not in problem.spots:
            out += _divided_wrongly(spec, problem, f, flagged, accepted, limits)
            continue
        spot: Spot | None = problem.spots.get((f.step, f.position)) if f.step else None
        if spot is None and f.step == StepName.WEIGHTS and len(f.position) == 1:
            spot = next(
                (
                    s
                    for (st, pos), s in problem.spots.items()
                    if st == StepName.WEIGHTS and pos[0] == f.position[0]
                ),
                None,
            )
        if spot is None:
            continue
        found = Finding(
            f.code,
            f.severity,
            TextLocation(spot.line, spot.column),
            f.claimed,
            "" if f.exact == "-" else f.exact,
            f.expected,
            f.message,
            f"level2:{f.message_key}",
            inexact=f.inexact,  # (the exact value shown rounded: written with a trailing …)
            frame=f.frame,  # (judged in the author's frame: said of the author's problem)
            alternatives=_with_row_cause(f, unsummed),  # (a second cause ``check`` found)
        )
        out.append((spot.at, found))
        if f.step == StepName.SQRT_D_K:  # the divisor said again (in words): the same finding there
            for (st, pos), again in problem.spots.items():
                if st == StepName.SQRT_D_K and pos:
                    where = TextLocation(again.line, again.column)
                    out.append((again.at, replace(found, location=where)))
    return out, rescued, unsure


def _from_unchecked(f: Finding, problem: Problem, rescued: set[int]) -> bool:
    """Whether ``f`` is carried (``propagated-error``) from a number of a fact not accused
    here (right in another frame or stage, or not checked): its story rests on a number the
    problem does not judge, so it is withheld with it."""
    origin = f.message.params.get("origin_at") if f.code == FindingCode.PROPAGATED_ERROR else None
    if not isinstance(origin, str) or not origin.endswith("]") or "[" not in origin:
        return False
    step, _, inside = origin[:-1].partition("[")
    return problem.owner.get((step, tuple(inside.split(",")))) in rescued


def _with_row_cause(f: Finding, unsummed: set[tuple[str, tuple[str, ...]]]) -> tuple[str, ...]:
    """The alternatives of a finding, with ``not-normalized`` when it is an error on an entry
    of a row whose weights cannot sum to 1."""
    if f.severity != Severity.ERROR or f.code == FindingCode.NOT_NORMALIZED or not f.position:
        return f.alternatives
    if (f.step, f.position[:-1]) not in unsummed or FindingCode.NOT_NORMALIZED in f.alternatives:
        return f.alternatives
    return (*f.alternatives, FindingCode.NOT_NORMALIZED)


def _divided_wrongly(
    spec: Spec,
    problem: Problem,
    f: Finding,
    flagged: set[tuple[str, tuple[str, ...]]],
    accepted: frozenset[Rounding],
    limits: Limits,
) -> list[tuple[int, Finding]]:
    """``dk-mismatch`` found from the scaled scores (the text writes no divisor): on each
    scaled score the text writes that is wrong with the stated divisor and that ``check``
    judged right in the author's frame (it holds only with the author's divisor)."""
    result = spec.run()
    queries, keys = list(spec.query_tokens), list(spec.tokens)
    out: list[tuple[int, Finding]] = []
    for (step, pos), spot in problem.spots.items():
        if step != StepName.SCALED or (step, pos) in flagged or len(pos) != 2:
            continue
        if pos[0] not in queries or pos[1] not in keys:
            continue
        entry = TensorEntry(result.scaled_scores, (queries.index(pos[0]), keys.index(pos[1])))
        try:
            v = judge(spot.written, entry, accepted=accepted, limits=limits)
        except (ValueError, OverflowError):
            continue
        if v.code is None or v.code in _NOT_WRONG:
            continue
        where = TextLocation(spot.line, spot.column)
        claimed, msg = spot.written.text, f.message
        out.append(
            (spot.at, Finding(f.code, f.severity, where, claimed, v.exact, v.expected, msg, "dk"))
        )
    return out


#: the stages of a query row, in order (the first stated one confirms an assumed problem)
_ORDER: Final = tuple(s.step for s in ROW_STAGES)


def _without_v(problem: Problem) -> bool:
    """Whether the problem was built from a Q and a K the text gives with no V."""
    key = problem.group[0] if problem.group else None
    return isinstance(key, Derivation) and len(key.refs) > 2 and key.refs[2] < 0


def _confirmed(problem: Problem, found: list[tuple[int, Finding]]) -> bool:
    """Whether most numbers of the first stage the problem states hold."""
    for step in _ORDER:
        spots = [s for (st, _), s in problem.spots.items() if st == step]
        if spots:
            wrong = {at for at, f in found if f.severity == Severity.ERROR}
            bad = sum(1 for s in spots if s.at in wrong)
            return 2 * bad < len(spots)
    return False


def judge_problems(
    problems: Sequence[Problem],
    path: str,
    *,
    accepted: frozenset[Rounding],
    limits: Limits,
    facts: Sequence[Fact] = (),
) -> Level2:
    """Judge every problem; keep a finding only where every hypothesis of its layer agrees."""
    if not problems:
        return Level2()
    by_layer: dict[tuple[object, ...], list[Problem]] = {}
    for p in problems:
        by_layer.setdefault(p.group, []).append(p)
    findings: list[tuple[int, Finding]] = []  # (the number of its problem, the finding)
    unparsed: list[Unparsed] = []
    judged: set[int] = set()
    known: dict[str, dict[int, Known | None]] = {}
    checked: dict[str, CheckReport] = {}
    judged_problems: list[JudgedProblem] = []
    settled: dict[object, dict[Place, str]] = {}
    refuted: set[int] = set()  # (the facts not checked: a problem built on one is a guess)
    for group in by_layer.values():
        results = [
            _one(p, path, accepted, limits, checked, facts, settled, frozenset(refuted))
            for p in group
        ]
        pairs = [(p, r) for p, r in zip(group, results, strict=True) if not isinstance(r, Message)]
        ok = [r[0] for _, r in pairs]
        if not ok:
            first = group[0].first
            line = first.line if first is not None else 1
            why = results[0]
            assert isinstance(why, Message)  # (no problem of the group was checked)
            unparsed.append(
                Unparsed(line, "attention problem", not_checked("problem-not-checked", why=why))
            )
            continue
        if group[0].assumed and not _confirmed(group[0], ok[0]):
            first = group[0].first
            unparsed.append(
                Unparsed(
                    first.line if first is not None else 1,
                    "attention problem",
                    not_checked("assumed-qk" if _without_v(group[0]) else "assumed-x"),
                )
            )
            continue
        judged.update(s.at for s in group[0].spots.values())
        flagged = [{at for at, f in r if f.severity in FLAGGING} for r in ok]
        agreed = set.intersection(*flagged) if flagged else set()
        # the frame (scale, mask) the text fits best: its findings are the ones reported
        # (where every frame agrees) and its exact values are what the author rounded
        best = min(range(len(pairs)), key=lambda i: len(flagged[i]))
        problem, (found, rescued, unsure) = pairs[best]
        # the facts no frame confirms (accuse.unconfirmed in every frame): not accused
        dropped = set(unsure).intersection(*(r[2] for _, r in pairs))
        for i in sorted(dropped):
            spot = next((sp for sp in facts[i].spots if sp is not None), None)
            why = unsure[i]
            unparsed.append(Unparsed(spot.line if spot else 1, facts[i].name or "array", why))
        not_accused = {sp.at for i in dropped for sp in facts[i].spots if sp is not None}
        refuted.update(facts[i].at for i in dropped)
        rescued = rescued | dropped
        if problem.group and problem.group[1] == 0:
            # (the places of a problem whose claims hold, with the value each holds there)
            settled[problem.group[0]] = {
                place: spot.written.text
                for place, spot in problem.spots.items()
                if spot.at not in flagged[best] or problem.owner.get(place) in rescued
            }
        if not any(f.code == FindingCode.DK_MISMATCH for _, f in found):
            # (after a dk-mismatch the author works in another frame: the stated frame's
            # exact values are not what the author rounded)
            try:
                spec = build_spec(problem.data, path, limits)
                _known(spec, problem, known, rescued, flagged[best])
            except SymattnError:
                pass
        judged.update(s.at for f, _ in group[0].misshapen for s in f.spots if s is not None)
        withheld = set()
        for at, f in found:
            if f.severity in FLAGGING and (
                at not in agreed or at in not_accused or _from_unchecked(f, problem, rescued)
            ):
                withheld.add(at)
                continue
            findings.append((len(judged_problems) + 1, f))
        judged_problems.append(
            JudgedProblem(
                problem,
                frozenset(
                    place
                    for place, spot in problem.spots.items()
                    if spot.at in withheld or problem.owner.get(place) in rescued
                ),
            )
        )
    unparsed += _unplaced(problems, judged)
    _given(facts, known)
    many = len(judged_problems) > 1  # (one problem: nothing to tell apart)
    return Level2(
        tuple(replace(f, problem=n) if many else f for n, f in findings),
        tuple(unparsed),
        frozenset(judged),
        tuple(jp.problem.recognised for jp in judged_problems) or (problems[0].recognised,),
        {
            k: tuple(sorted((at, v) for at, v in places.items() if v is not None))
            for k, places in known.items()
        },
        tuple(judged_problems),
    )
