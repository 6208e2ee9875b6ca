"""Stage 3b: the attention problems behind a text, as specs for ``check``.

Every stated array (a claim) comes from inputs the text gives: what the code computed it
from (its :class:`~symattn.read.dataflow.Derivation`), or else the inputs given last before
it (X with ``W_Q``/``W_K``/``W_V``; Q, K, V as matrices or one vector per token, ``q_1``,
``k_{I}``, ``K_animal``; encoder states serving as keys and values). Claims with the same
inputs, scale and mask make one problem. A text that redefines an input (``temp_q`` set
again before each printout) gives one problem per version.

Each claim is placed on its query row (the row its code selects, its name or label names,
or the only query), its keys in order; a claim whose row or shape cannot be told is not
judged (the census says why). A text that repeats a stage (printed, then written in LaTeX)
gets one spec per repeat ("layers"), so every number gets its verdict. When neither the code
nor the text says whether the scores are scaled, both frames are tried
(:class:`Hypothesis`), and only what every frame finds wrong is reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from symattn.read.dataflow import Derivation
from symattn.read.facts import Fact
from symattn.read.inputs import (
    Input,
    canon,
    complete,
    default,
    gather,
    latest,
    repeats,
    restated,
    signatures,
    spec_inputs,
    spec_text,
    v_of,
)
from symattn.read.observations import Spot
from symattn.read.report import Recognised
from symattn.stages import BY_CLAIM

__all__ = ["Hypothesis", "Problem", "build_problems"]

#: (spec step, position in the step) of a claim
Place = tuple[str, tuple[str, ...]]

_PER_KEY: Final = ("scores", "scaled", "exp", "weights")
_ROW_STAGES: Final = (*_PER_KEY, "output", "sum")
_STEP: Final = {c: s.step for c, s in BY_CLAIM.items()}


@dataclass(frozen=True)
class Hypothesis:
    """One way of reading what the text leaves open (the scale)."""

    name: str
    d_k: int | None = None
    scale: Fraction | None = None


@dataclass
class Problem:
    """One spec to check: its data, where each claim is written, and what it used."""

    data: dict[str, object]
    spots: dict[Place, Spot]
    used: set[int]
    recognised: Recognised
    first: Spot | None
    hypothesis: str = ""
    #: the key of the group of problems whose findings must agree (the hypotheses of one layer)
    group: tuple[object, ...] = ()
    #: the inputs were not written by name (Q = K = V = X): judge only when confirmed
    assumed: bool = False
    #: claims written in another shape than their stage: (fact, its row or None)
    misshapen: tuple[tuple[Fact, str | None], ...] = ()
    #: which fact (index) each place holds
    owner: dict[Place, int] = field(default_factory=dict)


@dataclass
class _Built:
    """The specs of one set of inputs: a row table per layer, and where each claim is."""

    rows: list[dict[str, dict[str, object]]] = field(default_factory=list)
    spots: list[dict[Place, Spot]] = field(default_factory=list)
    used: list[set[int]] = field(default_factory=list)
    #: claims of the right stage and row but another shape: (fact, row or None for all rows)
    misshapen: list[tuple[int, str | None]] = field(default_factory=list)
    #: exponentials written one at a time: the keys of each row that have one
    exp_keys: dict[str, set[int]] = field(default_factory=dict)
    #: which fact each place holds, per layer
    owners: list[dict[Place, int]] = field(default_factory=list)

    def layer(self, k: int) -> tuple[dict[str, dict[str, object]], dict[Place, Spot], set[int]]:
        while len(self.rows) <= k:
            self.rows.append({})
            self.spots.append({})
            self.used.append(set())
            self.owners.append({})
        return self.rows[k], self.spots[k], self.used[k]

    def put(
        self, i: int, row: str, stage: str, cols: list[str], values: Sequence[Spot | None]
    ) -> None:
        partial = stage != "sum" and any(v is None for v in values)
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
        if stage == "sum":
            s = values[0]
            if s is None:
                return
            rc["sum"] = spec_text(s.written)
            spots[(_STEP["sum"], (row,))] = s
            self.owners[k][(_STEP["sum"], (row,))] = i
            used.add(i)
            return
        texts = [spec_text(s.written) if s is not None else None for s in values]
        if any(t is None for t in texts):
            if stage == "output":
                return
            rc[stage] = {c: t for c, t in zip(cols, texts, strict=True) if t is not None}
        else:
            rc[stage] = texts
        used.add(i)
        for c, s in zip(cols, values, strict=True):
            if s is not None:
                spots[(_STEP[stage], (row, c))] = s
                self.owners[k][(_STEP[stage], (row, c))] = i


def _exp_key(built: _Built, row: str, exponent: str, nk: int) -> int | None:
    """The key of ``e^{x}``: the first key whose stated scaled score is written ``x`` and has
    no exponential yet; else the next key in order."""
    done = built.exp_keys.setdefault(row, set())
    scaled = built.rows[0].get(row, {}).get("scaled") if built.rows else None
    if exponent and isinstance(scaled, list):
        for j, text in enumerate(scaled):
            if j not in done and text is not None and canon(text) == canon(exponent):
                done.add(j)
                return j
    free = next((j for j in range(nk) if j not in done), None)
    if free is not None:
        done.add(free)
    return free


def _row(f: Fact, d: Derivation, queries: tuple[str, ...]) -> str | None:
    """The query row a one-row claim is about."""
    if d.row is not None:
        return queries[d.row] if 0 <= d.row < len(queries) else None
    if f.token:
        low = {q.lower(): q for q in queries}
        return low.get(f.token.lower())
    if f.index is not None:
        return queries[f.index - 1] if 1 <= f.index <= len(queries) else None
    if len(queries) == 1:
        return queries[0]
    return None


def _hypotheses(d: Derivation, stated: Sequence[Hypothesis], width: int) -> list[Hypothesis]:
    s = d.scale
    if d.start == "scaled":
        return [Hypothesis("scaled scores given", scale=Fraction(1))]
    if d.start == "scores" and not s:
        # the scale must be known: a stated d_k, or no scaling at all
        return [h for h in stated if h.d_k is not None or h.scale is not None]
    if s == "1":
        return [Hypothesis("code: unscaled", scale=Fraction(1))]
    if s.startswith("sqrt:"):
        n = Fraction(s[5:])
        if n.denominator == 1:
            return [Hypothesis(f"code: divided by sqrt({n})", d_k=int(n))]
    if s.startswith("frac:"):
        return [Hypothesis(f"code: divided by {s[5:]}", scale=1 / Fraction(s[5:]))]
    if s.startswith("inv:"):
        return [Hypothesis(f"code: times {s[4:]}", scale=Fraction(s[4:]))]
    if s == "width":
        return [Hypothesis("code: divided by sqrt(width of K)", d_k=width)]
    return list(stated)


def build_problems(
    facts: Sequence[Fact], stated: Sequence[Hypothesis], masks: Sequence[str] = ("",)
) -> list[Problem]:
    """The specs to check, one per set of inputs, repeat layer, hypothesis and mask (``""``,
    ``causal``, ``zeros``: the keys whose weight the text writes as 0)."""
    inputs = gather(facts)
    known = signatures(inputs)
    groups: dict[Derivation, tuple[_Built, list[int], bool]] = {}
    derived: dict[int, Derivation] = {}
    for i, f in enumerate(facts):
        if not f.role or f.role not in _ROW_STAGES or (f.given and f.role not in _ROW_STAGES):
            continue
        if f.role != "output" and repeats(f, known):
            continue
        if f.derivation is not None:
            got: tuple[Derivation, bool] | None = (f.derivation, False)
        elif f.computed:
            # the code computed it from what the text does not give, unless the text states
            # the same numbers as the same stage outside code
            got = restated(facts, inputs, f)
        else:
            got = default(facts, inputs, f)
        if got is None:
            continue
        d, assumed = got
        if d.start == "x" and len(d.refs) == 4 and d.refs[3] < 0:
            # the weights need no W_V: the one given last stands in
            wv = latest(inputs, ("w_v",), f.at)
            if wv is not None:
                d = Derivation(d.start, (*d.refs[:3], wv), d.w_t, d.scale, d.causal, d.row)
        if any(r >= 0 and r not in inputs for r in d.refs):
            continue
        derived[i] = d
        key = Derivation(d.start, d.refs[:2] if d.start == "qkv" else d.refs, d.w_t, "", d.causal)
        built, members, was = groups.get(key, (_Built(), [], assumed))
        groups[key] = (built, [*members, i], was or assumed)
    # one scale per problem: members that say none join the one the others say
    split: dict[Derivation, tuple[_Built, list[int], bool]] = {}
    for key, (_, members, assumed) in groups.items():
        scales = sorted({derived[i].scale for i in members} - {""})
        vs = sorted({r for i in members if (r := v_of(derived[i])) is not None})
        v = vs[0] if len(vs) == 1 else -1
        refs = (*key.refs, v) if key.start == "qkv" else key.refs
        for sc in scales or [""]:
            these = [
                i
                for i in members
                if derived[i].scale == sc or (derived[i].scale == "" and sc == (scales or [""])[0])
            ]
            if len(vs) > 1:
                # claims whose values come from different V: each its own problem
                for vv in vs:
                    part = [i for i in these if v_of(derived[i]) in (vv, None)]
                    split[Derivation(key.start, (*key.refs, vv), key.w_t, sc, key.causal)] = (
                        _Built(),
                        part,
                        assumed,
                    )
                continue
            split[Derivation(key.start, refs, key.w_t, sc, key.causal)] = (_Built(), these, assumed)
    groups = split
    out: list[Problem] = []
    for key, (built, members, assumed) in groups.items():
        given = spec_inputs(key, inputs)
        if given is None:
            continue
        data_inputs, keys, queries, v_width, first = given
        tokens: dict[str, dict[str, list[str]]] = {}
        if key.start == "x":
            data_inputs, keys, queries, tokens = _token_claims(
                facts, data_inputs, keys, built, inputs[key.refs[0]]
            )
        named_row = _default_row(facts, members, queries)
        for i in members:
            if key.start in ("scores", "scaled") and facts[i].role == "output":
                continue
            d = derived[i]
            if (
                named_row is not None
                and d.row is None
                and not facts[i].token
                and facts[i].index is None
            ):
                d = Derivation(d.start, d.refs, d.w_t, d.scale, d.causal, queries.index(named_row))
            _place(built, i, facts[i], d, keys, queries, v_width)
        width = (
            len(data_inputs["K"][0])
            if "K" in data_inputs
            else len(data_inputs["W_K"][0])
            if "W_K" in data_inputs
            else len(keys)
        )
        frames = [(h, m) for h in _hypotheses(key, stated, width) for m in masks]
        for hyp, masking in frames:
            for k in range(max(len(built.rows), 1 if built.misshapen else 0)):
                built.layer(k)
                mask = _zeros_mask(built.rows[k], queries, keys) if masking == "zeros" else None
                if masking == "zeros" and mask is None:
                    continue
                if masking == "causal" and (key.causal or len(queries) != len(keys)):
                    continue
                data: dict[str, object] = {
                    "schema": 1,
                    "tokens": list(keys),
                    "inputs": data_inputs,
                }
                if key.start != "x":
                    data["query_tokens"] = list(queries)
                if hyp.d_k is not None:
                    data["d_k"] = hyp.d_k
                if hyp.scale is not None:
                    data["scale"] = str(hyp.scale)
                if key.causal or masking == "causal":
                    data["causal"] = True
                elif mask is not None:
                    data["mask"] = mask
                claims: dict[str, object] = {"rows": built.rows[k]}
                if k == 0 and tokens:
                    claims["tokens"] = tokens
                spots = dict(built.spots[k])
                if k == 0 and hyp.scale is None and key.start in ("x", "qkv"):
                    claims.update(_scaling(facts, hyp, spots))
                data["claims"] = claims
                rec = Recognised(
                    "embeddings" if key.start == "x" else "vectors",
                    queries,
                    keys,
                    keys,
                    keys if key.start == "x" else (),
                    ("W_Q", "W_K", "W_V") if key.start == "x" else (),
                    hyp.d_k if hyp.d_k is not None else width,
                    hyp.d_k is not None,
                    len(built.spots[k]),
                )
                out.append(
                    Problem(
                        data,
                        spots,
                        built.used[k],
                        rec,
                        first,
                        hyp.name + (f", mask {masking}" if masking else ""),
                        (key, k),
                        assumed,
                        tuple((facts[i], row) for i, row in built.misshapen) if k == 0 else (),
                        dict(built.owners[k]),
                    )
                )
    return out


def _zeros_mask(
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


def _scaling(facts: Sequence[Fact], hyp: Hypothesis, spots: dict[Place, Spot]) -> dict[str, str]:
    """The scaling claims of the text: a later ``d_k`` other than the stated one, and the
    divisor it says it uses (``\\sqrt{d_k} = 2``)."""
    out: dict[str, str] = {}
    for f in facts:
        if not f.spots or f.spots[0] is None or f.dims != ():
            continue
        s = f.spots[0]
        if f.role == "d_k" and "d_k" not in out and hyp.d_k is not None:
            v = s.written.value
            if v.denominator == 1 and v > 0 and v != hyp.d_k:
                out["d_k"] = s.written.text
                spots[("d_k", ())] = s
        elif f.role == "divisor" and "sqrt_d_k" not in out and s.written.value > 0:
            out["sqrt_d_k"] = s.written.text
            spots[("sqrt_d_k", ())] = s
    return out


def _default_row(facts: Sequence[Fact], members: list[int], queries: tuple[str, ...]) -> str | None:
    """The one query row the text's claims name (``output_它``, ``score(它, 动物)``): the row of
    its claims that name none."""
    named = set()
    for i in members:
        f = facts[i]
        if f.token and f.token.lower() in {q.lower() for q in queries}:
            named.add(next(q for q in queries if q.lower() == f.token.lower()))
        elif f.index is not None and 1 <= f.index <= len(queries):
            named.add(queries[f.index - 1])
    return named.pop() if len(named) == 1 else None


def _token_claims(
    facts: Sequence[Fact],
    data: dict[str, list[list[str]]],
    keys: tuple[str, ...],
    built: _Built,
    x: Input,
) -> tuple[
    dict[str, list[list[str]]], tuple[str, ...], tuple[str, ...], dict[str, dict[str, list[str]]]
]:
    """With X and W given, the Q, K, V rows the text states are claims (``x · W``); when they
    are for some of the tokens only (a table of three of eleven embeddings), the problem is
    those tokens'."""
    stated = [
        f
        for f in facts
        if f.role in ("q", "k", "v")
        and len(f.dims) == 2
        and (f.row_names or (f.dims[0] == len(keys) and not f.given))
        and complete(f)
    ]
    names = [f.row_names or keys for f in stated]
    if not names or any(n != names[0] for n in names):
        return data, keys, keys, {}
    chosen = names[0]
    if not set(chosen) <= set(keys):
        return data, keys, keys, {}
    rows = [data["X"][keys.index(t)] for t in chosen]
    data = {**data, "X": rows}
    tokens: dict[str, dict[str, list[str]]] = {}
    for f in stated:
        width = f.dims[-1]
        for r, t in enumerate(chosen):
            cells = f.spots[r * width : (r + 1) * width]
            tokens.setdefault(t, {})[f.role] = [
                spec_text(s.written) for s in cells if s is not None
            ]
            for j, spot in enumerate(cells):
                if spot is not None:
                    built.layer(0)[1][(f.role.upper(), (t, str(j)))] = spot
    del x
    return data, tuple(chosen), tuple(chosen), tokens


