"""The attention problem behind a text (Level 2), rebuilt as spec data with the claims it states.

The inputs come from the scan (embeddings with ``W_Q``/``W_K``/``W_V``, a ``token Q K V``
table, or ``q_1 = […]`` vectors); the claims from the chains Level 1 kept (labelled scores,
sums, weights, outputs, exponentials, scaled scores, ``d_k`` and ``√d_k``) and from prose.
Each claim remembers where it was written, so a finding of ``check`` lands on its number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from symattn.read.notations import EXP_FIRST, LABEL_RULES, SCALED_FIRST, SCORE_FIRST, SQRT_DK
from symattn.read.observations import Row, Scan, Spot, Stated, texts
from symattn.read.report import Recognised
from symattn.read.syntax import Call
from symattn.stages import BY_CLAIM

__all__ = ["Inputs", "Problem", "build", "inputs_of", "label_kind"]

#: (spec step, position in the step) of a claim
Place = tuple[str, tuple[str, ...]]

#: the weight matrices, in the order a spec gives them
_W_NAMES = ("W_Q", "W_K", "W_V")

#: the trace step of each claim of a query row
_STEP: Mapping[str, str] = MappingProxyType({c: stage.step for c, stage in BY_CLAIM.items()})


@dataclass(frozen=True)
class Inputs:
    """The inputs a text gives, as spec data, with the tokens of its keys and queries."""

    source: str  # embeddings | table | vectors
    data: Mapping[str, list[list[str]]]
    keys: tuple[str, ...]
    queries: tuple[str, ...]
    spots: tuple[Spot, ...]


@dataclass(frozen=True)
class Problem:
    """The rebuilt problem: spec data, token lists, and where each claim was written."""

    data: Mapping[str, object]
    recognised: Recognised
    spots: Mapping[Place, Spot]
    first: Spot | None


def inputs_of(sc: Scan) -> Inputs | None:
    """The inputs of the text, or None when they are not all there."""
    ws = {r: sc.w.get(r) for r in _W_NAMES}
    table_tokens = tuple(t for t, e in sc.table.items() if set(e) >= {"Q", "K", "V"})
    if sc.x and all(ws.values()):
        tokens = (
            table_tokens if table_tokens and all(t in sc.x for t in table_tokens) else tuple(sc.x)
        )
        inputs = {"X": [texts(sc.x[t]) for t in tokens]}
        for r, rows in ws.items():
            inputs[r] = [texts(row) for row in rows or ()]
        spots = tuple(s for t in tokens for s in sc.x[t])
        return Inputs("embeddings", inputs, tokens, tokens, spots)
    # one `token Q K V` table, or the two tables `explain` writes: queries, then keys and values
    keys = tuple(t for t, e in sc.table.items() if set(e) >= {"K", "V"})
    queries = tuple(t for t, e in sc.table.items() if "Q" in e)
    if keys and queries:
        inputs = {
            "Q": [texts(sc.table[t]["Q"]) for t in queries],
            "K": [texts(sc.table[t]["K"]) for t in keys],
            "V": [texts(sc.table[t]["V"]) for t in keys],
        }
        spots = tuple(s for t in queries for s in sc.table[t]["Q"])
        spots += tuple(s for t in keys for r in "KV" for s in sc.table[t][r])
        return Inputs("table", inputs, keys, queries, spots)
    q, k, v = (sc.vectors[r] for r in "QKV")
    if q and k and v and set(k) == set(v):
        keys = tuple(sc.names.get(i, i) for i in k)
        queries = tuple(sc.names.get(i, i) for i in q)
        if len(set(keys)) != len(keys) or len(set(queries)) != len(queries):
            return None
        inputs = {
            "Q": [texts(q[i]) for i in q],
            "K": [texts(k[i]) for i in k],
            "V": [texts(v[i]) for i in k],
        }
        spots = tuple(s for d in (q, k, v) for vec in d.values() for s in vec)
        return Inputs("vectors", inputs, keys, queries, spots)
    return None


def _plain(text: str) -> str:
    """A label or first link with its braces dropped (``q_{1}`` is ``q_1``)."""
    return text.replace("{", "").replace("}", "").strip()


def label_kind(label: str) -> tuple[str, re.Match[str]] | None:
    """What a chain's label names (scores, sum, weights, output), and the match."""
    plain = _plain(label)
    for rule in LABEL_RULES:
        m = rule.regex.match(plain)
        if m is not None:
            return rule.kind, m
    return None


