"""Reading by reproduction: what an array is, decided by the numbers (DESIGN.md).

Every array the reader found is a :class:`Candidate`. The stages of attention are tried as
relations between candidates of compatible shapes (:class:`Relation`): ``S = A Bᵀ`` (or
``A B``), ``S' = S · c`` for each :class:`Frame`, ``E = exp(S')`` and ``exp(S' − max)``,
``P = E / ΣE`` row by row (masked keys get 0), ``S / ΣS`` (plain normalisation, a frame
some authors use instead of softmax), ``O = P V``, and an array written again.
Each relation is computed as certified balls (Arb) from the inputs as written — a decimal
stands for every value that rounds to it, an integer for itself — and compared with the
target entry by entry through each printed number's rounding interval (the ball of
:func:`symattn.judge.intervals.interval_ball`: the two balls overlap). No float tolerance
decides anything.

A relation is **confirmed** (:class:`Tally`) when most of its entries reproduce and more than a
couple do: chance is then ruled out. Words only order the hypotheses; a role the numbers
contradict is not used to accuse (:mod:`~symattn.read.level2`).

The search is bounded: each target is tried against at most :data:`NEAREST` candidates written
before it, and at most :data:`BUDGET` relations per text are computed (:class:`Search` says
when the budget stopped it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from fractions import Fraction
from functools import cached_property
from typing import Final

import flint

from symattn.exact.ball import arb_of
from symattn.judge.intervals import interval_ball, point_ball
from symattn.numbers import Written
from symattn.stages import BY_CLAIM

__all__ = [
    "BUDGET",
    "Balls",
    "MIN_CONFIRMING",
    "NEAREST",
    "PRODUCTS",
    "Candidate",
    "Frame",
    "FrameKind",
    "Match",
    "Relation",
    "Search",
    "Tally",
    "attention_stage",
    "best_match",
    "frames",
    "of_scores",
    "points",
    "product",
    "relate",
    "search",
    "tally",
]

#: how many entries must reproduce, at the least, to rule chance out ("more than a couple")
MIN_CONFIRMING: Final = 3
#: how many candidates before a target are tried as its sources
NEAREST: Final = 6
#: how many entries one search may compute (each relation tried costs its target's size)
BUDGET: Final = 20_000
#: the working precision of the balls (bits)
_PREC: Final = 96

#: a computed array: rows of balls (None: a masked key, whose weight is 0)
Balls = tuple[tuple[flint.arb | None, ...], ...]


class Relation(StrEnum):
    """What a target array is, as a function of its source arrays (values: the spec claim
    fields of :data:`symattn.stages.BY_CLAIM` where the stage has one)."""

    SCORES = BY_CLAIM["scores"].claim  #: ``A Bᵀ`` (or ``A B``)
    SCALED = BY_CLAIM["scaled"].claim  #: ``S · c``
    EXP = BY_CLAIM["exp"].claim  #: ``exp(S')``
    SUM = BY_CLAIM["sum"].claim  #: ``Σ_j exp(S'_j)``
    WEIGHTS = BY_CLAIM["weights"].claim  #: ``softmax(S · c)`` row by row
    OUTPUT = BY_CLAIM["output"].claim  #: ``P V``
    SHIFTED = "exp_shifted"  #: ``exp(S' − max S')``: the numerically stable softmax
    NORMALIZED = "normalized"  #: ``S / ΣS`` row by row: plain normalisation, not softmax
    SAME = "same"  #: the same array written again (an input repeated)


#: the relations of a target to two sources (a product)
PRODUCTS: Final = frozenset({Relation.SCORES, Relation.OUTPUT})


class FrameKind(Enum):
    """How scores are scaled."""

    NONE = "1"  #: not at all
    SQRT = "1/sqrt(n)"  #: divided by √n (n = d_k, the width of K)
    INVERSE = "1/n"  #: divided by n (d_k instead of √d_k)
    DIVISOR = "1/c"  #: divided by the divisor the author printed (``1.73`` for √3)


@dataclass(frozen=True)
class Frame:
    """One scaling of the scores: ``S · factor``."""

    kind: FrameKind
    n: Fraction = Fraction(1)

    @property
    def factor(self) -> flint.arb:
        with flint.ctx.workprec(_PREC):
            if self.kind is FrameKind.NONE:
                return arb_of(Fraction(1))
            if self.kind is FrameKind.SQRT:
                return 1 / arb_of(self.n).sqrt()
            return 1 / arb_of(self.n)

    def __str__(self) -> str:
        if self.kind is FrameKind.NONE:
            return "unscaled"
        if self.kind is FrameKind.SQRT:
            return f"divided by sqrt({self.n})"
        return f"divided by {self.n}"


def frames(widths: Iterable[int] = (), divisors: Iterable[Fraction] = ()) -> tuple[Frame, ...]:
    """The frames to try: unscaled, ``1/√n`` and ``1/n`` for each width or stated ``d_k``,
    and each printed divisor (as written: ``1.73`` is tried as 1.73)."""
    out = [Frame(FrameKind.NONE)]
    for n in widths:
        if n > 1:
            out += [Frame(FrameKind.SQRT, Fraction(n)), Frame(FrameKind.INVERSE, Fraction(n))]
    out += [Frame(FrameKind.DIVISOR, c) for c in divisors if c > 0 and c != 1]
    return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class Candidate:
    """An array the text writes: its rows (None: ``-inf``, a masked score, or a weight the
    mask makes 0), where it is, and a key the caller knows it by."""

    key: int
    rows: tuple[tuple[Written | None, ...], ...]
    at: int = 0

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0]) if self.rows else 0

    @property
    def size(self) -> int:
        return sum(len(r) for r in self.rows)

    @cached_property
    def balls(self) -> Balls:
        """The values each entry stands for: a decimal every value that rounds to it, an
        integer (or a fraction) itself; None for a masked entry."""
        return tuple(tuple(_ball(w) for w in r) for r in self.rows)


def _claimed(w: Written) -> flint.arb:
    """The values that round to a printed number, as a ball (enclosing its interval: a
    comparison of balls, no conversion to fractions, whatever the magnitudes)."""
    with flint.ctx.workprec(_PREC):
        return interval_ball(w)


def _ball(w: Written | None) -> flint.arb | None:
    if w is None:
        return None
    with flint.ctx.workprec(_PREC):
        return point_ball(w) if w.half_unit is None or w.decimals == 0 else interval_ball(w)


@dataclass(frozen=True)
class Tally:
    """How many entries of a target a relation reproduces, of how many compared."""

    reproduced: int
    compared: int

    @property
    def confirmed(self) -> bool:
        """Most entries reproduce, and more than a couple: not by chance."""
        return self.reproduced >= MIN_CONFIRMING and 2 * self.reproduced > self.compared

    @property
    def contradicted(self) -> bool:
        """Most entries (of more than a couple) do not reproduce."""
        return self.compared >= MIN_CONFIRMING and 2 * self.reproduced <= self.compared

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.reproduced + other.reproduced, self.compared + other.compared)


def tally(target: Candidate, computed: Balls) -> Tally:
    """Compare ``target`` with ``computed`` entry by entry (same shape, else nothing
    reproduces): an entry reproduces when some value of its ball rounds to the printed
    number; a masked entry (None) reproduces a masked or zero one. An entry that fits but
    tells nothing (:func:`_telling`: a one-digit integer near a computed real) is not
    counted."""
    if (len(computed), len(computed[0]) if computed else 0) != target.shape:
        return Tally(0, target.size)
    good = compared = 0
    for row, crow in zip(target.rows, computed, strict=True):
        for w, b in zip(row, crow, strict=True):
            if w is None:
                ok, telling = b is None, True
            elif b is None:
                ok, telling = w.value == 0, True
            else:
                ok = b.is_finite() and _claimed(w).overlaps(b)
                telling = _telling(w, b)
            if ok and not telling:
                continue  # (``1`` is a rounding of anything in [0.5, 1.5]: no evidence)
            good += ok
            compared += 1
    return Tally(good, compared)


def _telling(w: Written, b: flint.arb) -> bool:
    """Whether a printed number that fits a computed value is evidence: it is the exact value
    itself, or it is printed to within a tenth of its size (``0.063``, ``2.0``, ``0.00``), so
    that a value of the relation landing in its interval is no coincidence."""
    h = w.half_unit
    if h is None:
        return True
    if b.is_exact() and (b - arb_of(w.value)).is_zero():
        return True
    return 10 * h <= abs(w.value) if w.value else h <= Fraction(1, 200)


# --------------------------------------------------------------------------- the relations


def _product(a: Balls, b: Balls, transpose: bool) -> Balls | None:
    """``A Bᵀ`` (``transpose``) or ``A B``; None when the shapes do not fit or a cell is masked."""
    if not a or not b or any(x is None for r in (*a, *b) for x in r):
        return None
    cols = b if transpose else tuple(zip(*b, strict=True))
    if len(a[0]) != len(cols[0]):
        return None
    with flint.ctx.workprec(_PREC):
        return tuple(
            tuple(
                sum((x * y for x, y in zip(r, c, strict=True)), arb_of(Fraction(0))) for c in cols
            )
            for r in a
        )


def _scaled(s: Balls, c: flint.arb) -> Balls:
    with flint.ctx.workprec(_PREC):
        return tuple(tuple(None if x is None else x * c for x in r) for r in s)


def _exp(s: Balls, shifted: bool) -> Balls | None:
    """``exp`` of each entry, or of its distance to the row's largest (the entry written
    largest, and each entry written as it is, is shifted to exactly 0: a ball minus itself
    would widen)."""
    with flint.ctx.workprec(_PREC):
        out = []
        for r in s:
            live = [(j, x) for j, x in enumerate(r) if x is not None]
            if not live:
                return None
            top_j, top = max(live, key=lambda jx: float(jx[1].mid()))
            row: list[flint.arb | None] = []
            for j, x in enumerate(r):
                if x is None:
                    row.append(None)
                elif not shifted:
                    row.append(x.exp())
                else:
                    same = j == top_j or (x.mid() == top.mid() and x.rad() == top.rad())
                    row.append(arb_of(Fraction(1)) if same else (x - top).exp())
            out.append(tuple(row))
        return tuple(out)


def _softmax(s: Balls) -> Balls | None:
    """Row by row; ``P_j = 1 / Σ_k exp(s_k − s_j)`` (tighter for balls than ``E_j / ΣE``)."""
    with flint.ctx.workprec(_PREC):
        out = []
        for r in s:
            if all(x is None for x in r):
                return None
            row: list[flint.arb | None] = []
            for j, x in enumerate(r):
                if x is None:
                    row.append(None)
                    continue
                total = arb_of(Fraction(1))
                for k, y in enumerate(r):
                    if y is not None and k != j:
                        total += (y - x).exp()
                row.append(1 / total)
            out.append(tuple(row))
        return tuple(out)


def _normalized(s: Balls) -> Balls | None:
    """Row by row ``s_j / Σ_k s_k`` (masked keys get 0; the scale cancels, so one frame
    serves them all); None when a row's sum may be 0."""
    with flint.ctx.workprec(_PREC):
        out = []
        for r in s:
            total = sum((x for x in r if x is not None), arb_of(Fraction(0)))
            if total.contains(0):
                return None
            out.append(tuple(None if x is None else x / total for x in r))
        return tuple(out)