def _place(
    built: _Built,
    i: int,
    f: Fact,
    d: Derivation,
    keys: tuple[str, ...],
    queries: tuple[str, ...],
    v_width: int,
) -> None:
    """Put one claim on its rows."""
    nq, nk = len(queries), len(keys)
    if f.role == "sum":
        if f.dims == () and f.spots and f.spots[0] is not None:
            row = _row(f, d, queries)
            if row is not None:
                built.put(i, row, "sum", [], f.spots)
        return
    width = nk if f.role in _PER_KEY else v_width
    cols = list(keys) if f.role in _PER_KEY else [str(j) for j in range(v_width)]
    if len(f.dims) == 2 and f.dims == (nq, width):
        for r in range(nq):
            built.put(i, queries[r], f.role, cols, f.spots[r * width : (r + 1) * width])
    elif len(f.dims) == 2 and f.dims == (1, width):
        row = _row(f, d, queries)
        if row is not None:
            built.put(i, row, f.role, cols, f.spots)
    elif len(f.dims) == 1 and f.dims[0] == width:
        row = _row(f, d, queries)
        if row is not None:
            built.put(i, row, f.role, cols, f.spots)
    elif f.source not in ("name", "code"):
        return  # another shape, and a name not the text's own: not judged
    elif len(f.dims) == 2 and f.dims[0] == nq and f.role in (*_PER_KEY, "output"):
        built.misshapen.append((i, None))
    elif len(f.dims) == 1 and f.role in (*_PER_KEY, "output") and f.index is not None:
        row = _row(f, d, queries)
        if row is not None:
            built.misshapen.append((i, row))
    elif f.dims == () and f.role == "exp" and not f.col and f.spots and f.spots[0] is not None:
        # e^{2.5} ≈ 12.18: the exponential of the next key of the row (in the text's order)
        row = _row(f, d, queries)
        if row is None:
            return
        j = _exp_key(built, row, f.exponent, nk)
        if j is None:
            return
        one_exp: list[Spot | None] = [None] * nk
        one_exp[j] = f.spots[0]
        built.put(i, row, "exp", cols, one_exp)
    elif f.dims == () and f.role in _PER_KEY and f.col:
        row = _row(f, d, queries)
        low = {k.lower(): k for k in keys}
        col = low.get(f.col.lower()) or (
            keys[int(f.col) - 1] if f.col.isdigit() and 1 <= int(f.col) <= nk else None
        )
        if row is not None and col is not None:
            one: list[Spot | None] = [None] * nk
            one[keys.index(col)] = f.spots[0]
            built.put(i, row, f.role, cols, one)
