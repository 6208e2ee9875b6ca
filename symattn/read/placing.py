"""Where each claim of a problem goes: its query row, its keys in order, its layer.

A claim is placed on the row its code selects, its name or label names, or the only query;
a text that repeats a stage gets one layer per repeat (:class:`Built`). Used by
:mod:`~symattn.read.problem`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from symattn.errors import SymattnError
from symattn.numbers import Written, parse_number
from symattn.read.dataflow import Derivation
from symattn.read.facts import Fact, counting_base
from symattn.read.inputs import Input, canon, complete, spec_text
from symattn.read.kinds import OWN_NAMES
from symattn.read.notations.roles import ROW_ROLES
from symattn.read.observations import Spot
from symattn.read.roles import RoleName
from symattn.stages import BY_CLAIM, TOKEN_STAGES

__all__ = [
    "PER_KEY",
    "ROW_CLAIMS",
    "Built",
    "Place",
    "counting_base",
    "default_row",
    "place",
    "score_zeros",
    "token_claims",
    "wider_rows",
    "written_exponent",
    "zeros_mask",
]

#: (spec step, position in the step) of a claim
Place = tuple[str, tuple[str, ...]]

#: the claims with one entry per key; with the output and the sum, every claim of a row
PER_KEY: Final = frozenset({RoleName.SCORES, RoleName.SCALED, RoleName.EXP, RoleName.WEIGHTS})
ROW_CLAIMS: Final = PER_KEY | {RoleName.OUTPUT, RoleName.SUM}
#: the stages whose claims are whole rows (or whole arrays): every claim but the sum
_ROW_VECTORS: Final = PER_KEY | {RoleName.OUTPUT}
#: the stages a text with X and W states as claims (``x · W``)
_PROJECTIONS: Final = frozenset({RoleName.Q, RoleName.K, RoleName.V})
_STEP: Final = {c: s.step for c, s in BY_CLAIM.items()}


@dataclass
class Built:
    """The specs of one set of inputs: a row table per layer, and where each claim is."""

    rows: list[dict[str, dict[str, object]]] = field(default_factory=list)
    spots: list[dict[Place, Spot]] = field(default_factory=list)
    used: list[set[int]] = field(default_factory=list)
    #: claims of the right stage and row but another shape: (fact, row or None for all rows)
    misshapen: list[tuple[int, str | None]] = field(default_factory=list)
    #: one-row claims of several queries' problem that say (by name or numbers) none of them
    unplaced: list[int] = field(default_factory=list)
    #: single numbers numbered as the keys of a row wider than this problem's (``p_0 … p_5``
    #: beside three keys): another row's, not placed
    wide: list[int] = field(default_factory=list)
    #: exponentials written one at a time: the keys of each row that have one
    exp_keys: dict[str, set[int]] = field(default_factory=dict)
    #: which fact each place holds, per layer
    owners: list[dict[Place, int]] = field(default_factory=list)
    #: per query row, which keys have a raw score of exactly 0 (from the inputs; see
    #: :func:`score_zeros`); empty when the inputs do not say
    zero_scores: dict[str, tuple[bool, ...]] = field(default_factory=dict)

    def layer(self, k: int) -> tuple[dict[str, dict[str, object]], dict[Place, Spot], set[int]]:
        while len(self.rows) <= k:
            self.rows.append({})
            self.spots.append({})
            self.used.append(set())
            self.owners.append({})
        return self.rows[k], self.spots[k], self.used[k]

    def put(
        self, i: int, row: str, stage: RoleName, cols: list[str], values: Sequence[Spot | None]
    ) -> None:
        partial = stage is not RoleName.SUM and any(v is None for v in values)
        mine = {c for c, v in zip(cols, values, strict=False) if v is not None}
        k = 0
        while True:
            rows, spots, used = self.layer(k)
            rc = rows.setdefault(row, {})
            if stage not in rc:
                break
            old = rc[stage]
            if partial and isinstance(old, dict) and not mine & set(old):
                # ``w_1 ≈ 0.89`` then ``w_2 ≈ 0.11``: one row of weights, key by key
                old.update(
                    {c: spec_text(v.written) for c, v in zip(cols, values, strict=True) if v}
                )
                used.add(i)
                for c, v in zip(cols, values, strict=True):
                    if v is not None:
                        spots[(_STEP[stage], (row, c))] = v
                        self.owners[k][(_STEP[stage], (row, c))] = i
                return
            k += 1
        if stage is RoleName.SUM:
            s = values[0]
            if s is None:
                return
            rc[stage] = spec_text(s.written)
            spots[(_STEP[stage], (row,))] = s
            self.owners[k][(_STEP[stage], (row,))] = i
            used.add(i)
            return
        texts = [spec_text(s.written) if s is not None else None for s in values]
        if any(t is None for t in texts):
            if stage is RoleName.OUTPUT:
                return
            rc[stage] = {c: t for c, t in zip(cols, texts, strict=True) if t is not None}
        else:
            rc[stage] = texts
        used.add(i)
        for c, s in zip(cols, values, strict=True):
            if s is not None:
                spots[(_STEP[stage], (row, c))] = s
                self.owners[k][(_STEP[stage], (row, c))] = i

    def inherit(self) -> None:
        """A layer that states a row's results again, the same numbers as a layer before,
        without the numbers they come from (``Row 3: [3.507, 4.506]`` after the whole
        computation) takes those of that layer: they are the author's own numbers its results
        follow from. They are not located in this layer (nothing is reported at them here;
        the layer before judges them). A row with numbers of its own (another frame, shown
        for comparison) takes nothing."""
        for k in range(1, len(self.rows)):
            for row, rc in self.rows[k].items():
                latest = max((_ORDER.index(st) for st in rc if st in _ORDER), default=-1)
                source = next(
                    (
                        self.rows[j][row]
                        for j in range(k - 1, -1, -1)
                        if row in self.rows[j]
                        and all(self.rows[j][row].get(st) == v for st, v in rc.items())
                    ),
                    None,
                )
                if source is None:
                    continue
                for st in _ORDER[:latest]:
                    if st not in rc and st in source:
                        rc[st] = copy.deepcopy(source[st])


#: the stages of a row, in the order they are computed
_ORDER: Final = ROW_ROLES

#: an exponent written as a number over a root (``e^{1/\\sqrt{2}}``)
_OVER_ROOT: Final = re.compile(
    r"^\s*(?P<n>-?\d+(?:\.\d+)?)\s*/\s*(?:\\sqrt|√)\s*\{?\s*\d+(?:\.\d+)?\s*\}?\s*$"
)


def _exponent_is_zero(exponent: str) -> bool | None:
    """Whether an exponent as written is 0 (None when it is no number read here): a number
    (``0``, ``2.5``) or a number over a root (``1/\\sqrt{2}``, 0 only when its numerator is)."""
    try:
        return Fraction(exponent) == 0
    except (ValueError, ZeroDivisionError):
        pass
    m = _OVER_ROOT.match(exponent)
    return None if m is None else Fraction(m.group("n")) == 0


def written_exponent(f: Fact) -> Written | None:
    """The exponent an exponential writes (``e^{2.0} = 7.389``: 2.0), as a number; None when
    it writes none, or none that is a plain number."""
    if not f.exponent:
        return None
    try:
        return parse_number(f.exponent.strip("{} "))
    except SymattnError:
        return None


def _exp_key(built: Built, row: str, exponent: str, nk: int) -> int | None:
    """The key of ``e^{x}``: the first key whose stated scaled score is written ``x`` and has
    no exponential yet; else, when the inputs give the row's raw scores, the first free key
    whose score is 0 as ``x`` is (every scale keeps a 0 score 0 and any other not 0; None when
    no free key is); else the next key in order."""
    done = built.exp_keys.setdefault(row, set())
    scaled = built.rows[0].get(row, {}).get("scaled") if built.rows else None
    if exponent and isinstance(scaled, list):
        for j, text in enumerate(scaled):
            if j not in done and text is not None and canon(text) == canon(exponent):
                done.add(j)
                return j
    zero = _exponent_is_zero(exponent) if exponent else None
    zeros = built.zero_scores.get(row)
    free = next(
        (
            j
            for j in range(nk)
            if j not in done and (zero is None or zeros is None or zeros[j] == zero)
        ),
        None,
    )
    if free is not None:
        done.add(free)
    return free


def score_zeros(
    inputs: dict[str, list[list[str]]], queries: tuple[str, ...]
) -> dict[str, tuple[bool, ...]]:
    """Per query row, which keys have a raw score ``q·k`` of exactly 0: from ``Q`` and ``K``,
    or from ``X``, ``W_Q`` and ``W_K`` (empty when the inputs are other or not numbers)."""
    try:
        if "Q" in inputs and "K" in inputs:
            q = [[Fraction(x) for x in r] for r in inputs["Q"]]
            k = [[Fraction(x) for x in r] for r in inputs["K"]]
        elif all(n in inputs for n in ("X", "W_Q", "W_K")):
            x = [[Fraction(v) for v in r] for r in inputs["X"]]
            q, k = (
                _times(x, [[Fraction(v) for v in r] for r in inputs[w]]) for w in ("W_Q", "W_K")
            )
        else:
            return {}
    except (ValueError, ZeroDivisionError):
        return {}
    if len(q) != len(queries) or any(len(r) != len(k[0]) for r in (*q, *k)):
        return {}
    return {
        name: tuple(sum(a * b for a, b in zip(qr, kr, strict=True)) == 0 for kr in k)
        for name, qr in zip(queries, q, strict=True)
    }


def _times(a: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    return [
        [sum((x * b[t][j] for t, x in enumerate(r)), Fraction(0)) for j in range(len(b[0]))]
        for r in a
    ]


def _row(f: Fact, d: Derivation, queries: tuple[str, ...], base: int = 1) -> str | None:
    """The query row a one-row claim is about (``base``: the text's first row number)."""
    if d.row is not None:
        return queries[d.row] if 0 <= d.row < len(queries) else None
    if f.token:
        low = {q.lower(): q for q in queries}
        return low.get(f.token.lower())
    if f.index is not None:
        k = f.index - base
        return queries[k] if 0 <= k < len(queries) else None
    if len(queries) == 1:
        return queries[0]
    return None


def zeros_mask(
    rows: dict[str, dict[str, object]], queries: tuple[str, ...], keys: tuple[str, ...]
) -> list[list[bool]] | None:
    """The mask that removes each key whose weight a row writes as 0 (None when none is)."""
    mask = [[True] * len(keys) for _ in queries]
    found = False
    for r, q in enumerate(queries):
        weights = rows.get(q, {}).get("weights")
        cells = (
            list(zip(keys, weights, strict=False))
            if isinstance(weights, list)
            else list(weights.items())
            if isinstance(weights, dict)
            else []
        )
        for key, text in cells:
            if isinstance(text, str) and canon(text) == "0" and key in keys:
                mask[r][keys.index(key)] = False
                found = True
    if not found or any(not any(row) for row in mask):
        return None
    return mask


def default_row(
    facts: Sequence[Fact], members: list[int], queries: tuple[str, ...], base: int = 1
) -> str | None:
    """The one query row the text's claims name (``output_它``, ``score(它, 动物)``): the row of
    its claims that name none."""
    named = set()
    for i in members:
        f = facts[i]
        if f.token and f.token.lower() in {q.lower() for q in queries}:
            named.add(next(q for q in queries if q.lower() == f.token.lower()))
        elif f.index is not None and 0 <= f.index - base < len(queries):
            named.add(queries[f.index - base])
    return named.pop() if len(named) == 1 else None


def token_claims(
    facts: Sequence[Fact],
    data: dict[str, list[list[str]]],
    keys: tuple[str, ...],
    built: Built,
    x: Input,
) -> tuple[
    dict[str, list[list[str]]], tuple[str, ...], tuple[str, ...], dict[str, dict[str, list[str]]]
]:
    """With X and W given, the Q, K, V rows the text states are claims (``x · W``); when they
    are for some of the tokens only (a table of three of eleven embeddings), the problem is
    those tokens'."""
    stated = [
        (f, f.role)
        for f in facts
        if f.role in _PROJECTIONS
        and len(f.dims) == 2
        and (f.row_names or (f.dims[0] == len(keys) and not f.given))
        and complete(f)
    ]
    names = [f.row_names or keys for f, _ in stated]
    if not names or any(n != names[0] for n in names):
        return data, keys, keys, {}
    chosen = names[0]
    if not set(chosen) <= set(keys):
        return data, keys, keys, {}
    rows = [data["X"][keys.index(t)] for t in chosen]
    data = {**data, "X": rows}
    tokens: dict[str, dict[str, list[str]]] = {}
    for f, role in stated:
        width = f.dims[-1]
        for r, t in enumerate(chosen):
            cells = f.spots[r * width : (r + 1) * width]
            tokens.setdefault(t, {})[role] = [spec_text(s.written) for s in cells if s is not None]
            for j, spot in enumerate(cells):
                if spot is not None:
                    built.layer(0)[1][(TOKEN_STAGES[role], (t, str(j)))] = spot
    del x
    return data, tuple(chosen), tuple(chosen), tokens


def wider_rows(facts: Sequence[Fact], members: Sequence[int], keys: int, base: int) -> set[int]:
    """The single numbers of a stage numbered by key (``p_0``, ``w_{12}``) whose numbering, in
    their block, goes past the ``keys`` of this problem: numbers of a wider row (an index
    weight pooled by another softmax), no row of this problem."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for i in members:
        f = facts[i]
        if f.dims == () and f.role in PER_KEY and f.col.isdigit():
            groups.setdefault((f.role, f.block, _NUMBERING.sub("", f.name)), []).append(i)
    return {
        i
        for group in groups.values()
        if max(int(facts[i].col) for i in group) - base >= keys
        for i in group
    }


#: the numbering at the end of a name (``p_0``, ``w_{12}``, ``a3``)
_NUMBERING: Final = re.compile(r"_?\{?\d+\}?$")


def place(
    built: Built,
    i: int,
    f: Fact,
    d: Derivation,
    keys: tuple[str, ...],
    queries: tuple[str, ...],
    v_width: int,
    base: int = 1,
) -> None:
    """Put one claim on its rows (``base``: the text's first row and key number)."""
    nq, nk = len(queries), len(keys)
    role = f.role
    assert role in ROW_CLAIMS  # (problem places the claims of a row only)
    if role is RoleName.SUM:
        if f.dims == () and f.spots and f.spots[0] is not None:
            row = _row(f, d, queries, base)
            if row is not None:
                built.put(i, row, role, [], f.spots)
        return
    width = nk if role in PER_KEY else v_width
    cols = list(keys) if role in PER_KEY else [str(j) for j in range(v_width)]
    if len(f.dims) == 2 and f.dims == (nq, width):
        for r in range(nq):
            built.put(i, queries[r], role, cols, f.spots[r * width : (r + 1) * width])
    elif (len(f.dims) == 2 and f.dims == (1, width)) or (len(f.dims) == 1 and f.dims[0] == width):
        row = _row(f, d, queries, base)
        if row is not None:
            built.put(i, row, role, cols, f.spots)
        elif i not in built.unplaced:
            built.unplaced.append(i)
    elif f.source not in OWN_NAMES:
        return  # another shape, and a name not the text's own: not judged
    elif len(f.dims) == 2 and f.dims[0] == nq and role in _ROW_VECTORS:
        built.misshapen.append((i, None))
    elif len(f.dims) == 1 and role in _ROW_VECTORS and f.index is not None:
        row = _row(f, d, queries, base)
        if row is not None:
            built.misshapen.append((i, row))
    elif f.dims == () and role is RoleName.EXP and not f.col and f.spots and f.spots[0] is not None:
        # e^{2.5} ≈ 12.18: the exponential of the key its exponent is (else the next one)
        row = _row(f, d, queries, base)
        if row is None:
            return
        j = _exp_key(built, row, f.exponent, nk)
        if j is None:
            return
        one_exp: list[Spot | None] = [None] * nk
        one_exp[j] = f.spots[0]
        built.put(i, row, role, cols, one_exp)
    elif f.dims == () and role in PER_KEY and f.col:
        row = _row(f, d, queries, base)
        low = {k.lower(): k for k in keys}
        # a numbered key counts as the text counts (``A_{01}``: from 0); a named one by name
        col = (
            (keys[int(f.col) - base] if 0 <= int(f.col) - base < nk else None)
            if f.col.isdigit()
            else low.get(f.col.lower())
        )
        if row is not None and col is not None:
            one: list[Spot | None] = [None] * nk
            one[keys.index(col)] = f.spots[0]
            built.put(i, row, role, cols, one)
