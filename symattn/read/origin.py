"""The inputs a claim comes from, confirmed by its numbers.

A claim the code did not compute is first given the inputs given last before it
(:func:`symattn.read.inputs.default`, whose names and row labels only make it the first
candidate): that is the order of the text, a guess. The numbers decide. The claim's
stage is computed from those inputs as certified balls
(:func:`symattn.read.reproduce.attention_stage`, in every frame: unscaled, ``1/√n`` and
``1/n`` for the stated ``d_k`` and the width of K) from the inputs as written (each decimal
as itself: read as every value that rounds to it, ``1.0`` beside ``0.0`` lets softmax and
``P V`` fit almost anything); when that does not reproduce the claim
(:class:`~symattn.read.reproduce.Tally`), the other readings of the inputs the text gives are
tried, and the one that reproduces most of it (confirmed, and more than the default) is
where it comes from:

- the weights written transposed (``Q = X W_qᵀ``: the Q a text prints is ``X Wᵀ``);
- X·W with the queries' X and the keys' X each any X the text gives (``X_q`` and an
  encoder's X: cross-attention, row labels or not);
- each Q, K (and V, for an output) the text gives before the claim, nearest first: a head's
  ``Q_1``, ``K_1`` given beside the other head's ``Q_2``, ``K_2``, each head's scores are
  its own problem; Q, K and V given beside the X and W they were computed from
  (:mod:`~symattn.read.candidates`). Given Q, K, V that are together the projections of an
  X given before them are that X·W (:meth:`Origins._structure`): a slip in them is the
  author's, and what is computed from it is carried.

A claim of a text that starts from the scores is given the scores written last before it;
that pairing is kept only when the numbers confirm it (the claim's stage computed from
those scores, in some frame, reproduces most of its numbers: :meth:`Origins.from_scores`) or
the claim follows its own scores (what is written between them is the working of its row:
scaled scores, exponentials, sums). A weights row written lines away, after other weights,
whose numbers do not come from those scores is no claim about them: the scores written
before them that reproduce it are its own, and if none does, it is not judged.

Nothing is accused here: a claim no reading reproduces keeps one its neighbours confirm (or
the default); when none is confirmed and rival derivations (X·W against the given Q, K, V)
give it different values, it is :attr:`Origins.undecided` (not checked, with the reason);
otherwise
:mod:`~symattn.read.accuse` decides what its findings are worth. The search is bounded by
:data:`BUDGET` (entries computed per text) and :data:`NEAREST` inputs of each role.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from symattn.errors import SymattnError
from symattn.numbers import Written, parse_number
from symattn.read.candidates import NEAREST, alternatives, nearest, projected
from symattn.read.dataflow import Derivation, Start
from symattn.read.facts import Fact
from symattn.read.inputs import INPUT_STARTS, SCORE_STARTS, Input, transposed
from symattn.read.reproduce import (
    Balls,
    Candidate,
    Frame,
    FrameKind,
    Relation,
    Tally,
    attention_stage,
    of_scores,
    points,
    product,
    tally,
)
from symattn.read.roles import RoleName
from symattn.stages import ROW_STAGES

__all__ = ["BUDGET", "NEAREST", "Origins"]

#: how many entries (products and stages) the search may compute for one text
BUDGET: Final = 40_000
#: the claims whose stage is computed from Q and K (and V)
_STAGES: Final[Mapping[RoleName | None, Relation]] = {
    RoleName(r.value): r
    for r in Relation
    if r not in (Relation.SHIFTED, Relation.SAME, Relation.NORMALIZED)
}
#: the place of each stage in a query row (scores first), by role (a derivation that starts
#: from the scores names its start by the stage's name)
_ORDER: Final[Mapping[str | None, int]] = {RoleName(s.claim): i for i, s in enumerate(ROW_STAGES)}
#: the input a derivation from given scores starts from
_START_ROLE: Final = {Start.SCORES: RoleName.SCORES, Start.SCALED: RoleName.SCALED}
#: the stages whose numbers a row of scores gives, one per key
_FROM_SCORES: Final[Mapping[RoleName | None, Relation]] = {
    RoleName.SCALED: Relation.SCALED,
    RoleName.EXP: Relation.EXP,
    RoleName.WEIGHTS: Relation.WEIGHTS,
}


@dataclass
class Origins:
    """The inputs of a text and the frames to try; :meth:`of` confirms a claim's inputs.
    (Built once per text by :func:`symattn.read.problem.build_problems`; it caches the
    inputs' balls and counts what it computed against :data:`BUDGET`.)"""

    inputs: dict[int, Input]
    frames: tuple[Frame, ...]
    #: the head (or version) the name of each input says (``Q_1``: 1), by its offset
    heads: dict[int, int] = field(default_factory=dict)
    #: the facts of the text (the Q, K, V it writes confirm a derivation from X)
    facts: Sequence[Fact] = ()
    budget: int = BUDGET
    spent: int = 0
    #: the claims (by offset) no derivation reproduces while those that fit them disagree,
    #: each with the reason: not checked
    undecided: dict[int, str] = field(default_factory=dict)
    #: what each derivation reproduced of the claims given to it (its neighbours' support)
    _held: dict[tuple[object, ...], Tally] = field(default_factory=dict)
    #: the Q, K, V written (offsets) whose numbers confirm a derivation from X
    _projecting: dict[tuple[object, ...], frozenset[int]] = field(default_factory=dict)
    _balls: dict[tuple[int, bool], Balls | None] = field(default_factory=dict)
    _projected: dict[tuple[int, int, bool], Balls | None] = field(default_factory=dict)

    def of(self, f: Fact, got: tuple[Derivation, bool]) -> tuple[Derivation, bool]:
        """The derivation of claim ``f``, decided by reproduction among the candidates
        (``got``, the default its names and place suggest, first; then
        :func:`~symattn.read.candidates.alternatives`): the one whose stage reproduces most
        of it (confirmed; the default wins ties). A derivation from the given Q, K, V that
        an X·W reproduces (its Q, K, V are that X's projections, most entries together)
        is that X·W: the Q, K, V are then claims, and a slip in them the author's. When no
        candidate reproduces ``f``, one that its neighbours confirm (the Q, K, V written
        are its projections, or other claims reproduced from it) is kept, the default
        first; when none is and those that fit ``f`` disagree, ``f`` is undecided
        (:attr:`undecided`: not checked, with the reason)."""
        d, assumed = got
        stage = _STAGES.get(f.role)
        if stage is None or d.start not in INPUT_STARTS or not _complete(f):
            return got
        target = _target(f)
        if d.row is None and _unplaced(f):
            d = self._row(f, target, stage, d)
            got = (d, assumed)
        if assumed:
            return got
        first = self._tally(f, target, stage, d)
        if first is not None and first.confirmed and first.reproduced == first.compared:
            self._hold(d, first)
            return got
        best, best_tally = d, first if first is not None else Tally(0, target.size)
        fitting = [d] if first is not None else []
        seen = {d}
        for alt in alternatives(self.inputs, self.heads, f.at, f.head, d, stage is Relation.OUTPUT):
            if alt in seen:
                continue
            seen.add(alt)
            t = self._tally(f, target, stage, alt)
            if t is None:
                continue
            fitting.append(alt)
            if t.confirmed and t.reproduced > best_tally.reproduced:
                best, best_tally = alt, t
                if t.reproduced == t.compared:
                    break
        if best_tally.confirmed:
            best = self._structure(best, f.at)
            self._hold(best, best_tally)
            return best, False
        held = [c for c in fitting if self._confirmed(c, f.at)]
        if held:
            return held[0], False
        # (the default's own other readings, X·Wᵀ and X itself, and other given Q, K, V
        # for given Q, K, V (another head's), rescue a claim its numbers confirm; they are
        # no rival problem: X·W against the given Q, K, V, or another X, are)
        rivals = [c for c in fitting if _rival(c, d)]
        if rivals and first is not None and self._disagree(stage, [d, *rivals]):
            self.undecided[f.at] = (
                f"which inputs {f.name or f.role} comes from is not told: "
                f"{len(fitting)} derivations fit it (X·W, the given Q, K, V), they give "
                "different values, and neither its numbers nor its neighbours' reproduce one"
            )
        return (fitting[0] if first is None and fitting else d), False

    def projections(self, key: Derivation) -> frozenset[int]:
        """The Q, K, V the text gives (offsets) whose numbers confirmed ``key``, a
        derivation from X, as their projections: claims of its problem."""
        return self._projecting.get(_key(key), frozenset())

    def _hold(self, d: Derivation, t: Tally) -> None:
        k = _key(d)
        self._held[k] = self._held.get(k, Tally(0, 0)) + t

    def _confirmed(self, d: Derivation, at: int) -> bool:
        """Whether ``d``'s neighbours confirm it: claims reproduced from it, or (from X) the
        Q, K, V written before ``at`` are its projections."""
        held = self._held.get(_key(d))
        if held is not None and held.confirmed:
            return True
        support = self._support(d, at)
        return support is not None and support[0].confirmed

    def _structure(self, d: Derivation, at: int) -> Derivation:
        """The derivation from X whose projections the given Q, K, V of ``d`` are (together,
        most entries: a slip in one is the author's), else ``d``."""
        if d.start is not Start.QKV or len(d.refs) < 3 or len(set(d.refs[:3])) < 3:
            return d
        given = set(d.refs[:3])
        for alt in alternatives(self.inputs, self.heads, at, None, d, True):
            if alt.start is not Start.X:
                continue
            support = self._support(alt, at)
            if support is not None and support[0].confirmed and given <= support[1]:
                self._projecting[_key(alt)] = self.projections(alt) | support[1]
                return Derivation(alt.start, alt.refs, alt.w_t, d.scale, d.causal, d.row)
        return d

    def _support(self, d: Derivation, at: int) -> tuple[Tally, frozenset[int]] | None:
        """How much of the Q, K and V written before ``at`` (the nearest of each, of the
        projection's shape) ``d``'s projections reproduce, together, and which they are."""
        sides = projected(d)
        if sides is None:
            return None
        xq, x, wq, wk, wv = sides
        total, used = Tally(0, 0), set()
        for role, (src, w) in (
            (RoleName.Q, (xq, wq)),
            (RoleName.K, (x, wk)),
            (RoleName.V, (x, wv)),
        ):
            got = self._project(src, w, d.w_t)
            if got is None:
                return None
            shape = (len(got), len(got[0]) if got else 0)
            written = [
                g
                for g in self.facts
                if g.role is role and g.at < at and g.dims == shape and _complete(g)
            ]
            if not written:
                continue
            g = written[-1]
            total = total + tally(_target(g), got)
            used.add(g.at)
        return (total, frozenset(used)) if total.compared else None

    def _disagree(self, stage: Relation, ds: Sequence[Derivation]) -> bool:
        """Whether the derivations ``ds`` give the claim's stage different values."""
        outs = [self._computed(stage, d, 0) for d in ds]
        got = [o for o in outs if o is not None]
        if len(got) < 2:
            return False
        a = got[0]
        return any(not _same(a, b) for b in got[1:])

    def from_scores(self, f: Fact, d: Derivation, facts: Sequence[Fact]) -> Derivation | None:
        """The scores claim ``f`` comes from, in a text that starts from the scores (``d``: the
        scores written last before it): those, when ``f`` follows them with only the working
        of its row between (scaled scores, exponentials, sums) or when its stage computed
        from them (in some frame; the keys it writes 0 for masked) reproduces most of its
        numbers; else the scores written before them (nearest first) that reproduce it
        (confirmed); else None: the pairing is a guess the numbers do not confirm."""
        if d.start not in SCORE_STARTS or not d.refs or d.refs[0] not in self.inputs:
            return d
        source = self.inputs[d.refs[0]]
        lo, hi = _ORDER.get(d.start, 0), _ORDER.get(f.role, 0)
        between = [g for g in facts if source.at < g.at < f.at and g.dims and g.role in _ORDER]
        if all(lo < _ORDER[g.role] < hi for g in between):
            return d
        got = self._from(f, d, source)
        if got is not None and 2 * got.reproduced > got.compared:
            return d
        others = [
            k
            for k in self._latest((_START_ROLE[d.start],), source.at)
            if self.inputs[k].width == source.width
        ]
        for k in others:
            alt = Derivation(d.start, (k, *d.refs[1:]), d.w_t, d.scale, d.causal, d.row)
            t = self._from(f, alt, self.inputs[k])
            if t is not None and t.confirmed:
                return alt
        return None

    def _from(self, f: Fact, d: Derivation, source: Input) -> Tally | None:
        """How much of ``f`` its stage computed from the scores ``source`` reproduces, in its
        best frame and row (the row ``d`` names, else any); None when it cannot be told."""
        stage = _FROM_SCORES.get(f.role)
        if stage is None or not _complete(f):
            return None
        target = _target(f)
        matrix = len(target.rows) > 1
        zero = f.role is RoleName.WEIGHTS

        def entry(r: int, j: int, x: str) -> Written | None:
            written = target.rows[r if matrix else 0]
            t = written[j] if j < len(written) else None
            if (r < len(source.masked) and source.masked[r][j]) or (
                zero and t is not None and t.value == 0
            ):
                return None
            return parse_number(x)

        try:
            rows = [
                tuple(entry(r, j, x) for j, x in enumerate(row))
                for r, row in enumerate(source.rows)
            ]
        except SymattnError:
            return None
        if matrix:
            tries = [Candidate(0, tuple(rows), source.at)]
        else:
            picked = d.row if d.row is not None and 0 <= d.row < len(rows) else None
            tries = [
                Candidate(r, (row,), source.at)
                for r, row in enumerate(rows)
                if picked is None or r == picked
            ]
        frames = self.frames if d.start is Start.SCORES else (Frame(FrameKind.NONE),)
        best: Tally | None = None
        for c in tries:
            if c.shape != target.shape:
                continue
            exact = points(c.rows)  # (each decimal as itself: see the module's docstring)
            for fr in frames:
                got = of_scores(stage, exact, None, fr)
                t = tally(target, got) if got is not None else None
                if t is not None and (best is None or t.reproduced > best.reproduced):
                    best = t
        return best

    def _latest(self, roles: tuple[RoleName, ...], at: int) -> list[int]:
        return nearest(self.inputs, roles, at)

    # ------------------------------------------------------------------- computing a stage

    def _computed(
        self, stage: Relation, d: Derivation, tallies: int
    ) -> list[tuple[Frame, Balls]] | None:
        """The claim's stage computed from ``d`` in each frame (counting ``tallies`` entries
        compared against the budget); None when the inputs do not fit, the stage needs a V
        that ``d`` has not, or the budget is spent."""
        qkv = self._qkv(d)
        if qkv is None:
            return None
        q, k, v = qkv
        if stage is Relation.OUTPUT and v is None:
            return None
        cost = len(q) * len(k) * (len(q[0]) + len(self.frames)) + tallies
        if self.spent + cost > self.budget:
            return None
        self.spent += cost
        # (scores printed under the scaled scores' name, or the reverse, are one relation
        # in another frame: the inputs they come from are found in every frame)
        stage = Relation.SCALED if stage is Relation.SCORES else stage
        out = []
        for fr in self.frames:
            got = attention_stage(stage, q, k, v, fr)
            if got is None:
                return None
            out.append((fr, got))
        return out

    def _tally(self, f: Fact, target: Candidate, stage: Relation, d: Derivation) -> Tally | None:
        """How much of ``f`` the stage computed from ``d`` reproduces, in its best frame;
        None when the shapes do not fit or the budget is spent."""
        computed = self._computed(stage, d, target.size)
        if computed is None:
            return None
        best: Tally | None = None
        for _, got in computed:
            rows = _rows_of(f, d, got)
            if rows is None:
                return None
            t = tally(target, rows)
            if best is None or t.reproduced > best.reproduced:
                best = t
        return best

    def _row(self, f: Fact, target: Candidate, stage: Relation, d: Derivation) -> Derivation:
        """``d`` with the query row that one row of ``f``, which names none, is about, by its
        numbers: the first row that reproduces all of them (in some frame), else the one row
        that reproduces most of them (confirmed); ``d`` unchanged when none or several do."""
        qkv = self._qkv(d)
        if qkv is None or len(qkv[0]) < 2:
            return d
        computed = self._computed(stage, d, target.size * len(qkv[0]))
        if computed is None:
            return d
        best: dict[int, Tally] = {}
        for _, got in computed:
            for r, row in enumerate(got):
                t = tally(target, (row,))
                if r not in best or t.reproduced > best[r].reproduced:
                    best[r] = t
        full = [r for r, t in best.items() if t.compared and t.reproduced == t.compared]
        if full:
            return replace(d, row=min(full))
        most = max((t.reproduced for t in best.values() if t.confirmed), default=0)
        rows = [r for r, t in best.items() if t.confirmed and t.reproduced == most]
        return replace(d, row=rows[0]) if len(rows) == 1 else d

    def _qkv(self, d: Derivation) -> tuple[Balls, Balls, Balls | None] | None:
        if d.start is Start.QKV:
            q, k = (self._input(r) for r in d.refs[:2])
            v = self._input(d.refs[2]) if len(d.refs) > 2 and d.refs[2] >= 0 else None
        else:
            if len(d.refs) < 3:
                return None
            xq = d.refs[4] if len(d.refs) > 4 else d.refs[0]
            q = self._project(xq, d.refs[1], d.w_t)
            k = self._project(d.refs[0], d.refs[2], d.w_t)
            v = self._project(d.refs[0], d.refs[3], d.w_t) if len(d.refs) > 3 else None
        if q is None or k is None:
            return None
        return q, k, v

    def _input(self, key: int, t: bool = False) -> Balls | None:
        if (key, t) not in self._balls:
            i = self.inputs.get(key)
            rows = _written(transposed(i.rows) if t else i.rows) if i is not None else None
            self._balls[(key, t)] = points(rows) if rows else None
        return self._balls[(key, t)]

    def _project(self, x: int, w: int, t: bool) -> Balls | None:
        if (x, w, t) not in self._projected:
            xb, wb = self._input(x), self._input(w, t)
            got = product(xb, wb) if xb is not None and wb is not None else None
            if got is not None:
                self.spent += len(xb or ()) * len(got[0]) * len(wb or ())
            self._projected[(x, w, t)] = got
        return self._projected[(x, w, t)]


def _rival(c: Derivation, d: Derivation) -> bool:
    """Whether ``c`` is another problem than ``d`` (not a reading of the same arrays): X·W
    against the given Q, K, V, or X·W from another X."""
    if c.start is Start.X and len(c.refs) > 4 and c.refs[4] in d.refs:
        return False  # (the given Q projected again: a reading, not another problem)
    if Start.X in (c.start, d.start) and c.start is not d.start:
        return not (c.start is Start.QKV and set(c.refs) <= set(d.refs))
    return c.start is Start.X and not set(c.refs) <= set(d.refs)


def _key(d: Derivation) -> tuple[object, ...]:
    return (d.start, d.refs, d.w_t)


def _same(a: list[tuple[Frame, Balls]], b: list[tuple[Frame, Balls]]) -> bool:
    """Whether two computations give the same values in each frame (their balls overlap)."""
    for (_, x), (_, y) in zip(a, b, strict=False):
        if len(x) != len(y) or any(len(r) != len(s) for r, s in zip(x, y, strict=True)):
            return False
        for r, s in zip(x, y, strict=True):
            for u, v in zip(r, s, strict=True):
                if u is None or v is None:
                    if u is not v:
                        return False
                elif not u.overlaps(v):
                    return False
    return True


def _unplaced(f: Fact) -> bool:
    """Whether ``f`` is one row that says nothing of which query it is for."""
    one = len(f.dims) == 1 or (len(f.dims) == 2 and f.dims[0] == 1)
    return one and f.index is None and not f.token


def _complete(f: Fact) -> bool:
    return bool(f.spots) and all(s is not None for s in f.spots) and not f.elided


def _target(f: Fact) -> Candidate:
    cells = tuple(s.written if s is not None else None for s in f.spots)
    width = f.dims[-1] if f.dims else 1
    rows = tuple(cells[i : i + width] for i in range(0, len(cells), width))
    return Candidate(-1, rows, f.at)


def _rows_of(f: Fact, d: Derivation, computed: Balls) -> Balls | None:
    """The rows of ``computed`` that claim ``f`` states: all of them (a matrix of the
    stage's shape), or the one row its name, its code or the only query selects."""
    if len(f.dims) == 2:
        return computed if (len(computed), len(computed[0])) == f.dims else None
    if len(f.dims) != 1:
        return None
    row = d.row if d.row is not None else f.index - 1 if f.index is not None else None
    if row is None and len(computed) == 1:
        row = 0
    if row is None or not 0 <= row < len(computed) or len(computed[row]) != f.dims[0]:
        return None
    return (computed[row],)


def _written(rows: Sequence[Sequence[str]]) -> tuple[tuple[Written | None, ...], ...] | None:
    try:
        return tuple(tuple(parse_number(x) for x in r) for r in rows)
    except SymattnError:
        return None
