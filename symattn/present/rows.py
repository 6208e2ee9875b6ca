"""The worked computation of one query row: dot products, scaling, mask, softmax, output.

Each step is one function, called in computation order: the order in which numbers are
rounded is the order of :attr:`~symattn.present.model.Document.numbers`.
"""

from __future__ import annotations

import numpy as np

from symattn.engine.result import AttentionResult
from symattn.present.certified import Numbers, SurdStage, rationals, surds
from symattn.present.interpretation import interpret
from symattn.present.model import Line, Msg, RowDoc, math_seg, msg, token_seg
from symattn.present.numbers import (
    dot_terms,
    is_plain_decimal,
    paren,
    rational_latex,
    row_vector,
    short_surd_latex,
    vector_latex,
)


def query_row(
    result: AttentionResult,
    i: int,
    qlabels: tuple[str, ...],
    klabels: tuple[str, ...],
    nums: Numbers,
) -> RowDoc:
    """Every step of query row ``i``, each number rounded from its exact value."""
    token = qlabels[i]
    heading = msg("row_heading", token=token_seg(token))
    scores = rationals(result.scores)
    dots = _dots(result, i, token, klabels)
    score_vector = f"\\left[q_{{{i + 1}}} \\cdot k_{{j}}\\right]_{{j}} = {row_vector(scores[i])}"
    scaled = surds(result.scaled_scores)
    masked = surds(result.masked_scores)
    scaling = _scaling(result, i, scaled, nums)
    masking, exponents = _masking(result, i, klabels, scaled, masked)
    exps = _exps(i, masked, exponents, nums)
    active = [j for j in range(len(klabels)) if not masked.masked[i, j]]
    v = rationals(result.stage("V"))
    if not active:
        return RowDoc(
            token,
            heading,
            dots,
            score_vector,
            scaling,
            masking + (msg("fully_masked"),),
            exps,
            None,
            (),
            "",
            (),
            f"o_{{{i + 1}}} = " + vector_latex(["0"] * v.shape[1]),
            (msg("fully_masked_output"),),
            True,
        )
    exp_sum = _exp_sum(i, active, nums)
    weights, weight_vector = _weights(i, masked, nums)
    outputs, output_vector = _outputs(i, active, v, nums)
    return RowDoc(
        token,
        heading,
        dots,
        score_vector,
        scaling,
        masking,
        exps,
        exp_sum,
        weights,
        weight_vector,
        outputs,
        output_vector,
        interpret(result, i, klabels, masked, nums),
        False,
    )


def _dots(
    result: AttentionResult, i: int, token: str, klabels: tuple[str, ...]
) -> tuple[Line, ...]:
    """Step 1: each score ``q . k`` written out term by term (exact)."""
    q = rationals(result.stage("Q"))
    k = rationals(result.stage("K"))
    scores = rationals(result.scores)
    out = []
    for j, key in enumerate(klabels):
        factors, products = dot_terms(q[i], k[j])
        math = (
            f"q_{{{i + 1}}} \\cdot k_{{{j + 1}}} = {factors} = {products}"
            f" = {rational_latex(scores[i, j])}"
        )
        out.append(Line(msg("dot_caption", query=token_seg(token), key=token_seg(key)), math))
    return tuple(out)


def _scaling(result: AttentionResult, i: int, scaled: SurdStage, nums: Numbers) -> tuple[Line, ...]:
    """Step 2: each score divided by ``sqrt(d_k)`` (or multiplied by the given scale)."""
    scores = rationals(result.scores)
    d = result.d_k
    if d is not None:
        root = surds(result.trace.get("sqrt_d_k").value).surd(())
        divisor = (short_surd_latex(root) if root is not None else None) or (
            f"\\sqrt{{{rational_latex(d)}}}"
        )
    else:
        factor = short_surd_latex(result.scale) or "c"
    out = []
    for j in range(scaled.shape[-1]):
        s = scaled.surd((i, j))
        short = short_surd_latex(s) if s is not None else None
        score = rational_latex(scores[i, j])
        if d is not None:
            lhs = f"s_{{{j + 1}}} = \\frac{{{score}}}{{{divisor}}}"
        else:
            lhs = f"s_{{{j + 1}}} = {paren(score)} \\times {paren(factor)}"
        rhs = nums.value(
            "scaled_scores", (i, j), short if short and not is_plain_decimal(s) else None
        )
        out.append(Line(None, f"{lhs} {rhs}"))
    return tuple(out)


