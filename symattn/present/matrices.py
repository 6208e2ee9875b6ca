"""One attention in matrix form: the mask, the scores, the scaled scores, the weights and the
output, all queries at once; and the weights as a heatmap.

A matrix whose shown entries are all short exact decimals is written with ``=``; any other is
written with ``\\approx`` and every entry rounded to the document's decimals (masked entries
are ``-\\infty`` in the scores and exactly 0 in the weights).
"""

from __future__ import annotations

from symattn.present.certified import Numbers
from symattn.present.data import _labels, exact_matrix
from symattn.present.layout import MAX_COLS, MAX_ROWS, matrix, shown
from symattn.present.model import Heatmap, Line, Msg, math_seg, msg
from symattn.present.numbers import inline_rational
from symattn.present.view import View

#: a heatmap shows at most this many queries and keys (the first ones)
HEATMAP_MAX = 24


def scores_symbol(view: View) -> str:
    """``Q K^T`` (``Q^{(1)} (K^{(1)})^T`` in head 1), or ``S`` when the scores are given."""
    if view.starts_at_scores:
        return view.sym("S")
    if view.tag:
        return f"{view.sym('Q')} \\left({view.sym('K')}\\right)^{{T}}"
    return "Q K^{T}"


def scaled_symbol(view: View) -> str:
    """How the scaled scores are written: ``\\frac{QK^T}{\\sqrt{d_k}}``, ``c\\,QK^T``, or
    ``\\hat{S}`` (given)."""
    if view.starts_scaled:
        return view.sym(r"\hat{S}")
    if view.result.d_k is not None:
        return f"\\frac{{{scores_symbol(view)}}}{{\\sqrt{{d_k}}}}"
    return f"c\\, {scores_symbol(view)}"


def mask_lines(view: View) -> tuple[Line, ...]:
    """The mask as a matrix ``M``: ``-\\infty`` where masked, else 0 (or the additive entry)."""
    if not view.has_mask:
        return ()
    masked, scaled = view.masked, view.scaled
    L, S = view.shape

    def cell(i: int, j: int) -> str:
        m = masked.surd(view.at(i, j))
        if m is None:
            return r"-\infty"
        s = scaled.surd(view.at(i, j))
        assert s is not None
        return inline_rational(m.p - s.p) if m.q == s.q else "0"

    labels = _labels(view.qlabels)
    return (Line(msg("cap_mask"), matrix("M", "=", (L, S), cell, labels)),)


def _stage_matrix(
    view: View, nums: Numbers, stage: str, lhs: str, masked_text: str, caption: Msg
) -> Line:
    """One stage as a matrix, exact (``=``) or rounded (``\\approx``) as a whole."""
    rows, cols = shown(view.shape)
    nums.prefetch(stage, [view.at(i, j) for i in rows for j in cols if not view.is_masked(i, j)])
    exact = all(
        view.is_masked(i, j) or nums.exact_decimal(stage, view.at(i, j)) is not None
        for i in rows
        for j in cols
    )

    def cell(i: int, j: int) -> str:
        if view.is_masked(i, j):
            return masked_text
        idx = view.at(i, j)
        if exact:
            text = nums.exact_decimal(stage, idx)
            assert text is not None
            return text
        return nums.rounded(stage, idx)

    labels = _labels(view.qlabels)
    rel = "=" if exact else r"\approx"
    return Line(caption, matrix(lhs, rel, view.shape, cell, labels))


def _output_matrix(view: View, nums: Numbers) -> Line:
    stage = view.output_step.name
    L = len(view.qlabels)
    E = view.V.shape[1]
    rows, cols = shown((L, E))
    nums.prefetch(stage, [view.at(i, c) for i in rows for c in cols])
    exact = all(nums.exact_decimal(stage, view.at(i, c)) is not None for i in rows for c in cols)

    def cell(i: int, c: int) -> str:
        idx = view.at(i, c)
        text = nums.exact_decimal(stage, idx) if exact else None
        return text if text is not None else nums.rounded(stage, idx)

    labels = _labels(view.qlabels)
    lhs = f"{view.sym('O')} = {view.sym('A')} {view.sym('V')}"
    return Line(
        msg("cap_output_m"), matrix(lhs, "=" if exact else r"\approx", (L, E), cell, labels)
    )


def stage_lines(view: View, nums: Numbers) -> tuple[Line, ...]:
    """Scores, scaled (and masked) scores, weights and output, as matrices."""
    out = []
    labels = _labels(view.qlabels)
    if not view.starts_at_scores:
        out.append(
            Line(msg("cap_scores_m"), exact_matrix(scores_symbol(view), view.scores, labels))
        )
    sym = scaled_symbol(view)
    if view.has_mask:
        out.append(
            _stage_matrix(
                view, nums, "masked_scores", f"{sym} + M", r"-\infty", msg("cap_masked_m")
            )
        )
    elif not view.starts_scaled:
        out.append(_stage_matrix(view, nums, "scaled_scores", sym, r"-\infty", msg("cap_scaled_m")))
    inner = f"{sym}{' + M' if view.has_mask else ''}"
    softmax = f"{view.sym('A')} = \\mathrm{{softmax}}\\left({inner}\\right)"
    out.append(_stage_matrix(view, nums, "weights", softmax, "0", msg("cap_weights_m")))
    out.append(_output_matrix(view, nums))
    return tuple(out)


def hidden_sentence(view: View) -> tuple[Msg, ...]:
    """A sentence when the matrices leave rows or columns out."""
    L, S = view.shape
    if L <= MAX_ROWS and S <= MAX_COLS:
        return ()
    return (msg("matrices_summarised", rows=math_seg(str(L)), cols=math_seg(str(S))),)


def heatmap(view: View, nums: Numbers, most: int = HEATMAP_MAX) -> Heatmap:
    """The weights of ``view`` for a heatmap (at most ``most`` rows and columns, the first)."""
    L, S = view.shape
    rows, cols = range(min(L, most)), range(min(S, most))
    nums.prefetch(
        "weights", [view.at(i, j) for i in rows for j in cols if not view.is_masked(i, j)]
    )
    cells, shades, masked = [], [], []
    for i in rows:
        c_row, s_row, m_row = [], [], []
        for j in cols:
            m = view.is_masked(i, j)
            text = "" if m else nums.plain("weights", view.at(i, j))
            m_row.append(m)
            c_row.append(text)
            s_row.append(float(text) if text else 0.0)  # a shade only: the shown rounding
        cells.append(tuple(c_row))
        shades.append(tuple(s_row))
        masked.append(tuple(m_row))
    return Heatmap(
        view.qlabels[: len(rows)],
        view.klabels[: len(cols)],
        tuple(cells),
        tuple(shades),
        tuple(masked),
        L - len(rows),
        S - len(cols),
    )