def _sums(e: Balls) -> Balls:
    with flint.ctx.workprec(_PREC):
        return tuple((sum((x for x in r if x is not None), arb_of(Fraction(0))),) for r in e)


def _output(p: Balls, v: Balls) -> Balls | None:
    filled = tuple(tuple(arb_of(Fraction(0)) if x is None else x for x in r) for r in p)
    return _product(filled, v, transpose=False)


def points(rows: Sequence[Sequence[Written | None]]) -> Balls:
    """The arrays' entries as the exact values written (a decimal as itself, not as every
    value that rounds to it): for telling apart readings of inputs that all fit loosely."""
    with flint.ctx.workprec(_PREC):
        return tuple(tuple(None if w is None else point_ball(w) for w in r) for r in rows)


def product(a: Balls, b: Balls, transpose: bool = False) -> Balls | None:
    """``A B`` (or ``A Bᵀ``) of two computed arrays; None when the shapes do not fit."""
    return _product(a, b, transpose)


def attention_stage(
    stage: Relation, q: Balls, k: Balls, v: Balls | None, frame: Frame
) -> Balls | None:
    """A stage of attention computed from Q, K (and V, for the output) in one frame; None
    when the shapes do not fit."""
    s = _product(q, k, transpose=True)
    return s if s is None or stage is Relation.SCORES else of_scores(stage, s, v, frame)