@dataclass(frozen=True)
class _Claim:
    """A claim about a query row: its kind, row and column as written, and its numbers."""

    kind: str
    row: str | None
    col: str | None
    spots: Row


@dataclass(frozen=True)
class _Stated:
    """The claims the chains and the prose state."""

    rows: tuple[_Claim, ...]
    d_k: tuple[Spot, ...]
    sqrt_d_k: Spot | None


def _claims(stated: tuple[Stated, ...], sc: Scan) -> _Stated:
    raw: list[_Claim] = []
    dk_claims: list[Spot] = []
    sqrt_claim: Spot | None = None
    for s in stated:
        last = s.literals[-1]
        kind_m = label_kind(s.label) if s.label else None
        first = _plain(s.first)
        if s.label == "d_k" and len(last) == 1:
            dk_claims.append(last[0])
        elif SQRT_DK.regex.match(first) and len(last) == 1 and last[0].written.value > 0:
            sqrt_claim = sqrt_claim or last[0]
        elif kind_m is not None:
            kind, m = kind_m
            gd = m.groupdict()
            raw.append(_Claim(kind, gd.get("row"), gd.get("col"), last))
        elif (sm := SCORE_FIRST.regex.match(first)) is not None:
            raw.append(_Claim("scores", sm.group("row"), sm.group("col"), last))
        elif isinstance(s.node, Call) and s.node.fn == "sum":
            raw.append(_Claim("sum", None, None, last))
        elif SCALED_FIRST.regex.match(first):
            raw.append(_Claim("scaled", None, None, last))
        elif EXP_FIRST.regex.match(first):
            raw.append(_Claim("exp", None, None, last))
    raw += [
        _Claim(kind, None, None, spots) for kind, spots in sc.prose if kind in ("weights", "output")
    ]
    raw += [_Claim("weight", None, idx, (spot,)) for idx, spot in sc.weights]
    return _Stated(tuple(raw), tuple(dk_claims), sqrt_claim)


