"""The inputs a claim comes from, confirmed by its numbers.

A claim the code did not compute is first given the inputs given last before it
(:func:`symattn.read.inputs.default`): that is the order of the text, a guess. The numbers
decide. The claim's stage is computed from those inputs as certified balls
(:func:`symattn.read.reproduce.attention_stage`, in every frame: unscaled, ``1/√n`` and
``1/n`` for the stated ``d_k`` and the width of K) from the inputs as written (each decimal
as itself: read as every value that rounds to it, ``1.0`` beside ``0.0`` lets softmax and
``P V`` fit almost anything); when that does not reproduce the claim
(:class:`~symattn.read.reproduce.Tally`), the other readings of the inputs the text gives are
tried, and the one that reproduces most of it (confirmed, and more than the default) is
where it comes from:

- the weights written transposed (``Q = X W_qᵀ``: the Q a text prints is ``X Wᵀ``);
- each Q, K (and V, for an output) the text gives before the claim, nearest first: a head's
  ``Q_1``, ``K_1`` given beside the other head's ``Q_2``, ``K_2``, each head's scores are
  its own problem; Q, K and V given beside the X and W they were computed from.

A claim of a text that starts from the scores is given the scores written last before it;
that pairing is kept only when the numbers confirm it (the claim's stage computed from
those scores, in some frame, reproduces most of its numbers: :meth:`Origins.from_scores`) or
the claim follows its own scores (what is written between them is the working of its row:
scaled scores, exponentials, sums). A weights row written lines away, after other weights,
whose numbers do not come from those scores is no claim about them: the scores written
before them that reproduce it are its own, and if none does, it is not judged.

Nothing is accused here: a claim no reading reproduces keeps the default, and
:mod:`~symattn.read.accuse` decides what its findings are worth. The search is bounded by
:data:`BUDGET` (entries computed per text) and :data:`NEAREST` inputs of each role.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from symattn.errors import SymattnError
from symattn.numbers import Written, parse_number
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
#: how many inputs of each role, given before a claim, are tried as its sources
NEAREST: Final = 4

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
    budget: int = BUDGET
    spent: int = 0
    _balls: dict[tuple[int, bool], Balls | None] = field(default_factory=dict)
    _projected: dict[tuple[int, int, bool], Balls | None] = field(default_factory=dict)

    def of(self, f: Fact, got: tuple[Derivation, bool]) -> tuple[Derivation, bool]:
        """The derivation of claim ``f``: ``got`` (the default), unless its numbers do not
        reproduce from it and another reading of the inputs reproduces more of them."""
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
        if first is None or (first.confirmed and first.reproduced == first.compared):
            return got
        best, best_tally = got, first
        for alt in self._alternatives(f, d, stage):
            t = self._tally(f, target, stage, alt)
            if t is not None and t.confirmed and t.reproduced > best_tally.reproduced:
                best, best_tally = (alt, False), t
                if t.reproduced == t.compared:
                    break
        return best

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
        if matrix and len(target.rows) != len(source.rows):
            return None  # (a matrix of other rows than the scores: no stage of them)
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

    # ------------------------------------------------------------------ the readings tried

    def _alternatives(self, f: Fact, d: Derivation, stage: Relation) -> Iterator[Derivation]:
        """The other readings, likeliest first: the weights transposed, X itself as Q, K
        and V; then the Q, K (and
        V) given before the claim whose names say the claim's head (``Q_1``, ``K_1`` for
        ``Q_1 K_1^T``) or one head together, nearest first. (Names only order them: the one
        that reproduces most wins.)"""
        if d.start is Start.X:
            yield Derivation(d.start, d.refs, not d.w_t, d.scale, d.causal, d.row)
            # ``Q = K = V = X``: the embeddings themselves, without the projections
            x = d.refs[0]
            yield Derivation(Start.QKV, (x, x, x), False, d.scale, d.causal, d.row)
            yield from self._projections(f, d, stage)
        qs = self._latest((RoleName.Q,), f.at)
        ks = self._latest((RoleName.K, RoleName.KV), f.at)
        vs = self._latest((RoleName.V, RoleName.KV), f.at)
        if stage is not Relation.OUTPUT:
            # (the values take no part: the default's, or one of the head of Q)
            old = d.refs[2] if d.start is Start.QKV and len(d.refs) > 2 else -1
            vs = [old] if old >= 0 or not vs else vs
        one = stage is not Relation.OUTPUT and len(vs) == 1

        def likely(qkv: tuple[int, int, int]) -> tuple[int, list[int]]:
            return self._likely(f, qkv, skip=qkv[2] if one else None)

        for q, k, v in sorted(((q, k, v) for q in qs for k in ks for v in vs), key=likely):
            alt = Derivation(Start.QKV, (q, k, v), False, d.scale, d.causal, d.row)
            if alt != d:
                yield alt

    def _projections(self, f: Fact, d: Derivation, stage: Relation) -> Iterator[Derivation]:
        """X with each other set of W_Q, W_K (and W_V, for an output) given before the claim:
        one head's ``W_Q_1``, ``W_K_1`` beside the other head's ``W_Q_2``, ``W_K_2``. Sets whose
        names say one head come first, the claim's own head before the others."""
        x = d.refs[0]
        wqs = self._latest((RoleName.W_Q,), f.at)
        wks = self._latest((RoleName.W_K,), f.at)
        wvs = self._latest((RoleName.W_V,), f.at) if stage is Relation.OUTPUT else []
        old_v = d.refs[3] if len(d.refs) > 3 else -1

        def values(q: int) -> list[int]:
            # (the weights need no W_V: the one of W_Q's head stands in, else the default's)
            if wvs:
                return wvs
            same = [v for v in all_v if self.heads.get(v) == self.heads.get(q, -1)]
            return same[:1] or [old_v]

        all_v = self._latest((RoleName.W_V,), f.at)
        tries = ((q, k, v) for q in wqs for k in wks for v in values(q))
        for q, k, v in sorted(tries, key=lambda ws: self._likely(f, ws)):
            refs = (x, q, k, v) if v >= 0 else (x, q, k)
            for t in (d.w_t, not d.w_t):
                alt = Derivation(Start.X, refs, t, d.scale, d.causal, d.row)
                if alt != d:
                    yield alt

    def _likely(
        self, f: Fact, refs: tuple[int, ...], skip: int | None = None
    ) -> tuple[int, list[int]]:
        """The order of the readings tried for ``f``: inputs whose names say the claim's own
        head first, then those that say one head together, nearest first (``skip``: an input
        that takes no part, left out of the heads)."""
        heads = {self.heads.get(r) for r in refs if r >= 0 and r != skip}
        agree = len(heads) == 1 and None not in heads
        named = f.head is not None and heads == {f.head}
        return (-2 * named - agree, sorted(-r for r in refs))

    def _latest(self, roles: tuple[RoleName, ...], at: int) -> list[int]:
        keys = [k for k, i in self.inputs.items() if i.roles & set(roles) and k < at]
        return sorted(keys, reverse=True)[:NEAREST]

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
            q, k = (self._project(d.refs[0], w, d.w_t) for w in d.refs[1:3])
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
