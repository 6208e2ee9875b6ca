"""The ``[claims]`` table of a spec, validated: what the author claims, kept as written.

Row claims are lists in key-token order or tables keyed by some of the tokens; every claim is
a :class:`~symattn.numbers.Written` number, so ``0.340`` keeps its three decimals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from symattn.numbers import Written
from symattn.spec.fields import Fields, field_key, short
from symattn.spec.model import Claim, Claims, HeadClaims, RowClaims, TokenClaims
from symattn.stages import ROW_STAGES, TOKEN_STAGES

#: the fields of ``[claims]``
CLAIM_FIELDS = ("d_k", "sqrt_d_k", "tokens", "rows", "heads")
#: the fields of ``[claims.heads.<h>]`` (heads numbered from 1)
HEAD_FIELDS = ("tokens", "rows")
#: the fields of ``[claims.tokens.<token>]``
TOKEN_CLAIM_FIELDS = tuple(TOKEN_STAGES)
#: the fields of ``[claims.rows.<token>]``, in computation order (``concat`` only with heads)
ROW_CLAIM_FIELDS = (*(s.claim for s in ROW_STAGES), "concat", "attends_most")
#: the row fields with one claim per key token
PER_KEY_FIELDS = tuple(s.claim for s in ROW_STAGES if s.per_key)
#: the row fields of one head's computation (what a multi-head row leaves to its heads)
HEAD_ROW_FIELDS = (*PER_KEY_FIELDS, "sum", "attends_most")


@dataclass(frozen=True)
class Layout:
    """What the claims of a spec may hold: its tokens, whether queries are rows of X, the
    known widths (``E``, ``Ev``, ``out``) and its heads (0: no head split)."""

    tokens: tuple[str, ...]
    query_tokens: tuple[str, ...]
    uses_x: bool
    widths: Mapping[str, int]
    heads: int = 0
    has_qk: bool = True  #: False when the example starts from scores (no Q, no K)

    def head_widths(self) -> Mapping[str, int]:
        """The widths of one head (``E``/h, ``Ev``/h; its output is ``Ev``/h wide)."""
        h = self.heads or 1
        out = {k: self.widths[k] // h for k in ("E", "Ev") if k in self.widths}
        if "Ev" in out:
            out["out"] = out["Ev"]
        return out


def build_claims(fields: Fields, v: object, layout: Layout) -> Claims:
    """The ``[claims]`` table: the scaling claims, the tokens' projections, the rows, and
    per head (``[claims.heads.<h>]``, heads numbered from 1) their tokens and rows."""
    if not isinstance(v, dict):
        raise fields.err("claims", f"expected a table, got {short(v)}")
    fields.unknown(v, CLAIM_FIELDS, "claims")
    d_k = fields.written(v["d_k"], "claims.d_k") if "d_k" in v else None
    sqrt_d_k = fields.written(v["sqrt_d_k"], "claims.sqrt_d_k") if "sqrt_d_k" in v else None
    token_claims = _tokens(fields, v.get("tokens", {}), "claims.tokens", layout, layout.widths)
    rows = _rows(fields, v.get("rows", {}), "claims.rows", layout, top=True)
    heads = v.get("heads", {})
    if not isinstance(heads, dict):
        raise fields.err(
            "claims.heads", f"expected a table keyed by head (1, 2, …), got {short(heads)}"
        )
    if heads and not layout.heads:
        raise fields.err(
            "claims.heads", "per-head claims need heads (num_heads > 1, or a W_O in inputs)"
        )
    head_claims: dict[int, HeadClaims] = {}
    for key, hc in heads.items():
        where = f"claims.heads.{field_key(key)}"
        h = _head_number(fields, key, where, layout.heads)
        if not isinstance(hc, dict):
            raise fields.err(where, f"expected a table with tokens and rows, got {short(hc)}")
        fields.unknown(hc, HEAD_FIELDS, where)
        head_claims[h - 1] = HeadClaims(
            tokens=_tokens(
                fields, hc.get("tokens", {}), f"{where}.tokens", layout, layout.head_widths()
            ),
            rows=_rows(fields, hc.get("rows", {}), f"{where}.rows", layout, top=False),
        )
    return Claims(
        d_k=d_k,
        sqrt_d_k=sqrt_d_k,
        tokens=token_claims,
        rows=rows,
        heads=MappingProxyType(dict(sorted(head_claims.items()))),
    )


def _head_number(fields: Fields, key: str, where: str, heads: int) -> int:
    """A head's number as written in the file: 1 .. num_heads."""
    if not (key.isascii() and key.isdigit()) or not 1 <= int(key) <= heads:
        raise fields.err(where, f"heads are numbered 1 to {heads}, got {short(key)}")
    return int(key)