def build(stated: tuple[Stated, ...], sc: Scan) -> Problem | None:
    """The spec data of the problem behind the text, with the claims it states; None without
    inputs. A row or key named by a number that is not an index raises ``ValueError``."""
    got = inputs_of(sc)
    if got is None:
        return None
    keys, queries = got.keys, got.queries

    def resolve(ident: str, among: tuple[str, ...]) -> str | None:
        ident = ident.strip()
        ident = sc.names.get(ident, ident)
        if ident in among:
            return ident
        return among[int(ident) - 1] if ident.isdigit() and 1 <= int(ident) <= len(among) else None

    claimed = _claims(stated, sc)
    named_rows = {resolve(c.row, queries) for c in claimed.rows if c.row is not None} - {None}
    default = (
        next(iter(named_rows))
        if len(named_rows) == 1
        else queries[0]
        if len(queries) == 1
        else None
    )
    v_width = len(got.data["V"][0] if got.source != "embeddings" else got.data["W_V"][0])
    rows: dict[str, dict[str, object]] = {}
    spots: dict[Place, Spot] = {}
    exp_next: dict[str, int] = {}
    for c in claimed.rows:
        row = resolve(c.row, queries) if c.row is not None else default
        if row is None:
            continue
        rc = rows.setdefault(row, {})
        vals = c.spots
        if c.kind in ("scores", "exp") and len(vals) == 1:
            col = resolve(c.col, keys) if c.col is not None else None
            if c.kind == "exp" and c.col is None:
                j = exp_next.get(row, 0)
                exp_next[row] = j + 1
                col = keys[j] if j < len(keys) else None
            if col is None:
                continue
            table = rc.setdefault(c.kind, {})
            if isinstance(table, dict) and col not in table:
                table[col] = vals[0].written.text
                spots[(_STEP[c.kind], (row, col))] = vals[0]
        elif c.kind == "scaled" and len(vals) == len(keys) and "scaled" not in rc:
            rc["scaled"] = texts(vals)
            for t, v in zip(keys, vals, strict=True):
                spots[(_STEP["scaled"], (row, t))] = v
        elif c.kind == "weight" and c.col is not None and (col := resolve(c.col, keys)) is not None:
            single = rc.setdefault("weights", {})
            if isinstance(single, dict) and col not in single:
                single[col] = vals[0].written.text
                spots[(_STEP["weights"], (row, col))] = vals[0]
                spots.setdefault((_STEP["weights"], (row,)), vals[0])
        elif c.kind == "sum" and len(vals) == 1 and "sum" not in rc:
            rc["sum"] = vals[0].written.text
            spots[(_STEP["sum"], (row,))] = vals[0]
        elif c.kind == "weights" and len(vals) == len(keys) and "weights" not in rc:
            rc["weights"] = texts(vals)
            for t, v in zip(keys, vals, strict=True):
                spots[(_STEP["weights"], (row, t))] = v
            spots[(_STEP["weights"], (row,))] = vals[0]
        elif c.kind == "output" and "output" not in rc and len(vals) == v_width:
            rc["output"] = texts(vals)
            for j, v in enumerate(vals):
                spots[(_STEP["output"], (row, str(j)))] = v

    data: dict[str, object] = {"schema": 1, "tokens": list(keys), "inputs": dict(got.data)}
    if got.source != "embeddings":
        data["query_tokens"] = list(queries)
    claims: dict[str, object] = {}
    dk_claims = claimed.d_k
    stated_dk = next(
        (s for s in dk_claims if s.written.value.denominator == 1 and s.written.value > 0), None
    )
    if stated_dk is not None:
        data["d_k"] = int(stated_dk.written.value)
        later = next(
            (s for s in dk_claims if s.written.value not in (stated_dk.written.value, 0)), None
        )
        if later is not None:
            claims["d_k"] = later.written.text
            spots[("d_k", ())] = later
    if claimed.sqrt_d_k is not None:
        claims["sqrt_d_k"] = claimed.sqrt_d_k.written.text
        spots[("sqrt_d_k", ())] = claimed.sqrt_d_k
    if got.source != "vectors":
        toks: dict[str, dict[str, list[str]]] = {}
        for t in keys if got.source == "embeddings" else ():
            for r in "QKV":
                vec = sc.table.get(t, {}).get(r)
                if vec:
                    toks.setdefault(t, {})[r.lower()] = texts(vec)
                    for j, v in enumerate(vec):
                        spots[(r, (t, str(j)))] = v
        if toks:
            claims["tokens"] = toks
    if rows:
        claims["rows"] = rows
    data["claims"] = claims
    embeddings = got.source == "embeddings"
    k_width = len(got.data["K"][0]) if "K" in got.data else len(got.data["W_K"][0])
    rec = Recognised(
        got.source,
        queries,
        keys,
        keys,
        keys if embeddings else (),
        _W_NAMES if embeddings else (),
        int(stated_dk.written.value) if stated_dk is not None else k_width,
        stated_dk is not None,
        sum(1 for k in spots if len(k[1]) != 1 or k[0] != _STEP["weights"]),
    )
    first_input = got.spots[0] if got.spots else None
    stated_spot = stated_dk or first_input
    if stated_spot is not None:
        spots.setdefault(("sqrt_d_k", ()), stated_spot)
    return Problem(data, rec, MappingProxyType(spots), first_input)