def _masking(
    result: AttentionResult,
    i: int,
    klabels: tuple[str, ...],
    scaled: SurdStage,
    masked: SurdStage,
) -> tuple[tuple[Msg, ...], list[str | None]]:
    """The mask's effect on each key, and the short exact exponent of each ``e^{s}``."""
    has_mask = result.trace.find("masked_scores") is not None
    sentences = []
    exponents: list[str | None] = []
    for j, key in enumerate(klabels):
        m = masked.surd((i, j))
        s = scaled.surd((i, j))
        if m is None:
            exponents.append(None)
            if has_mask:
                sentences.append(
                    msg(
                        "masked_key", key=token_seg(key), s=math_seg(f"s_{{{j + 1}}} \\to -\\infty")
                    )
                )
            continue
        if s is not None and (m.p != s.p or m.q != s.q):
            added = paren(rational_latex(m.p - s.p))
            sentences.append(
                msg("added_mask", key=token_seg(key), value=math_seg(f"s_{{{j + 1}}} + {added}"))
            )
        exponents.append(short_surd_latex(m))
    return tuple(sentences), exponents


def _exps(
    i: int, masked: SurdStage, exponents: list[str | None], nums: Numbers
) -> tuple[Line, ...]:
    """Step 3: ``e`` to the power of each (masked) scaled score."""
    out = []
    for j, ex in enumerate(exponents):
        if masked.masked[i, j]:
            out.append(Line(None, f"e^{{s_{{{j + 1}}}}} = e^{{-\\infty}} = 0"))
            continue
        base = f"e^{{s_{{{j + 1}}}}}" if ex is None else f"e^{{s_{{{j + 1}}}}} = e^{{{ex}}}"
        out.append(Line(None, f"{base} {nums.value('exp_scores', (i, j))}"))
    return tuple(out)


def _exp_sum(i: int, active: list[int], nums: Numbers) -> Line:
    """The softmax denominator ``Z``, term by term."""
    terms = " + ".join(f"e^{{s_{{{j + 1}}}}}" for j in active)
    shown_terms = " + ".join(nums.plain("exp_scores", (i, j)) for j in active)
    return Line(None, f"Z = {terms} \\approx {shown_terms} {nums.value('exp_sums', (i,))}")


def _weights(i: int, masked: SurdStage, nums: Numbers) -> tuple[tuple[Line, ...], str]:
    """Step 4: each weight as its exponential over ``Z``, and the weight vector."""
    lines = []
    shown = []
    for j in range(masked.shape[-1]):
        if masked.masked[i, j]:
            lines.append(Line(None, f"w_{{{j + 1}}} = 0"))
            shown.append("0")
            continue
        num = nums.plain("exp_scores", (i, j))
        den = nums.plain("exp_sums", (i,))
        rhs = nums.value("weights", (i, j))
        frac = f"\\frac{{e^{{s_{{{j + 1}}}}}}}{{Z}}"
        lines.append(Line(None, f"w_{{{j + 1}}} = {frac} \\approx \\frac{{{num}}}{{{den}}} {rhs}"))
        shown.append(nums.plain("weights", (i, j)))
    return tuple(lines), f"w = {vector_latex(shown)}"


def _outputs(
    i: int, active: list[int], v: np.ndarray, nums: Numbers
) -> tuple[tuple[Line, ...], str]:
    """Step 5: each output component as the weighted sum of the values, and the output."""
    lines = []
    shown = []
    for c in range(v.shape[1]):
        used = [j for j in active if v[j, c] != 0]
        shown_w = " + ".join(
            f"{nums.plain('weights', (i, j))} \\times {paren(rational_latex(v[j, c]))}"
            for j in used
        )
        prods = nums.products("weights", [((i, j), v[j, c]) for j in used])
        formula = (
            " + ".join(f"w_{{{j + 1}}} \\times {paren(rational_latex(v[j, c]))}" for j in used)
            or "0"
        )
        rhs = nums.value("output", (i, c))
        middle = (
            f" \\approx {shown_w} \\approx {' + '.join(paren(p) for p in prods)}" if used else ""
        )
        lines.append(Line(None, f"o_{{{i + 1},{c + 1}}} = {formula}{middle} {rhs}"))
        shown.append(nums.plain("output", (i, c)))
    return tuple(lines), f"o_{{{i + 1}}} = {vector_latex(shown)}"