def _tokens(
    fields: Fields, tok: object, where: str, layout: Layout, widths: Mapping[str, int]
) -> Mapping[str, TokenClaims]:
    """``[…tokens.<token>]``: the q/k/v rows the author printed, per token."""
    if not isinstance(tok, dict):
        raise fields.err(where, f"expected a table keyed by token, got {short(tok)}")
    tokens, query_tokens = layout.tokens, layout.query_tokens
    keys = frozenset(tokens)
    all_names = tokens + tuple(t for t in query_tokens if t not in keys)
    known, queries = frozenset(all_names), frozenset(query_tokens)
    out: dict[str, TokenClaims] = {}
    for t, tc in tok.items():
        fields.subset((t,), all_names, where, "tokens or query_tokens", known)
        at = f"{where}.{field_key(t)}"
        if not layout.has_qk and isinstance(tc, dict):
            for f in ("q", "k"):
                if f in tc:
                    raise fields.err(f"{at}.{f}", "a spec that starts from scores has no Q or K")
        out[t] = _token_claims(fields, tc, t, at, keys, queries, layout.uses_x, widths)
    return MappingProxyType(out)


def _rows(
    fields: Fields, rows: object, where: str, layout: Layout, *, top: bool
) -> Mapping[str, RowClaims]:
    """``[…rows.<query token>]``: the claims of each query row."""
    if not isinstance(rows, dict):
        raise fields.err(where, f"expected a table keyed by query token, got {short(rows)}")
    out: dict[str, RowClaims] = {}
    queries = frozenset(layout.query_tokens)
    for t, rc in rows.items():
        fields.subset((t,), layout.query_tokens, where, "query_tokens", queries)
        at = f"{where}.{field_key(t)}"
        if top and layout.heads > 1 and isinstance(rc, dict):
            for f in HEAD_ROW_FIELDS:
                if f in rc:
                    raise fields.err(
                        f"{at}.{f}",
                        "a multi-head row's per-head numbers go under"
                        f" [claims.heads.<h>.rows.{field_key(t)}]",
                    )
        widths = layout.widths if top else layout.head_widths()
        out[t] = _row_claims(fields, rc, at, layout, widths, concat=top and layout.heads > 0)
    return MappingProxyType(out)


def _vector(fields: Fields, v: object, field: str, width: int | None) -> tuple[Written, ...]:
    """A non-empty list of claimed numbers (of ``width`` entries when it is known)."""
    if not isinstance(v, list) or not v:
        raise fields.err(field, f"expected a non-empty list of numbers, got {short(v)}")
    if width is not None and len(v) != width:
        raise fields.err(field, f"has {len(v)} entries, expected {width}")
    fields.limits.check_elements(len(v), f"{fields.name}: {field}")
    return tuple(fields.written_entries(v, field))


