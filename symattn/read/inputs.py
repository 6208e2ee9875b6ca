"""The input arrays a text gives, and the inputs each claim is computed from.

An input is an array the text gives as X, a weight matrix, Q, K, V (or encoder states serving
as keys and values), or the first stage it starts from (scores, scaled scores). Vectors of one
role that name their row (``q_1``, ``k_{I}``, ``K_animal``) are joined into one matrix. A claim
the code did not compute comes from the inputs given last before it (:func:`default`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Final

from symattn.numbers import Written
from symattn.read.dataflow import Derivation, Start
from symattn.read.facts import INPUT_ROLES, Fact
from symattn.read.foreign import foreign
from symattn.read.observations import Spot
from symattn.read.roles import RoleName

__all__ = [
    "INPUT_STARTS",
    "SCORE_STARTS",
    "Input",
    "canon",
    "complete",
    "default",
    "gather",
    "input_mask",
    "latest",
    "lists",
    "one_slice",
    "repeats",
    "restated",
    "row_restated",
    "rows_of",
    "signatures",
    "spec_inputs",
    "spec_text",
    "transposed",
    "v_of",
]


@dataclass(frozen=True)
class Input:
    """An input array: its rows (as written), names of its rows, and where it is."""

    roles: frozenset[RoleName]
    rows: tuple[tuple[str, ...], ...]
    row_names: tuple[str, ...]
    spots: tuple[Spot, ...]
    at: int
    #: the entries written ``-inf`` (given scores: the keys a mask removes), row by row
    masked: tuple[tuple[bool, ...], ...] = ()

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0


def rows_of(f: Fact) -> tuple[tuple[str, ...], ...]:
    vals = tuple(spec_text(s.written) if s is not None else "0" for s in f.spots)
    if len(f.dims) == 1:
        return (vals,)
    width = f.dims[-1]
    return tuple(vals[i : i + width] for i in range(0, len(vals), width))


def complete(f: Fact, masked: bool = False) -> bool:
    """Every entry written (with ``masked``: or written ``-inf``)."""
    allowed = f.masked if masked and f.masked else (False,) * len(f.spots)
    if f.elided or len(f.dims) not in (1, 2):
        return False
    if any(s is None and not m for s, m in zip(f.spots, allowed, strict=False)):
        return False
    return len(f.spots) == f.dims[0] * (f.dims[1] if len(f.dims) == 2 else 1)


#: the starts of a derivation from given scores (scaled or not)
SCORE_STARTS: Final = frozenset({Start.SCORES, Start.SCALED})
#: the starts of a derivation from the inputs (X with W_Q, W_K, W_V; or Q, K, V)
INPUT_STARTS: Final = frozenset({Start.X, Start.QKV})
#: the inputs whose presence says a text does not start from the scores
_PROJECTED: Final = frozenset({RoleName.X, RoleName.Q, RoleName.K, RoleName.KV})
#: the stages a text may start from (given scores, scaled or not)
_SCORE_STAGES: Final = frozenset({RoleName.SCORES, RoleName.SCALED})
#: the projections that make Q, K and V of a printed X
_WEIGHT_ROLES: Final = frozenset({RoleName.W_Q, RoleName.W_K, RoleName.W_V})

#: the inputs whose vectors name their row (``q_1``, ``k_{I}``) and are joined into a matrix
_ROW_VECTORS: Final = frozenset({RoleName.Q, RoleName.K, RoleName.V, RoleName.X})
#: the inputs besides X a text may give (any of them: X is not Q, K and V at once)
_NOT_X: Final = frozenset(
    {
        RoleName.W_Q,
        RoleName.W_K,
        RoleName.W_V,
        RoleName.Q,
        RoleName.K,
        RoleName.V,
        RoleName.KV,
    }
)


def gather(facts: Sequence[Fact]) -> dict[int, Input]:
    """Every input array the text gives, by offset; vectors of one role that name their row
    (``q_1``, ``k_{I}``) are joined into one matrix, kept at the offset of the first."""
    out: dict[int, Input] = {}
    groups: dict[RoleName, list[Fact]] = {}
    # a text that gives no Q, K or X starts from the scores: a row of them that names its
    # query (``q1 的原始分数：[…]``) is then a given row too
    from_scores = not any(f.given and f.role in _PROJECTED for f in facts)
    for f in facts:
        if f.given:
            f = one_slice(f)
        one_row = from_scores and len(f.dims) == 1 and not f.token
        first_stage = f.role in _SCORE_STAGES and (f.index is None or one_row) and not f.col
        if not (
            (f.given and f.role in INPUT_ROLES or first_stage)
            and f.role is not RoleName.MASK
            and complete(f, masked=first_stage)
        ):
            continue
        if f.role is None:
            continue  # (never: a given or first-stage fact has a role)
        if len(f.dims) == 1 and (f.token or f.index is not None) and f.role in _ROW_VECTORS:
            groups.setdefault(f.role, []).append(f)
            continue
        if (f.index is not None and not first_stage) or f.token:
            continue
        names = f.row_names if len(f.row_names) == len(rows_of(f)) else ()
        if _restates_a_row(f, out, facts):
            continue
        if f.at in out:
            old = out[f.at]
            out[f.at] = Input(old.roles | {f.role}, old.rows, old.row_names, old.spots, old.at)
            continue
        masked = _masked_rows(f) if first_stage else ()
        out[f.at] = Input(
            frozenset({f.role}), rows_of(f), names, tuple(s for s in f.spots if s), f.at, masked
        )
    for role, fs in groups.items():
        for version in _versions(fs):
            joined = _joined(role, version, out)
            if joined is not None:
                out[joined.at] = joined
    return out


def _versions(fs: Sequence[Fact]) -> list[list[Fact]]:
    """The vectors of one role in order, cut where an index already given comes again with
    other numbers: ``K1``, ``K2`` of a second example after the first's are its own."""
    out: list[list[Fact]] = [[]]
    values: dict[str, tuple[tuple[str, ...], ...]] = {}
    for f in fs:
        key = str(f.index) if f.index is not None else f.token
        if key in values and values[key] != rows_of(f):
            out.append([])
            values = {}
        values.setdefault(key, rows_of(f))
        out[-1].append(f)
    return [v for v in out if v]


