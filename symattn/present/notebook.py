"""How a result shows itself in a notebook: text, HTML, Markdown and LaTeX summaries.

A summary is the weights and the output of every attention in the result (each head, each
batch item, up to :data:`MAX_VIEWS`), rounded to :data:`DIGITS` decimals from exact values, as
matrices (their first and last rows and columns when large), plus the weights as an inline
SVG heatmap in HTML. Its size is bounded whatever the result's size; it holds no link, no
script and no external reference; token names are escaped. A summary never raises: anything
that goes wrong gives a one-line description instead. The whole worked example is
``result.to_markdown()`` / ``to_latex()`` / ``to_html()``.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.present.certified import Numbers
from symattn.present.formats import escape_html
from symattn.present.heatmap import heatmap_svg
from symattn.present.layout import MAX_COLS, MAX_ROWS, matrix, positions, shown
from symattn.present.matrices import heatmap
from symattn.present.model import DocOptions
from symattn.present.view import View, views_of

#: decimals of the numbers a summary shows
DIGITS = 4
#: the most attentions (heads, batch items) a summary shows
MAX_VIEWS = 4
#: the style sheet of the HTML summary, scoped to its own class (a notebook has no style
#: sheet of ours): boxes that scroll sideways, right-aligned tabular numbers
CSS = (
    ".symattn-summary .sa-box{overflow-x:auto;max-width:100%}"
    ".symattn-summary table{border-collapse:collapse;margin:.3em 0;"
    "font-variant-numeric:tabular-nums}"
    ".symattn-summary th,.symattn-summary td{padding:.15em .6em;text-align:right;"
    "white-space:nowrap;border:none}"
    ".symattn-summary th{font-weight:600}"
    ".symattn-summary td{font-family:ui-monospace,monospace}"
)


def describe(result: AttentionResult) -> str:
    """One line: the shape of the problem in words (never raises)."""
    return AttentionResult.describe(result)


def _views(result: AttentionResult) -> list[View]:
    L, S = result.weights.shape[-2:]
    q = result.query_labels or tuple(str(i + 1) for i in range(L))
    k = result.key_labels or tuple(str(j + 1) for j in range(S))
    return list(views_of(result, q, k))[:MAX_VIEWS]


def _table(view: View, nums: Numbers, stage: str, shape: tuple[int, int], cols: list[str]) -> str:
    """An HTML table of one stage: first and last rows and columns of a large one."""
    rpos, cpos = positions(shape[0], MAX_ROWS), positions(shape[1], MAX_COLS)
    wanted = [view.at(i, c) for i in rpos if i is not None for c in cpos if c is not None]
    nums.prefetch(
        stage, [idx for idx in wanted if not (stage == "weights" and view.is_masked(*idx[-2:]))]
    )
    th, td = "<th>", "<td>"
    head = "".join(
        f"{th}\u2026</th>" if c is None else f"{th}{escape_html(cols[c])}</th>" for c in cpos
    )
    out = [f'<div class="sa-box"><table><tr>{th}</th>{head}</tr>']
    for i in rpos:
        if i is None:
            out.append(f"<tr>{th}\u22ee</th>" + f"{td}\u22ee</td>" * len(cpos) + "</tr>")
            continue
        cells = []
        for c in cpos:
            if c is None:
                cells.append(f"{td}\u2026</td>")
            elif stage == "weights" and view.is_masked(i, c):
                cells.append(f"{td}\u2014</td>")
            else:
                cells.append(f"{td}{html.escape(nums.rounded(stage, view.at(i, c)))}</td>")
        out.append(f"<tr>{th}{escape_html(view.qlabels[i])}</th>{''.join(cells)}</tr>")
    out.append("</table></div>")
    return "".join(out)


def result_heatmap_svg(result: AttentionResult, index: tuple[int, ...] = ()) -> str:
    """The weights of one attention (``index``: a batch item or head) as a self-contained SVG
    heatmap, rounded to :data:`DIGITS` decimals; masked cells greyed with a dash."""
    L, S = result.weights.shape[-2:]
    q = result.query_labels or tuple(str(i + 1) for i in range(L))
    k = result.key_labels or tuple(str(j + 1) for j in range(S))
    index = tuple(int(i) for i in index)
    found = [v for v in views_of(result, q, k) if v.prefix == index]
    if not found:
        raise InputError(
            f"the weights have shape {tuple(result.weights.shape)}: give index= with "
            f"{len(result.weights.shape) - 2} entries (a batch item or a head)"
        )
    nums = Numbers(result, DocOptions(digits=DIGITS))
    return heatmap_svg(heatmap(found[0], nums), "masked")


def summary_html(result: AttentionResult) -> str:
    """A bounded HTML summary: per attention, the weights (table and heatmap) and the output."""
    try:
        nums = Numbers(result, DocOptions(digits=DIGITS))
        parts = [
            f'<div class="symattn-summary"><style>{CSS}</style>'
            f"<p><strong>{escape_html(describe(result))}</strong></p>"
        ]
        for v in _views(result):
            if v.prefix:
                parts.append(f"<p>[{', '.join(str(i) for i in v.prefix)}]</p>")
            L, S = v.shape
            parts.append("<p>weights</p>" + _table(v, nums, "weights", (L, S), list(v.klabels)))
            parts.append('<div class="sa-box">')
            parts.append(heatmap_svg(heatmap(v, nums, MAX_ROWS), "masked") + "</div>")
            E = result.stage(v.output_step.name).shape[-1]
            cols = [str(c + 1) for c in range(E)]
            parts.append("<p>output</p>" + _table(v, nums, v.output_step.name, (L, E), cols))
        parts.append("</div>")
        return "".join(parts)
    except Exception:  # noqa: BLE001 - a repr must never raise
        return f"<pre>{html.escape(describe(result))}</pre>"


def _matrices(result: AttentionResult) -> list[str]:
    nums = Numbers(result, DocOptions(digits=DIGITS))
    out = []
    for v in _views(result):
        L, S = v.shape
        rows, cols = shown((L, S))
        nums.prefetch("weights", [v.at(i, j) for i in rows for j in cols if not v.is_masked(i, j)])
        tag = f"_{{{','.join(str(i + 1) for i in v.prefix)}}}" if v.prefix else ""
        out.append(matrix(f"A{tag}", r"\approx", (L, S), _cells(nums, v, "weights")))
        stage = v.output_step.name
        E = result.stage(stage).shape[-1]
        nums.prefetch(stage, [v.at(i, c) for i in rows for c in shown((L, E))[1]])
        out.append(matrix(f"O{tag}", r"\approx", (L, E), _cells(nums, v, stage)))
    return out


def _cells(nums: Numbers, view: View, stage: str) -> Callable[[int, int], str]:
    """The rounded cells of one stage of ``view`` (masked weights are exactly 0)."""

    def cell(i: int, j: int) -> str:
        if stage == "weights" and view.is_masked(i, j):
            return "0"
        return nums.rounded(stage, view.at(i, j))

    return cell


def summary_markdown(result: AttentionResult) -> str:
    """A Markdown summary: one line, then the weights and outputs as displayed matrices."""
    try:
        body = "\n\n".join(f"$$\n{m}\n$$" for m in _matrices(result))
        return f"**{html.escape(describe(result))}**\n\n{body}\n"
    except Exception:  # noqa: BLE001
        return describe(result)


def summary_latex(result: AttentionResult) -> str:
    """A LaTeX summary (math mode, as notebooks expect): the weights and the outputs."""
    try:
        body = " \\\\\n".join(_matrices(result))
        return f"$$\n\\begin{{gathered}}\n{body}\n\\end{{gathered}}\n$$"
    except Exception:  # noqa: BLE001
        return describe(result)