def _per_key(fields: Fields, v: object, field: str, tokens: tuple[str, ...]) -> tuple[Claim, ...]:
    """A list with one entry per key token, or a table keyed by some of the tokens."""
    if isinstance(v, dict):
        if not v:
            raise fields.err(field, "is an empty table")
        fields.subset(tuple(v), tokens, field, "tokens")
        return tuple(
            fields.written(v[t], f"{field}.{field_key(t)}") if t in v else None for t in tokens
        )
    if isinstance(v, list):
        return _vector(fields, v, field, len(tokens))
    raise fields.err(
        field,
        f"expected a list with one number per token or a table keyed by token, got {short(v)}",
    )


def _token_claims(
    fields: Fields,
    v: object,
    token: str,
    where: str,
    tokens: frozenset[str],
    query_tokens: frozenset[str],
    uses_x: bool,
    widths: Mapping[str, int],
) -> TokenClaims:
    """``[claims.tokens.<token>]``: the rows of Q, K, V the author printed for a token."""
    if not isinstance(v, dict):
        raise fields.err(where, f"expected a table with q, k, v, got {short(v)}")
    fields.unknown(v, TOKEN_CLAIM_FIELDS, where)
    is_query = token in (tokens if uses_x else query_tokens)
    out: dict[str, tuple[Written, ...] | None] = {}
    for f, width_key, ok, role in (
        ("q", "E", is_query, "query"),
        ("k", "E", token in tokens, "key"),
        ("v", "Ev", token in tokens, "key"),
    ):
        if f not in v:
            out[f] = None
            continue
        if not ok:
            raise fields.err(f"{where}.{f}", f"{token!r} is not a {role} token")
        out[f] = _vector(fields, v[f], f"{where}.{f}", widths.get(width_key))
    return TokenClaims(q=out["q"], k=out["k"], v=out["v"])


def _row_claims(
    fields: Fields,
    v: object,
    where: str,
    layout: Layout,
    widths: Mapping[str, int],
    *,
    concat: bool,
) -> RowClaims:
    """``[claims.rows.<token>]``: the claims of one query row, per key or per output column."""
    if not isinstance(v, dict):
        raise fields.err(where, f"expected a table of claims, got {short(v)}")
    fields.unknown(v, ROW_CLAIM_FIELDS, where)
    tokens = layout.tokens
    if "concat" in v and not concat:
        raise fields.err(
            f"{where}.concat", "only the rows of a multi-head spec (with heads or W_O) have concat"
        )
    concat_claims: tuple[Claim, ...] = ()
    if concat:
        concat_claims = (
            _vector(fields, v["concat"], f"{where}.concat", widths.get("Ev"))
            if "concat" in v
            else (None,) * widths.get("Ev", 0)
        )
    attends = (
        _attends_most(fields, v["attends_most"], f"{where}.attends_most", tokens)
        if "attends_most" in v
        else ()
    )
    unclaimed: tuple[Claim, ...] = (None,) * len(tokens)
    per: dict[str, tuple[Claim, ...]] = {
        f: _per_key(fields, v[f], f"{where}.{f}", tokens) if f in v else unclaimed
        for f in PER_KEY_FIELDS
    }
    total = fields.written(v["sum"], f"{where}.sum") if "sum" in v else None
    out_width = widths.get("out", widths.get("Ev"))
    output: tuple[Claim, ...] = (
        _vector(fields, v["output"], f"{where}.output", out_width)
        if "output" in v
        else (None,) * (out_width or 0)
    )
    return RowClaims(
        scores=per["scores"],
        scaled=per["scaled"],
        exp=per["exp"],
        sum=total,
        weights=per["weights"],
        output=output,
        concat=concat_claims,
        attends_most=attends,
    )


def _attends_most(
    fields: Fields, v: object, field: str, tokens: tuple[str, ...]
) -> tuple[str, ...]:
    """The key token (or tokens) a sentence says the query attends to most."""
    names = [v] if isinstance(v, str) else v
    if not isinstance(names, list) or not names or not all(isinstance(t, str) for t in names):
        raise fields.err(field, f"expected a key token or a list of key tokens, got {short(v)}")
    fields.subset(tuple(names), tokens, field, "tokens")
    return tuple(dict.fromkeys(names))