def _joined(role: RoleName, fs: Sequence[Fact], out: dict[int, Input]) -> Input | None:
    """One version's vectors as one matrix: one row per index (``v_1 (Thinking)`` and a
    later ``v_1`` are one row), named by the token when one of its vectors gives it."""
    seen: dict[str, Fact] = {}
    tokens: dict[str, str] = {}
    for f in fs:
        key = str(f.index) if f.index is not None else f.token
        seen.setdefault(key, f)
        if f.token:
            tokens.setdefault(key, f.token)
    first = fs[0]
    rows = tuple(rows_of(f)[0] for f in seen.values())
    if len({len(r) for r in rows}) != 1:
        return None
    spots = tuple(s for f in seen.values() for s in f.spots if s)
    row_names = tuple(tokens.get(k, k) for k in seen)
    if len(set(row_names)) != len(row_names):
        return None
    if any(role in i.roles and i.rows == rows and i.row_names for i in out.values()):
        return None  # ``q_1 = [1, 1]`` repeating a row of a table that names its tokens
    return Input(frozenset({role}), rows, row_names, spots, first.at)


def one_slice(f: Fact) -> Fact:
    """A batch of identical items (``tf.constant([[[0, 1], [1, 0]], [[0, 1], [1, 0]]])``, of
    shape (batch, n, d)) as the one (n, d) array each item is: what a text that works one
    item by hand computes with. Any other array is kept as it is (a batch whose items differ
    is no one problem)."""
    if len(f.dims) != 3 or f.dims[0] < 2 or any(s is None for s in f.spots):
        return f
    size = f.dims[1] * f.dims[2]
    items = [
        tuple(canon(spec_text(s.written)) for s in f.spots[k * size : (k + 1) * size] if s)
        for k in range(f.dims[0])
    ]
    if len(f.spots) != size * f.dims[0] or len(set(items)) != 1:
        return f
    return replace(f, dims=f.dims[1:], spots=f.spots[:size])


def _restates_a_row(f: Fact, earlier: dict[int, Input], facts: Sequence[Fact]) -> bool:
    """A vector of an input's role that names no row, is given alone (no other input after
    it in its block) and is, number for number, a row of an input given before it (``the
    Value of "math" ([5, 6])``): it says that row again, it is no input of its own (which
    would stand, one row alone, for the whole array after it). A vector given with other
    inputs (``attention([[1,0]], K, V)``) is a new problem's."""
    if len(f.dims) != 1 or not f.given or not _a_row_of(f, earlier):
        return False
    # (inputs given after it, beside it, that are not rows said again too: a new problem's)
    return not any(
        g.given and g.block == f.block and g is not f and g.at > f.at and not _a_row_of(g, earlier)
        for g in facts
    )