def of_scores(stage: Relation, s: Balls, v: Balls | None, frame: Frame) -> Balls | None:
    """A stage of attention computed from the scores ``s`` (None: a masked key) in one
    frame (and V, for the output); None when the shapes do not fit."""
    s = _scaled(s, frame.factor)
    if stage is Relation.SCALED:
        return s
    if stage in (Relation.EXP, Relation.SUM, Relation.SHIFTED):
        e = _exp(s, stage is Relation.SHIFTED)
        return _sums(e) if e is not None and stage is Relation.SUM else e
    p = _softmax(s)
    if stage is Relation.WEIGHTS or p is None:
        return p
    return _output(p, v) if stage is Relation.OUTPUT and v is not None else None


@dataclass(frozen=True)
class Match:
    """A relation tried on a target: its sources (candidate keys), frame and tally."""

    relation: Relation
    target: int
    sources: tuple[int, ...]
    tally: Tally
    frame: Frame | None = None

    def __str__(self) -> str:
        frame = f", {self.frame}" if self.frame is not None else ""
        return (
            f"{self.relation.value} of {self.sources}{frame}: "
            f"{self.tally.reproduced} of {self.tally.compared} entries reproduce"
        )


def _fitting(
    target: Candidate, sources: Sequence[Candidate], balls: dict[int, Balls]
) -> Iterator[tuple[Candidate, Balls]]:
    """The sources of ``target``'s shape, each whole; for a target of one row, also each row
    of a matrix as wide as it (``exp(S − m)`` of row 0 written under the whole S)."""
    rows, cols = target.shape
    for s in sources:
        sb = balls[s.key]
        if s.shape == target.shape:
            yield s, sb
        elif rows == 1 and s.shape[0] > 1 and s.shape[1] == cols:
            for r in sb:
                yield s, (r,)


