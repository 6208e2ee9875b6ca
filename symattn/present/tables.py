"""The data of a worked example: its tables (X, W, Q, K, V) and the projections ``x W``."""

from __future__ import annotations

from symattn.engine.result import AttentionResult
from symattn.present.certified import rationals
from symattn.present.model import Line, Projection, Table, math_seg, msg, text_seg, token_seg
from symattn.present.numbers import dot_terms, rational_latex, row_vector

#: the projection matrices of embeddings: trace step -> its symbol
PROJECTION_SYMBOLS: tuple[tuple[str, str], ...] = (
    ("W_Q", "W^{Q}"),
    ("W_K", "W^{K}"),
    ("W_V", "W^{V}"),
)


def data_tables(
    result: AttentionResult, qlabels: tuple[str, ...], klabels: tuple[str, ...], uses_x: bool
) -> tuple[Table, ...]:
    """The inputs as tables: embeddings and projections when given, then Q, K and V."""
    trace = result.trace
    blank = text_seg("")
    out = []
    if uses_x:
        x = rationals(trace.get("X").value)
        out.append(
            Table(
                msg("table_x"),
                (blank, math_seg("x")),
                tuple(
                    (token_seg(klabels[i]), math_seg(row_vector(x[i]))) for i in range(x.shape[0])
                ),
            )
        )
        for name, sym in PROJECTION_SYMBOLS:
            w = rationals(trace.get(name).value)
            out.append(
                Table(
                    msg("table_w", name=math_seg(sym)),
                    (math_seg(sym),),
                    tuple((math_seg(row_vector(w[i])),) for i in range(w.shape[0])),
                )
            )
    q, k, v = (rationals(result.stage(n)) for n in ("Q", "K", "V"))
    if qlabels != klabels:
        # queries given apart from the keys (a query is not a key row): two tables, as texts do
        out.append(
            Table(
                msg("table_q"),
                (blank, math_seg("q")),
                tuple(
                    (token_seg(name), math_seg(row_vector(q[i]))) for i, name in enumerate(qlabels)
                ),
            )
        )
        out.append(
            Table(
                msg("table_kv"),
                (blank, math_seg("k"), math_seg("v")),
                tuple(
                    (token_seg(name), math_seg(row_vector(k[j])), math_seg(row_vector(v[j])))
                    for j, name in enumerate(klabels)
                ),
            )
        )
        return tuple(out)
    header = (blank, math_seg("q"), math_seg("k"), math_seg("v"))
    rows = tuple(
        (
            token_seg(name),
            math_seg(row_vector(q[j])),
            math_seg(row_vector(k[j])),
            math_seg(row_vector(v[j])),
        )
        for j, name in enumerate(klabels)
    )
    caption = msg("table_qkv_x") if uses_x else msg("table_qkv")
    out.append(Table(caption, header, rows))
    return tuple(out)


def projections(
    result: AttentionResult,
    qlabels: tuple[str, ...],
    klabels: tuple[str, ...],
    rows: tuple[int, ...],
) -> tuple[Projection, ...]:
    """``q`` of each explained query and ``k``, ``v`` of every key, written out as ``x W``."""
    trace = result.trace
    x = rationals(trace.get("X").value)
    out = []
    plan = [("Q", "q", "W^{Q}", i) for i in rows] + [
        (n, n.lower(), f"W^{{{n}}}", j) for n in "KV" for j in range(len(klabels))
    ]
    for name, sym, wsym, i in plan:
        w = rationals(trace.get(f"W_{name}").value)
        res = rationals(result.stage(name))
        lines = []
        for c in range(w.shape[1]):
            factors, products = dot_terms(x[i], w[:, c])
            math = (
                f"{sym}_{{{i + 1},{c + 1}}} = {factors} = {products} = {rational_latex(res[i, c])}"
            )
            lines.append(Line(None, math))
        label = qlabels[i] if name == "Q" else klabels[i]
        caption = msg(
            "projection",
            token=token_seg(label),
            sym=math_seg(f"{sym}_{{{i + 1}}} = x_{{{i + 1}}} {wsym}"),
            vector=math_seg(f"{sym}_{{{i + 1}}} = {row_vector(res[i])}"),
        )
        out.append(Projection(caption, tuple(lines)))
    return tuple(out)
