"""Where a claim's numbers reproduce: its place among the stages, keys and frames of its row.

A claim is placed in a problem by its words (a name, a label, the prose before it) and by
its order (the exponentials written one after another go to the keys in turn). Before it is
accused there, the other places its numbers could be are tried, on the whole claim (a fact),
never on one of its numbers alone:

- the other stages of its row: the raw scores, the scaled scores, the exponentials, the
  weights, the output (``s_1 = 1/√3 ≈ 0.577`` is a scaled score, whatever its name says);
  for a sum, the sum of the exponentials or of the weights (``Sum = 1 ✓`` after the weights);
- the other keys of its row, for a claim of one number of three significant digits or more
  (``e^{1.155} ≈ 3.174`` written second is the exponential of the third key);
- the other frames of the same inputs (unscaled, ``1/√n`` and ``1/n`` for the stated
  ``d_k`` and the width of K, the divisor the text claims).

A place counts only where the claim's **neighbours** confirm its frame: the other numbers of
the same problem reproduce at their own places in that frame (most of them, and more than a
couple: :class:`~symattn.read.reproduce.Tally`), at least as many as in the problem's own
frame. A claim right at such a place is not accused: it is placed there (the report says
where). A claim right at no place is left to :mod:`~symattn.read.accuse`, which accuses it
only where its own numbers or its neighbours confirm the place it was given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from symattn.config import Limits
from symattn.engine import AttentionResult
from symattn.judge.codes import FLAGGING
from symattn.judge.findings import Finding, Message
from symattn.judge.quantities import Const, Quantity, TensorEntry
from symattn.judge.verdict import consistent_with
from symattn.numbers.rounding import Rounding
from symattn.read.facts import Fact
from symattn.read.messages import not_checked
from symattn.read.placing import Place
from symattn.read.problem import Problem
from symattn.read.reproduce import Tally
from symattn.read.rescue import FRAMED_STEPS, ROW_STEPS, other_frames, places_of
from symattn.spec import Spec
from symattn.stages import StepName

__all__ = ["MIN_DIGITS", "Located", "locate"]

#: the significant digits a claim of one number needs to be placed elsewhere by its value
#: alone (``2`` or ``0.5`` is the entry of some key of some stage by chance); a sum of 1 is
#: the sum of the weights whatever its digits
MIN_DIGITS: Final = 3

#: the stages a sum of a row may be the sum of: the exponentials (the softmax denominator)
#: or the weights (whose sum is 1)
_SUMS: Final = (StepName.SUM, StepName.WEIGHTS)
#: the places whose values depend on the frame
_FRAMED: Final = frozenset({*FRAMED_STEPS, StepName.SUM, "weight_sum"})
#: the place of a sum that is the sum of the weights (1)
_WEIGHT_SUM: Final = "weight_sum"


@dataclass(frozen=True)
class Located:
    """A claim placed elsewhere than the problem put it: where its numbers reproduce."""

    fact: int
    step: str
    #: the scale of the frame, as the report says it (``1/√3``)
    frame: str
    #: the claim moved to other keys of its row
    moved: bool = False

    @property
    def reason(self) -> Message:
        """What the report says of the claim (it is not accused where it was placed)."""
        stage = not_checked(STAGE_WORDS[self.step])
        return not_checked(
            "located-moved" if self.moved else "located", stage=stage, frame=self.frame
        )


#: how the report names each place a claim may be put at (``[unchecked]`` keys)
STAGE_WORDS: Final[dict[str, str]] = {
    step: f"place-{step}"
    for step in (
        _WEIGHT_SUM,
        StepName.SCORES,
        StepName.SCALED,
        StepName.EXP,
        StepName.SUM,
        StepName.WEIGHTS,
        StepName.OUTPUT,
    )
}


def _entry(
    result: AttentionResult, step: str, place: Place, queries: list[str], keys: list[str]
) -> Quantity | None:
    """The exact value at ``place`` (a claim's step and position) in ``result``'s ``step``."""
    pos = place[1]
    if not pos or pos[0] not in queries:
        return None
    r = queries.index(pos[0])
    tensor = result.stage(step)
    if len(pos) == 1:
        return TensorEntry(tensor, (r,)) if len(tensor.shape) == 1 else None
    col = pos[1]
    c = keys.index(col) if step != StepName.OUTPUT and col in keys else -1
    if step == StepName.OUTPUT and col.isdigit():
        c = int(col)
    if c < 0 or len(tensor.shape) != 2 or c >= tensor.shape[-1]:
        return None
    return TensorEntry(tensor, (r, c))


def _holds(problem: Problem, place: Place, value: Quantity | None, ctx: _Ctx) -> bool:
    if value is None:
        return False
    try:
        return consistent_with(problem.spots[place].written, value, ctx.accepted, ctx.limits)
    except (ValueError, OverflowError):
        return False  # (judge.floats: a value beyond float32 prints as inf)


@dataclass(frozen=True)
class _Ctx:
    queries: list[str]
    keys: list[str]
    accepted: frozenset[Rounding]
    limits: Limits


def _own(problem: Problem, places: list[Place], result: AttentionResult, ctx: _Ctx) -> Tally:
    """How many numbers of a fact hold at their own places in ``result``."""
    good = sum(
        _holds(problem, p, _entry(result, p[0], p, ctx.queries, ctx.keys), ctx) for p in places
    )
    return Tally(good, len(places))


def _elsewhere(
    problem: Problem, places: list[Place], result: AttentionResult, own_frame: bool, ctx: _Ctx
) -> tuple[str, bool] | None:
    """The stage (and whether at other keys) of ``result`` at which every number of a fact
    holds, other than its own place in the problem's frame; None if there is none."""
    step = places[0][0]
    if step == StepName.SUM:
        for other in _SUMS:
            if other == step and own_frame:
                continue
            if all(
                _holds(
                    problem,
                    p,
                    Const(Fraction(1))
                    if other == StepName.WEIGHTS
                    else _entry(result, other, p, ctx.queries, ctx.keys),
                    ctx,
                )
                for p in places
            ):
                return (_WEIGHT_SUM if other == StepName.WEIGHTS else other), False
        return None
    if any(len(p[1]) != 2 for p in places):
        return None
    if len(places) == 1 and (problem.spots[places[0]].written.significant or 0) < MIN_DIGITS:
        return None  # (one short number, ``2``, is the entry of some stage by chance)
    for other in ROW_STEPS:
        if (other != step or not own_frame) and all(
            _holds(problem, p, _entry(result, other, p, ctx.queries, ctx.keys), ctx) for p in places
        ):
            return other, False
    if len(places) != 1:
        return None
    (row, col) = places[0][1]
    for other in ROW_STEPS:
        cols = ctx.keys if other != StepName.OUTPUT else [str(c) for c in range(64)]
        for c in cols:
            if c == col:
                continue
            value = _entry(result, other, (other, (row, c)), ctx.queries, ctx.keys)
            if value is not None and _holds(problem, places[0], value, ctx):
                return other, True
    return None


def locate(
    spec: Spec,
    problem: Problem,
    findings: Sequence[Finding],
    accepted: frozenset[Rounding],
    limits: Limits,
    facts: Sequence[Fact] = (),
) -> dict[int, Located]:
    """The facts ``check`` found wrong (or carried) whose every number reproduces at another
    place of their row (another stage, other keys for one number, another frame) in a frame
    the problem's other numbers confirm: placed there, not accused (see the module
    docstring)."""
    del facts  # (the words were heard when the problem was built: only numbers decide here)
    by_fact = places_of(problem)
    suspects = sorted(
        {
            o
            for f in findings
            if f.severity in FLAGGING and (o := problem.owner.get((f.step, f.position))) is not None
        }
    )
    if not suspects:
        return {}
    ctx = _Ctx(list(spec.query_tokens), list(spec.tokens), accepted, limits)
    own = spec.run()
    results: list[tuple[AttentionResult, str]] = [(own, _frame_text(own))]
    results += [(r, _frame_text(r)) for r in other_frames(spec, own)]
    held = [{i: _own(problem, ps, r, ctx) for i, ps in by_fact.items()} for r, _ in results]
    out: dict[int, Located] = {}
    where: dict[int, int] = {}  # (the frame each placed fact was placed in)
    changed = True
    while changed:  # (a fact placed is a neighbour that holds: the others are tried again)
        changed = False
        for i in suspects:
            if i in out or not (places := by_fact.get(i, [])):
                continue
            rest = [_rest(k, i, held, by_fact, where, out) for k in range(len(results))]
            for k, (result, frame) in enumerate(results):
                if not _supported(k, rest, _rest(0, i, held, by_fact, where, out, framed=False)):
                    continue
                if k and held[k][i].reproduced == len(places):
                    # (right at its own place in a frame the neighbours confirm)
                    out[i] = Located(i, places[0][0], frame)
                elif (got := _elsewhere(problem, places, result, k == 0, ctx)) is not None:
                    out[i] = Located(i, got[0], frame, got[1])
                else:
                    continue
                where[i], changed = k, True
                break
    return out


def _rest(
    k: int,
    i: int,
    held: list[dict[int, Tally]],
    by_fact: dict[int, list[Place]],
    where: dict[int, int],
    placed: dict[int, Located],
    framed: bool = True,
) -> Tally:
    """The neighbours of fact ``i`` in frame ``k``: every other number of the problem, at its
    own place, or at the place it was put in frame ``k``; ``framed``: only the numbers of the
    stages a frame changes (the raw scores hold in every frame: they tell none apart)."""
    out = Tally(0, 0)
    for j, t in held[k].items():
        if j == i:
            continue
        step = placed[j].step if j in placed else by_fact[j][0][0]
        if framed and step not in _FRAMED:
            continue
        out += Tally(len(by_fact[j]), len(by_fact[j])) if where.get(j) == k else t
    return out


def _supported(k: int, framed: list[Tally], everything: Tally) -> bool:
    """Whether the neighbours confirm frame ``k``: in the problem's own frame (0), most of
    the problem's other numbers hold; in another, most of its other framed numbers hold
    there, and no fewer than in the problem's own frame."""
    if k == 0:
        return everything.confirmed
    return framed[k].confirmed and framed[k].reproduced >= framed[0].reproduced


def _frame_text(result: AttentionResult) -> str:
    """The scale of a frame as the report says it: ``1``, ``1/√3``, ``1/4``."""
    sc = result.scale
    if sc.is_rational:
        p = sc.p
        return str(p) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
    d = 1 / (sc.q * sc.q * sc.r)
    return f"1/√{d}" if d.denominator == 1 else str(sc)