def relate(
    target: Candidate,
    sources: Sequence[Candidate],
    frame_set: Sequence[Frame],
    wanted: frozenset[Relation] = frozenset(Relation),
) -> list[Match]:
    """Every relation (of ``wanted``) of ``target`` to one or two of ``sources`` (nearest
    first) that fits its shape, with its tally."""
    out: list[Match] = []
    one = wanted & {Relation.SCALED, Relation.EXP, Relation.SHIFTED, Relation.WEIGHTS}
    balls = {c.key: c.balls for c in (target, *sources)}
    rows, cols = target.shape
    for s, sb in _fitting(target, sources, balls):
        if Relation.SAME in wanted:
            out.append(Match(Relation.SAME, target.key, (s.key,), tally(target, sb)))
        for fr in frame_set if one else ():
            scaled = _scaled(sb, fr.factor)
            if fr.kind is not FrameKind.NONE and Relation.SCALED in wanted:
                out.append(Match(Relation.SCALED, target.key, (s.key,), tally(target, scaled), fr))
            for rel, got in (
                (Relation.WEIGHTS, _softmax(scaled)),
                (Relation.EXP, _exp(scaled, False)),
                (Relation.SHIFTED, _exp(scaled, True)),
            ):
                if got is not None and rel in wanted:
                    out.append(Match(rel, target.key, (s.key,), tally(target, got), fr))
        # (after softmax: of equal tallies, the likelier relation is listed first)
        plain = _normalized(sb) if Relation.NORMALIZED in wanted else None
        if plain is not None:
            out.append(Match(Relation.NORMALIZED, target.key, (s.key,), tally(target, plain)))
    for s in sources:
        sb = balls[s.key]
        if s.shape[0] == rows and cols == 1 and Relation.SUM in wanted:
            for fr in frame_set:
                got = _exp(_scaled(sb, fr.factor), False)
                if got is not None:
                    m = Match(Relation.SUM, target.key, (s.key,), tally(target, _sums(got)), fr)
                    out.append(m)
    products = bool(wanted & PRODUCTS)
    for a in sources if products else ():
        for b in sources:
            if a.shape[0] != rows:
                continue
            for transpose in (True, False):
                got = _product(balls[a.key], balls[b.key], transpose)
                if got is not None and (len(got), len(got[0])) == target.shape:
                    rel = Relation.SCORES if transpose else Relation.OUTPUT
                    out.append(Match(rel, target.key, (a.key, b.key), tally(target, got)))
            if a.shape == (rows, b.shape[0]):
                got = _output(balls[a.key], balls[b.key])
                if got is not None and (len(got), len(got[0])) == target.shape:
                    out.append(
                        Match(Relation.OUTPUT, target.key, (a.key, b.key), tally(target, got))
                    )
    return out


