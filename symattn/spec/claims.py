"""The ``[claims]`` table of a spec, validated: what the author claims, kept as written.

Row claims are lists in key-token order or tables keyed by some of the tokens; every claim is
a :class:`~symattn.numbers.Written` number, so ``0.340`` keeps its three decimals.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from symattn.numbers import Written
from symattn.spec.fields import Fields, field_key, short
from symattn.spec.model import Claim, Claims, RowClaims, TokenClaims
from symattn.stages import ROW_STAGES, TOKEN_STAGES

#: the fields of ``[claims]``
CLAIM_FIELDS = ("d_k", "sqrt_d_k", "tokens", "rows")
#: the fields of ``[claims.tokens.<token>]``
TOKEN_CLAIM_FIELDS = tuple(TOKEN_STAGES)
#: the fields of ``[claims.rows.<token>]``, in computation order
ROW_CLAIM_FIELDS = tuple(s.claim for s in ROW_STAGES)
#: the row fields with one claim per key token
PER_KEY_FIELDS = tuple(s.claim for s in ROW_STAGES if s.per_key)


def build_claims(
    fields: Fields,
    v: object,
    tokens: tuple[str, ...],
    query_tokens: tuple[str, ...],
    uses_x: bool,
    widths: Mapping[str, int],
) -> Claims:
    """The ``[claims]`` table: the scaling claims, the tokens' projections, the rows."""
    if not isinstance(v, dict):
        raise fields.err("claims", f"expected a table, got {short(v)}")
    fields.unknown(v, CLAIM_FIELDS, "claims")
    d_k = fields.written(v["d_k"], "claims.d_k") if "d_k" in v else None
    sqrt_d_k = fields.written(v["sqrt_d_k"], "claims.sqrt_d_k") if "sqrt_d_k" in v else None
    tok = v.get("tokens", {})
    if not isinstance(tok, dict):
        raise fields.err("claims.tokens", f"expected a table keyed by token, got {short(tok)}")
    all_names = tokens + tuple(t for t in query_tokens if t not in tokens)
    token_claims: dict[str, TokenClaims] = {}
    for t, tc in tok.items():
        where = f"claims.tokens.{field_key(t)}"
        fields.subset((t,), all_names, "claims.tokens", "tokens or query_tokens")
        token_claims[t] = _token_claims(fields, tc, t, where, tokens, query_tokens, uses_x, widths)
    rows = v.get("rows", {})
    if not isinstance(rows, dict):
        raise fields.err("claims.rows", f"expected a table keyed by query token, got {short(rows)}")
    row_claims: dict[str, RowClaims] = {}
    for t, rc in rows.items():
        fields.subset((t,), query_tokens, "claims.rows", "query_tokens")
        row_claims[t] = _row_claims(fields, rc, f"claims.rows.{field_key(t)}", tokens, widths)
    return Claims(
        d_k=d_k,
        sqrt_d_k=sqrt_d_k,
        tokens=MappingProxyType(token_claims),
        rows=MappingProxyType(row_claims),
    )


def _vector(fields: Fields, v: object, field: str, width: int | None) -> tuple[Written, ...]:
    """A non-empty list of claimed numbers (of ``width`` entries when it is known)."""
    if not isinstance(v, list) or not v:
        raise fields.err(field, f"expected a non-empty list of numbers, got {short(v)}")
    if width is not None and len(v) != width:
        raise fields.err(field, f"has {len(v)} entries, expected {width}")
    fields.limits.check_elements(len(v), f"{fields.name}: {field}")
    return tuple(fields.written(x, f"{field}[{i}]") for i, x in enumerate(v, 1))


def _per_key(fields: Fields, v: object, field: str, tokens: tuple[str, ...]) -> tuple[Claim, ...]:
    """A list with one entry per key token, or a table keyed by some of the tokens."""
    if isinstance(v, dict):
        if not v:
            raise fields.err(field, "is an empty table")
        for t in v:
            fields.subset((t,), tokens, field, "tokens")
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
    tokens: tuple[str, ...],
    query_tokens: tuple[str, ...],
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
    fields: Fields, v: object, where: str, tokens: tuple[str, ...], widths: Mapping[str, int]
) -> RowClaims:
    """``[claims.rows.<token>]``: the claims of one query row, per key or per output column."""
    if not isinstance(v, dict):
        raise fields.err(where, f"expected a table of claims, got {short(v)}")
    fields.unknown(v, ROW_CLAIM_FIELDS, where)
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
    )