def _a_row_of(f: Fact, earlier: dict[int, Input]) -> bool:
    """Whether a one-row fact is, number for number, a row of an input of its role before it."""
    if len(f.dims) != 1 or f.role is None:
        return False
    (row,) = rows_of(f)
    return any(
        i.at < f.at and f.role in i.roles and len(i.rows) > 1 and row in i.rows
        for i in earlier.values()
    )


def _masked_rows(f: Fact) -> tuple[tuple[bool, ...], ...]:
    """The ``-inf`` entries of a fact, row by row (empty when there are none)."""
    if not any(f.masked):
        return ()
    width = f.dims[-1]
    return tuple(f.masked[i : i + width] for i in range(0, len(f.masked), width))


def input_mask(d: Derivation, inputs: dict[int, Input]) -> list[list[bool]] | None:
    """The mask given scores carry (a key is kept unless its score is ``-inf``), or None."""
    if d.start not in SCORE_STARTS or not d.refs or d.refs[0] not in inputs:
        return None
    masked = inputs[d.refs[0]].masked
    if not masked or any(all(r) for r in masked):
        return None
    return [[not m for m in r] for r in masked]


def restated(
    facts: Sequence[Fact], inputs: dict[int, Input], f: Fact
) -> tuple[Derivation, bool] | None:
    """The inputs of a value the code computed in a way the reader cannot follow, when the
    text also states it outside code: the same stage, row, shape and numbers as written
    (``z_2`` in LaTeX, then ``print(context_vector)``). The printout repeats that claim, so it
    comes from the same inputs; a printout that repeats nothing is not judged."""
    mine = tuple(s.written.text if s is not None else None for s in f.spots)
    for g in facts:
        if (
            g.computed
            or g.given
            or (g.role, g.index, g.token, g.dims) != (f.role, f.index, f.token, f.dims)
            or tuple(s.written.text if s is not None else None for s in g.spots) != mine
        ):
            continue
        return default(facts, inputs, g)
    return None


def printed_beside_inputs(facts: Sequence[Fact], f: Fact) -> bool:
    """Whether a printout of a claim follows, in its output, printouts of the inputs it is
    computed from (``Q:``, ``K:``, ``V:`` then ``Attention weights:`` of one run): the run's
    inputs are written, so the claim is tied to them by its numbers, as any claim is."""
    printed = {
        g.role
        for g in facts
        if g.given and g.computed and g.block == f.block and g.at < f.at and g.role is not None
    }
    return (
        {RoleName.Q, RoleName.K, RoleName.V} <= printed
        or {RoleName.X} <= printed
        and any(g.role in _WEIGHT_ROLES for g in facts if g.given and g.block == f.block)
    )


def row_restated(
    facts: Sequence[Fact], derived: Mapping[int, Derivation], i: int
) -> Derivation | None:
    """The inputs of a one-row claim that says again, number for number, a row of a whole
    array of its stage stated before it (``z = [[1.3595425, 0], [1.6404574, 0]]``, then
    ``z_1 = [1.3595425, 0]``): that array's, at that row (which its numbers tell, not its
    name), when no input is given between them. The latest such array decides; None when
    there is none."""
    f = facts[i]
    if len(f.dims) != 1 or f.given or any(s is None for s in f.spots):
        return None
    mine = tuple(canon(s.written.text) for s in f.spots if s is not None)
    for j in sorted((j for j in derived if j < i), reverse=True):
        g = facts[j]
        if g.role != f.role or len(g.dims) != 2 or g.dims[1] != len(mine) or g.index is not None:
            continue
        if any(h.given for h in facts[j:i]):
            return None  # (inputs given since: the row is said of those)
        rows = [tuple(canon(x) for x in r) for r in rows_of(g)]
        if mine in rows and rows.count(mine) == 1:
            d = derived[j]
            return Derivation(d.start, d.refs, d.w_t, d.scale, d.causal, rows.index(mine))
    return None


def latest(inputs: dict[int, Input], roles: tuple[RoleName, ...], at: int) -> int | None:
    """The input of one of ``roles`` given last before ``at``."""
    before = [k for k, i in inputs.items() if i.roles & set(roles) and k < at]
    return max(before) if before else None