def best_match(matches: Iterable[Match]) -> Match | None:
    """The match that reproduces the most entries (the first of equals: callers list the
    likeliest relations first)."""
    best: Match | None = None
    for m in matches:
        if best is None or m.tally.reproduced > best.tally.reproduced:
            best = m
    return best


@dataclass(frozen=True)
class Search:
    """The confirmed relation of each target (by key), and whether the budget stopped it."""

    found: dict[int, Match] = field(default_factory=dict)
    closest: dict[int, Match] = field(default_factory=dict)
    stopped: bool = False
    #: the key of the first target the budget left untried (when stopped)
    untried: int | None = None


def search(
    candidates: Sequence[Candidate],
    frame_set: Sequence[Frame],
    budget: int = BUDGET,
    wanted: frozenset[Relation] = frozenset(Relation),
    targets: frozenset[int] | None = None,
    anchors: frozenset[int] = frozenset(),
) -> Search:
    """For each candidate (in text order; of ``targets`` only, when given), the relation
    (of ``wanted``) to the candidates just before it that reproduces it (confirmed), or the
    closest one tried. ``anchors``: candidates tried as factors of a product (``PRODUCTS``)
    of every later target, however far before it (the given arrays of a problem).
    ``budget`` counts entries computed."""
    ordered = sorted(candidates, key=lambda c: c.at)
    found: dict[int, Match] = {}
    closest: dict[int, Match] = {}
    spent = 0
    for i, target in enumerate(ordered):
        sources = ordered[max(0, i - NEAREST) : i][::-1]
        if wanted & PRODUCTS:
            sources += [c for c in ordered[: max(0, i - NEAREST)][::-1] if c.key in anchors]
        if not sources or (targets is not None and target.key not in targets):
            continue
        fitting = [c for c in sources if c.shape == target.shape]
        cost = target.size * (len(fitting) * (3 * len(frame_set) + 2) + 1)
        if wanted & PRODUCTS:
            cost += target.size * 3 * len(sources) ** 2
        if spent + cost > budget:
            return Search(found, closest, True, target.key)
        spent += cost
        matches = relate(target, sources, frame_set, wanted)
        best = best_match(m for m in matches if m.relation is not Relation.SAME)
        same = best_match(m for m in matches if m.relation is Relation.SAME)
        if same is not None and same.tally.reproduced == same.tally.compared:
            best = same  # (written again: that explains every entry, whatever else fits)
        if best is None:
            continue
        again = best is same and _restates(
            target, next(c for c in sources if c.key == best.sources[0])
        )
        (found if best.tally.confirmed or again else closest)[target.key] = best
    return Search(found, closest, False)


def _restates(target: Candidate, source: Candidate) -> bool:
    """Whether a short array (fewer numbers than confirm a relation) is an earlier one, or
    one of its rows, written again digit for digit, one of its numbers no integer
    (``[0.2, 0.8]`` under ``Encoder Output`` after ``[[0.2, 0.8], [0.9, 0.1]]``)."""
    if target.size < 2 or any(w is None for row in target.rows for w in row):
        return False
    texts = [tuple(w.text for w in row if w is not None) for row in target.rows]
    if all(w.value.denominator == 1 for row in target.rows for w in row if w is not None):
        return False  # (small integers coincide by chance: ``[1, 2]``)
    rows = [tuple(w.text if w is not None else "" for w in row) for row in source.rows]
    return texts == rows or (len(texts) == 1 and texts[0] in rows)
