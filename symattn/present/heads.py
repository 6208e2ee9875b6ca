"""Multi-head attention: what each head takes from ``Q``, ``K``, ``V``, and the last step,
the heads' outputs side by side (``Concat``) and multiplied by ``W^O``."""

from __future__ import annotations

from fractions import Fraction

from symattn.present.certified import Numbers
from symattn.present.data import _labels, exact_matrix
from symattn.present.layout import chain_eq, matrix, shown, side, vector_eq
from symattn.present.model import Combine, Line, Msg, OutputRow, count_seg, msg, token_seg
from symattn.present.numbers import paren, rational_latex
from symattn.present.view import View


def head_intro(view: View, h: int, heads: int) -> tuple[Msg, ...]:
    """Which columns of Q, K and V head ``h`` (from 0) takes."""
    width = view.Q.shape[1]
    first, last = h * width + 1, (h + 1) * width
    return (
        msg(
            "head_columns",
            count=width,
            h=count_seg(h + 1),
            first=count_seg(first),
            last=count_seg(last),
            heads=count_seg(heads),
        ),
    )


def head_data(view: View, h: int) -> tuple[Line, ...]:
    """``Q``, ``K`` and ``V`` of one head, as matrices."""
    qlab = _labels(view.qlabels)
    klab = _labels(view.klabels)
    return (
        Line(None, exact_matrix(view.sym("Q"), view.Q, qlab)),
        Line(None, exact_matrix(view.sym("K"), view.K, klab)),
        Line(None, exact_matrix(view.sym("V"), view.V, klab)),
    )


def _matrix_line(
    nums: Numbers,
    stage: str,
    lhs: str,
    shape: tuple[int, int],
    lead: tuple[int, ...],
    labels: tuple[str, ...],
    caption: Msg,
) -> Line:
    rows, cols = shown(shape)
    nums.prefetch(stage, [lead + (i, c) for i in rows for c in cols])
    exact = all(nums.exact_decimal(stage, lead + (i, c)) is not None for i in rows for c in cols)

    def cell(i: int, c: int) -> str:
        text = nums.exact_decimal(stage, lead + (i, c)) if exact else None
        return text if text is not None else nums.rounded(stage, lead + (i, c))

    return Line(caption, matrix(lhs, "=" if exact else r"\approx", shape, cell, labels))


def combine(
    first: View, lead: tuple[int, ...], heads: int, rows: tuple[int, ...], nums: Numbers
) -> Combine:
    """The heads concatenated, then ``W^O`` (when given), and each explained row worked out."""
    result = first.result
    trace = result.trace
    wo_step = trace.find("W_O")
    labels = _labels(first.qlabels)
    concat_name = "concat" if wo_step is not None else "output"
    concat = result.stage(concat_name)
    L, width = concat.shape[-2], concat.shape[-1]
    parts = ", ".join(f"O^{{({h + 1})}}" for h in range(heads))
    lines = [
        _matrix_line(
            nums,
            concat_name,
            f"H = \\mathrm{{Concat}}({parts})",
            (L, width),
            lead,
            labels,
            msg("cap_concat", count=heads, heads=count_seg(heads)),
        )
    ]
    if wo_step is None:
        return Combine((msg("combine_no_wo"),), tuple(lines), ())
    out = result.output
    lines.append(
        _matrix_line(
            nums, "output", "Y = H W^{O}", (L, out.shape[-1]), lead, labels, msg("cap_multihead")
        )
    )
    wo = first.matrix_of(wo_step)
    out_rows = []
    for i in rows:
        row_lines = []
        for c in range(wo.shape[1]):
            symbolic = [
                f"h_{{{i + 1},{t + 1}}} \\times {paren(rational_latex(wo[t, c]))}"
                for t in range(width)
            ]
            factors = [paren(rational_latex(wo[t, c])) for t in range(width)]
            with_h = [
                f"{nums.plain(concat_name, lead + (i, t))} \\times {factors[t]}"
                for t in range(width)
            ]
            raw = nums.products(
                concat_name, [(lead + (i, t), Fraction(wo[t, c])) for t in range(width)]
            )
            prods = ["0" if wo[t, c] == 0 else p for t, p in enumerate(raw)]
            rounded = [side(r"\approx", *with_h), side(r"\approx", *prods)]
            rest = nums.sides("output", lead + (i, c), rounded=rounded)
            math = chain_eq(f"y_{{{i + 1},{c + 1}}}", [side("=", *symbolic), *rest])
            row_lines.append(Line.of(None, math, at=("col", c)))
        shown_y = [nums.plain("output", lead + (i, c)) for c in range(wo.shape[1])]
        row_lines.append(
            Line.of(msg("output_result"), vector_eq(f"y_{{{i + 1}}}", r"\approx", shown_y))
        )
        heading = msg("h_output_row", token=token_seg(first.qlabels[i]))
        out_rows.append(OutputRow(first.qlabels[i], heading, tuple(row_lines)))
    return Combine((msg("combine_intro"),), tuple(lines), tuple(out_rows))