def _of_head(facts: Sequence[Fact], inputs: dict[int, Input], f: Fact) -> dict[int, Input]:
    """The inputs a claim of head ``f.head`` (``head_1``, ``α_1`` beside ``Q_1``, ``Q_2``) may
    come from: those of no head or of its own, when some are of its own; else all."""
    if f.head is None:
        return inputs
    head_of = {g.at: g.head for g in facts if g.at in inputs}
    if f.head not in head_of.values():
        return inputs
    return {k: i for k, i in inputs.items() if head_of.get(k) in (None, f.head)}


def default(
    facts: Sequence[Fact], inputs: dict[int, Input], f: Fact
) -> tuple[Derivation, bool] | None:
    """The inputs of a claim the code did not compute: those given last before it (of the
    claim's own head, when its name says one and inputs are named by that head). The bool
    says the inputs are assumed (``Q = K = V = X``), not written."""
    inputs = _of_head(facts, inputs, f)
    x = latest(inputs, (RoleName.X,), f.at)
    ws = [latest(inputs, (r,), f.at) for r in (RoleName.W_Q, RoleName.W_K, RoleName.W_V)]
    q = latest(inputs, (RoleName.Q,), f.at)
    # queries named by other tokens than the embeddings (cross-attention, whose X_q the text
    # shows only as Q): the Q, K, V given are the problem
    other_queries = (
        x is not None
        and q is not None
        and bool(inputs[q].row_names)
        and bool(inputs[x].row_names)
        and not set(inputs[q].row_names) <= set(inputs[x].row_names)
    )
    if x is not None and all(w is not None for w in ws) and not other_queries:
        return Derivation(Start.X, (x, *[w for w in ws if w is not None])), False
    k = latest(inputs, (RoleName.K, RoleName.KV), f.at)
    v = latest(inputs, (RoleName.V, RoleName.KV), f.at)
    if (
        q is not None
        and k is not None
        and (given := _new_scores(facts, inputs, q, k, f)) is not None
    ):
        return given, False
    if q is not None and k is not None and v is not None:
        return Derivation(Start.QKV, (q, k, v)), False
    named = f.role is RoleName.SCORES and f.index is not None and bool(f.col)
    if q is not None and k is not None and f.role is not RoleName.OUTPUT and (f.dims or named):
        # the stages before P V need no V; but a text that gives no V may not be working
        # the attention of these Q and K (their dot products as a step of another
        # computation): judged only where its numbers confirm it, as an assumed problem,
        # unless a claim names the query and the key it is of (``q_2·k_1 = 0.72``)
        return Derivation(Start.QKV, (q, k, -1)), not named
    if x is not None and not any(g.role in _NOT_X for g in facts):
        return Derivation(Start.QKV, (x, x, x)), True
    if x is None and q is None and k is None and f.role is not RoleName.OUTPUT:
        # a text that starts from the scores: the stage before the claim written last
        # (in a table row, the cell beside it)
        width = f.dims[-1] if f.dims else 0
        stages = (
            (RoleName.SCALED, RoleName.SCORES)
            if f.role not in _SCORE_STAGES
            else (RoleName.SCORES,)
        )
        before = [
            key
            for key, i in inputs.items()
            if i.roles & set(stages) and key < f.at and i.width == width and f.role not in i.roles
        ]
        if before:
            key = max(before)
            start = Start.SCALED if RoleName.SCALED in inputs[key].roles else Start.SCORES
            return Derivation(start, (key,)), False
    return None


def _new_scores(
    facts: Sequence[Fact], inputs: dict[int, Input], q: int, k: int, f: Fact
) -> Derivation | None:
    """Scores written after Q and K (or the claim itself) and after an output of them, that
    are not their dot products under any frame (:func:`~symattn.read.foreign.foreign`): a
    new exercise set from given scores, which the claims from them on start from (the latest
    such scores). Scores before any output are the problem's own, wrong or not."""
    stages = {RoleName.SCORES, RoleName.SCALED}
    after = [
        key
        for key, i in inputs.items()
        if i.roles & stages and max(q, k) < key <= f.at and not i.roles & INPUT_ROLES
    ]
    qi, ki = inputs[q], inputs[k]
    for key in sorted(after, reverse=True):
        s = inputs[key]
        if not any(g.role is RoleName.OUTPUT and max(q, k) < g.at < key for g in facts):
            continue  # (no output yet: the problem of Q and K is not worked through)
        if foreign(s.spots, s.width, qi.spots, qi.width, ki.spots, ki.width):
            start = Start.SCALED if RoleName.SCALED in s.roles else Start.SCORES
            return Derivation(start, (key,))
    return None


