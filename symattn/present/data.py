"""The data of a worked example as matrices (X, W, Q, K, V, a score matrix) and the projections
``Q = X W^Q``, ``K = X W^K``, ``V = X W^V``: first as matrices, then rows term by term."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from symattn.engine.result import AttentionResult
from symattn.present.labels import row_labels
from symattn.present.layout import chain_eq, matrix, side, vector
from symattn.present.model import Line, Msg, Projection, count_seg, math_seg, msg, token_seg
from symattn.present.numbers import dot_terms, inline_rational, rational_latex
from symattn.present.view import View

#: the projection matrices of embeddings: trace step -> its symbol
PROJECTION_SYMBOLS: tuple[tuple[str, str], ...] = (
    ("W_Q", "W^{Q}"),
    ("W_K", "W^{K}"),
    ("W_V", "W^{V}"),
)
#: work out every row of K and V when they have at most this many entries together
ALL_KEY_ROWS = 24


def exact_matrix(
    lhs: str, values: np.ndarray, labels: Sequence[str] | None = None, rel: str = "="
) -> str:
    """A matrix of exact rationals (``0.25``, ``-1/3``)."""
    shape = (values.shape[0], values.shape[1])
    return matrix(lhs, rel, shape, lambda r, c: inline_rational(values[r, c]), labels)


def token_sentences(qlabels: tuple[str, ...], klabels: tuple[str, ...]) -> tuple[Msg, ...]:
    """The tokens in order (queries apart when they differ)."""
    keys = tuple(token_seg(n) for n in klabels)
    out = []
    if qlabels == klabels:
        out.append(msg("tokens_list", count=len(klabels), tokens=keys))
    else:
        queries = tuple(token_seg(n) for n in qlabels)
        out.append(msg("tokens_queries", count=len(qlabels), queries=queries, keys=keys))
    return tuple(out)


def _labels(names: tuple[str, ...]) -> tuple[str, ...]:
    """Row labels: every name in ``\\text{}``, as it is."""
    return row_labels(names)


def data_lines(view: View, start: str, cross: bool) -> tuple[Line, ...]:
    """The inputs of the example as matrices, each with its caption."""
    result = view.result
    trace = result.trace
    qlab = _labels(view.qlabels)
    klab = _labels(view.klabels)
    out = []
    if start == "x":
        x = view.matrix_of(trace.get("X"))
        out.append(Line(msg("cap_x"), exact_matrix("X", x, klab)))
        if cross:
            xq = view.matrix_of(trace.get("X_q"))
            out.append(Line(msg("cap_xq"), exact_matrix("X_{q}", xq, qlab)))
        for name, sym in PROJECTION_SYMBOLS:
            w = view.matrix_of(trace.get(name))
            out.append(Line(msg("table_w", name=math_seg(sym)), exact_matrix(sym, w)))
        wo = trace.find("W_O")
        if wo is not None:
            out.append(Line(msg("cap_wo"), exact_matrix("W^{O}", view.matrix_of(wo))))
        return tuple(out)
    if start == "qkv":
        out.append(Line(msg("cap_q"), exact_matrix("Q", view.Q, qlab)))
        out.append(Line(msg("cap_k"), exact_matrix("K", view.K, klab)))
    elif start == "scores":
        out.append(Line(msg("cap_scores_given"), exact_matrix("S", view.scores, qlab)))
    else:
        given = view.matrix_of(trace.get("scaled_scores"))
        out.append(Line(msg("cap_scaled_given"), exact_matrix(r"\hat{S}", given, qlab)))
    out.append(Line(msg("cap_v"), exact_matrix("V", view.V, klab)))
    return tuple(out)


def projection_lines(view: View, cross: bool) -> tuple[Line, ...]:
    """``Q = X W^Q``, ``K = X W^K``, ``V = X W^V`` as matrices."""
    qlab = _labels(view.qlabels)
    klab = _labels(view.klabels)
    result = view.result
    xq = "X_{q}" if cross else "X"
    out = []
    for name, sym, x, lab in (("Q", "Q", xq, qlab), ("K", "K", "X", klab), ("V", "V", "X", klab)):
        values = view.matrix_of(result.trace.get(name))
        out.append(Line(None, exact_matrix(f"{sym} = {x} W^{{{name}}}", values, lab)))
    return tuple(out)


def projections(
    view: View, rows: tuple[int, ...], cross: bool
) -> tuple[tuple[Projection, ...], tuple[Msg, ...]]:
    """``q`` of each explained query and ``k``, ``v`` of the keys, written out as ``x W``
    (every key when K and V are small, else the first key), and a sentence on the rest."""
    trace = view.result.trace
    x = view.matrix_of(trace.get("X"))
    xq = view.matrix_of(trace.get("X_q")) if cross else x
    n_keys = len(view.klabels)
    width_k = view.matrix_of(trace.get("K")).shape[1] + view.matrix_of(trace.get("V")).shape[1]
    keys = range(n_keys) if n_keys * width_k <= ALL_KEY_ROWS else range(1)
    plan = [("Q", "q", i, xq, view.qlabels[i]) for i in rows] + [
        (n, n.lower(), j, x, view.klabels[j]) for n in "KV" for j in keys
    ]
    out = []
    for name, sym, i, emb, label in plan:
        w = view.matrix_of(trace.get(f"W_{name}"))
        res = view.matrix_of(trace.get(name))
        lines = []
        for c in range(w.shape[1]):
            factors, products = dot_terms(emb[i], w[:, c])
            lhs = f"{sym}_{{{i + 1},{c + 1}}}"
            sides = [
                side("=", *factors),
                side("=", *products),
                side("=", rational_latex(res[i, c])),
            ]
            lines.append(Line.of(None, chain_eq(lhs, sides)))
        xs = "x^{q}" if name == "Q" and cross else "x"
        caption = msg(
            "projection",
            token=token_seg(label),
            sym=math_seg(f"{sym}_{{{i + 1}}} = {xs}_{{{i + 1}}} W^{{{name}}}"),
            vector=math_seg(f"{sym}_{{{i + 1}}} = {vector([rational_latex(v) for v in res[i]])}"),
        )
        out.append(Projection(caption, tuple(lines)))
    rest = (
        (msg("projection_rest", count=n_keys - 1, n=count_seg(n_keys - 1)),)
        if len(keys) < n_keys
        else ()
    )
    return tuple(out), rest


def uses_x(result: AttentionResult) -> bool:
    return result.trace.find("X") is not None