def signatures(inputs: dict[int, Input]) -> set[tuple[str, ...]]:
    """The values of every input, of its transpose and of each of its rows: an array written
    with one of them repeats an input (a factor of a product shown again), it is no claim."""
    out: set[tuple[str, ...]] = set()
    for i in inputs.values():
        if not i.roles & INPUT_ROLES:
            continue
        out.add(tuple(canon(x) for r in i.rows for x in r))
        out.add(tuple(canon(x) for r in transposed(i.rows) for x in r))
        out.update(tuple(canon(x) for x in r) for r in i.rows)
    return out


def spec_text(w: Written) -> str:
    """A number as a spec reads it: as written (``87%`` too: a spec reads percentages)."""
    return w.text


def canon(text: str) -> str:
    try:
        return str(Fraction(text))
    except (ValueError, ZeroDivisionError):
        return text


def repeats(f: Fact, signatures: set[tuple[str, ...]]) -> bool:
    if any(s is None for s in f.spots) or len(f.spots) < 2:
        return False
    return tuple(canon(s.written.text) for s in f.spots if s is not None) in signatures


def v_of(d: Derivation) -> int | None:
    if d.start is not Start.QKV or len(d.refs) < 3 or d.refs[2] < 0:
        return None
    return d.refs[2]


def spec_inputs(
    d: Derivation, inputs: dict[int, Input]
) -> tuple[dict[str, list[list[str]]], tuple[str, ...], tuple[str, ...], int, Spot | None] | None:
    """The spec's inputs for a derivation, its key and query tokens, the width of V."""
    refs = list(d.refs)
    if d.start is Start.QKV and len(refs) == 3 and refs[2] < 0:
        refs[2] = refs[1]  # no claim of this group needs V: the keys stand in for it
    got = [inputs[r] for r in refs if r >= 0]
    if len(got) != len(refs):
        return None
    first = got[0].spots[0] if got and got[0].spots else None
    if d.start in SCORE_STARTS:
        (given,) = got
        keys = tuple(str(j + 1) for j in range(given.width))
        queries = (
            given.row_names
            if len(given.row_names) == len(given.rows)
            else tuple(f"q{i + 1}" for i in range(len(given.rows)))
        )
        # the scores as queries against unit keys (Q K^T is then the scores themselves); no
        # values are given: a column of zeros stands in (no claim of the output is made)
        unit = [["1" if i == j else "0" for j in range(len(keys))] for i in range(len(keys))]
        data = {"Q": lists(given.rows), "K": unit, "V": [["0"] for _ in keys]}
        return data, keys, queries, 0, first
    if d.start is Start.X:
        x, wq, wk, wv = got
        ws = [transposed(w.rows) if d.w_t else w.rows for w in (wq, wk, wv)]
        if any(len(w) != x.width for w in ws) or len(ws[0][0]) != len(ws[1][0]):
            return None
        keys = x.row_names or tuple(str(i + 1) for i in range(len(x.rows)))
        data = {
            "X": lists(x.rows),
            "W_Q": lists(ws[0]),
            "W_K": lists(ws[1]),
            "W_V": lists(ws[2]),
        }
        return data, keys, keys, len(ws[2][0]), first
    q, k, v = got
    if len(v.rows) == 1 < len(k.rows) == v.width:
        # ``V = (2, 0, 1)^T`` beside three keys: one value per key, a column (V of width 1)
        v = replace(v, rows=transposed(v.rows))
    if q.width != k.width or len(k.rows) != len(v.rows):
        return None
    keys = k.row_names or v.row_names or tuple(str(i + 1) for i in range(len(k.rows)))
    if q is k:
        queries = keys
    elif len(q.rows) == len(k.rows) and not q.row_names and RoleName.KV not in k.roles:
        queries = keys
    elif (
        q.row_names
        and all(n.isdigit() and 1 <= int(n) <= len(keys) for n in q.row_names)
        and k.row_names
        and RoleName.KV not in k.roles
    ):
        # ``q_1`` beside ``k_1 (Thinking)``: in self-attention query 1 is token 1
        queries = tuple(keys[int(n) - 1] for n in q.row_names)
    else:
        queries = q.row_names or tuple(f"q{i + 1}" for i in range(len(q.rows)))
    data = {"Q": lists(q.rows), "K": lists(k.rows), "V": lists(v.rows)}
    return data, keys, queries, v.width, first


def transposed(rows: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(zip(*rows, strict=True)) if rows else rows


def lists(rows: tuple[tuple[str, ...], ...]) -> list[list[str]]:
    return [list(r) for r in rows]
