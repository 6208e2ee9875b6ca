"""The worked computation of one query row: dot products, scaling, softmax, weighted sum.

Each step is one function, called in computation order (the order in which numbers are
rounded is the order of :attr:`~symattn.present.model.Document.numbers`); steps are numbered
from 1 as they appear, so an example that starts at the scores begins with the scaling.
Masked keys are ``-\\infty`` from the start: their scores are never computed or shown, and a
row that sees one key only says so instead of dividing by a one-term sum.
"""

from __future__ import annotations

from fractions import Fraction

from symattn.present import exactforms
from symattn.present.certified import Numbers
from symattn.present.interpretation import interpret
from symattn.present.keys import STEP_HEADINGS, lookup
from symattn.present.layout import Equation, Side, chain_eq, side, vector_eq
from symattn.present.model import (
    Line,
    Msg,
    RowDoc,
    Seg,
    StepDoc,
    count_seg,
    math_seg,
    msg,
    token_seg,
)
from symattn.present.numbers import (
    dot_terms,
    paren,
    rational_latex,
    short_surd_latex,
    surd_latex,
)
from symattn.present.view import View


class _Steps:
    """Numbers the steps of one row as they are added."""

    def __init__(self) -> None:
        self.items: list[StepDoc] = []

    def add(
        self,
        slot: str,
        intro: tuple[Msg, ...],
        lines: tuple[Line, ...],
        after: tuple[Msg, ...] = (),
    ) -> None:
        key = lookup(STEP_HEADINGS, slot, "step")
        heading = Msg(key, {"n": count_seg(len(self.items) + 1)})
        self.items.append(StepDoc(slot, heading, intro, lines, after))


#: a row with more visible keys than this works out the first and last ones only
MAX_KEYS = 16
#: how many first and last keys such a row works out
FIRST_KEYS, LAST_KEYS = 6, 2


def _keys(view: View, js: list[int]) -> tuple[Seg, ...]:
    return tuple(token_seg(view.klabels[j]) for j in js)


def worked_keys(active: list[int]) -> list[int]:
    """The keys whose lines a step writes out: all, or the first and last of many."""
    if len(active) <= MAX_KEYS:
        return active
    return active[:FIRST_KEYS] + active[-LAST_KEYS:]


def _elided(active: list[int]) -> tuple[Msg, ...]:
    """A sentence on the keys a step does not write out, when there are any."""
    n = len(active) - len(worked_keys(active))
    return (msg("keys_elided", count=n, n=count_seg(n)),) if n else ()


def query_row(view: View, i: int, nums: Numbers) -> RowDoc:
    """Every step of query row ``i`` of ``view``, each number rounded from its exact value."""
    token = view.qlabels[i]
    active = view.active(i)
    hidden = [j for j in range(len(view.klabels)) if j not in active]
    steps = _Steps()
    if not view.starts_at_scores:
        steps.add("dots", *_dots(view, i, active, hidden))
    if not view.starts_scaled:
        steps.add("scaling", *_scaling(view, i, active, hidden, nums))
    elif hidden:
        steps.add("masking", (_masked_sentence(view, hidden),), (_s_vector(view, i, nums),))
    heading = msg("row_heading", token=token_seg(token))
    if not active:
        steps.add("outputs", (msg("fully_masked"), msg("fully_masked_output")), (_zero(view, i),))
        return RowDoc(token, i, heading, tuple(steps.items), (), True)
    if len(active) == 1:
        j = active[0]
        sentence = msg("only_visible", key=token_seg(view.klabels[j]))
        steps.add("weights", (sentence,), (Line.of(None, _weight_vector(view, i, nums)),))
        steps.add("outputs", (msg("only_visible_output"),), _copy_output(view, i, j))
        return RowDoc(token, i, heading, tuple(steps.items), (), False)
    steps.add("exps", *_exps(view, i, active, hidden, nums))
    steps.add("weights", *_weights(view, i, active, nums))
    steps.add("outputs", *_outputs(view, i, active, nums))
    return RowDoc(token, i, heading, tuple(steps.items), interpret(view, i, nums), False)


def _masked_sentence(view: View, hidden: list[int]) -> Msg:
    return msg("masked_keys", count=len(hidden), keys=_keys(view, hidden))


def _dots(
    view: View, i: int, active: list[int], hidden: list[int]
) -> tuple[tuple[Msg, ...], tuple[Line, ...], tuple[Msg, ...]]:
    """Step 1: the score of every visible key, ``q . k`` term by term (exact)."""
    lines = []
    for j in worked_keys(active):
        factors, products = dot_terms(view.Q[i], view.K[j])
        math = chain_eq(
            f"{view.sym('q', str(i + 1))} \\cdot {view.sym('k', str(j + 1))}",
            [
                side("=", *factors),
                side("=", *products),
                side("=", rational_latex(view.scores[i, j])),
            ],
        )
        caption = msg(
            "dot_caption", query=token_seg(view.qlabels[i]), key=token_seg(view.klabels[j])
        )
        lines.append(Line.of(caption, math, at=("key", j)))
    intro: tuple[Msg, ...] = (msg("dot_intro"),)
    if hidden:
        intro += (_masked_sentence(view, hidden),)
        return intro, tuple(lines), _elided(active)
    scores = [rational_latex(view.scores[i, j]) for j in range(len(view.klabels))]
    lhs = f"\\left[{view.sym('q', str(i + 1))} \\cdot {view.sym('k', 'j')}\\right]_{{j}}"
    vec = Line.of(msg("score_vector"), vector_eq(lhs, "=", scores))
    return intro, (*lines, vec), (*_elided(active), msg("score_meaning"))


def _divisor(view: View) -> str:
    """``\\sqrt{2}``, ``2`` or ``\\sqrt{d_k}`` as the scaling writes it."""
    step = view.result.trace.get("sqrt_d_k")
    root = view.result.trace.get("sqrt_d_k").value.surd(())
    short = short_surd_latex(root) if root is not None else None
    return short or f"\\sqrt{{{rational_latex(step.attrs['d_k'])}}}"


def _scaling(
    view: View, i: int, active: list[int], hidden: list[int], nums: Numbers
) -> tuple[tuple[Msg, ...], tuple[Line, ...], tuple[Msg, ...]]:
    """Step 2: each visible score divided by ``sqrt(d_k)`` (or times the given scale), plus an
    additive mask's entry; masked keys are ``-\\infty``."""
    result = view.result
    divided = result.d_k is not None
    if divided:
        divisor = _divisor(view)
        intro: tuple[Msg, ...] = (msg("scale_intro"),)
    else:
        factor = short_surd_latex(result.scale) or surd_latex(result.scale)
        intro = (msg("scale_intro_given", scale=math_seg(f"c = {factor}")),)
    sentences: list[Msg] = []
    lines = []
    scaled, masked = view.scaled, view.masked
    for j in worked_keys(active):
        score = rational_latex(view.scores[i, j])
        lhs = view.sym("s", f"{i + 1},{j + 1}")
        if divided:
            first = score if divisor == "1" else f"\\frac{{{score}}}{{{divisor}}}"
        else:
            first = f"{paren(score)} \\times {paren(factor)}"
        s = scaled.surd(view.at(i, j))
        m = masked.surd(view.at(i, j))
        assert s is not None and m is not None
        exact: list[Side] = []
        if m.p != s.p or m.q != s.q:  # an additive mask entry
            added = rational_latex(m.p - s.p)
            first = f"{first} + {paren(added)}"
            sentences.append(
                msg("added_mask", key=token_seg(view.klabels[j]), value=math_seg(added))
            )
        short = short_surd_latex(m)
        if short is not None and short != first:
            exact.append(side("=", short))
        elif nums.exact and m.q != 0:
            exact.append(side("=", surd_latex(m)))
        stage = "masked_scores" if view.has_mask else "scaled_scores"
        sides = [side("=", first), *nums.sides(stage, view.at(i, j), exact=exact)]
        lines.append(Line.of(None, chain_eq(lhs, sides), at=("key", j)))
    sentences.extend(_elided(active))
    if hidden and view.starts_at_scores:  # else step 1 has said it (said once)
        sentences.append(_masked_sentence(view, hidden))
    lines.append(_s_vector(view, i, nums))
    return intro, tuple(lines), tuple(sentences)


def _s_vector(view: View, i: int, nums: Numbers) -> Line:
    stage = "masked_scores" if view.has_mask else "scaled_scores"
    items = [
        r"-\infty" if view.is_masked(i, j) else nums.plain(stage, view.at(i, j))
        for j in range(len(view.klabels))
    ]
    rel = (
        "="
        if all(
            _is_exact(nums, stage, view.at(i, j)) or view.is_masked(i, j) for j in range(len(items))
        )
        else r"\approx"
    )
    return Line.of(None, vector_eq(view.sym("s", str(i + 1)), rel, items))


def _is_exact(nums: Numbers, stage: str, idx: tuple[int, ...]) -> bool:
    return nums.exact_decimal(stage, idx) is not None


def _exps(
    view: View, i: int, active: list[int], hidden: list[int], nums: Numbers
) -> tuple[tuple[Msg, ...], tuple[Line, ...], tuple[Msg, ...]]:
    """Step 3: ``e`` to the power of each visible scaled score, and their sum ``Z``."""
    lines = []
    for j in worked_keys(active):
        s = view.masked.surd(view.at(i, j))
        assert s is not None
        short = short_surd_latex(s)
        exact: list[Side] = []
        if short is not None:
            exact.append(side("=", exactforms.e_to(short)))
        elif nums.exact:
            exact.append(side("=", exactforms.power(view, i, j)))
        lhs = f"e^{{{view.sym('s', f'{i + 1},{j + 1}')}}}"
        rhs = nums.sides("exp_scores", view.at(i, j), exact=exact)
        lines.append(Line.of(None, chain_eq(lhs, rhs), at=("key", j)))
    terms = [f"e^{{{view.sym('s', f'{i + 1},{j + 1}')}}}" for j in active]
    shown = [nums.plain("exp_scores", view.at(i, j)) for j in active]
    exact_terms = all(_is_exact(nums, "exp_scores", view.at(i, j)) for j in active)
    sides: list[Side] = [side("=", *terms)]
    if nums.exact:
        sides.append(side("=", *exactforms.z_terms(view, i)))
    rest = nums.sides(
        "exp_sums",
        view.at(i),
        rounded=() if exact_terms else (side(r"\approx", *shown),),
    )
    if exact_terms and rest[-1].rel == "=":
        sides.append(side("=", *shown))
    z = Line.of(msg("sum_intro"), chain_eq(view.sym("Z", str(i + 1)), sides + rest), at=("sum", 0))
    after = (msg("exp_masked"),) if hidden else ()
    return (msg("exp_intro"),), (*lines, z), (*_elided(active), *after)


def _weight_vector(view: View, i: int, nums: Numbers) -> Equation:
    items = [
        "0" if view.is_masked(i, j) else nums.plain("weights", view.at(i, j))
        for j in range(len(view.klabels))
    ]
    exact = all(
        view.is_masked(i, j) or _is_exact(nums, "weights", view.at(i, j)) for j in range(len(items))
    )
    return vector_eq(view.sym("w", str(i + 1)), "=" if exact else r"\approx", items)


def _weights(
    view: View, i: int, active: list[int], nums: Numbers
) -> tuple[tuple[Msg, ...], tuple[Line, ...], tuple[Msg, ...]]:
    """Step 4: each weight as its exponential over ``Z``, and the weight vector."""
    lines = []
    den = nums.plain("exp_sums", view.at(i))
    for j in worked_keys(active):
        num = nums.plain("exp_scores", view.at(i, j))
        exact = [side("=", exactforms.weight(view, i, j))] if nums.exact else []
        rounded = [side(r"\approx", f"\\frac{{{num}}}{{{den}}}")]
        rhs = nums.sides("weights", view.at(i, j), exact=exact, rounded=rounded)
        frac = f"\\frac{{e^{{{view.sym('s', f'{i + 1},{j + 1}')}}}}}{{{view.sym('Z', str(i + 1))}}}"
        lhs = view.sym("w", f"{i + 1},{j + 1}")
        lines.append(Line.of(None, chain_eq(lhs, [side("=", frac), *rhs]), at=("key", j)))
    lines.append(Line.of(None, _weight_vector(view, i, nums)))
    return (msg("weights_intro"),), tuple(lines), _elided(active)


def _outputs(
    view: View, i: int, active: list[int], nums: Numbers
) -> tuple[tuple[Msg, ...], tuple[Line, ...], tuple[Msg, ...]]:
    """Step 5: each output component as the weighted sum of the values, and the output."""
    stage = view.output_step.name
    v = view.V
    cols = range(v.shape[1])
    weights_exact = all(_is_exact(nums, "weights", view.at(i, j)) for j in active)
    products: list[str] = []
    if not weights_exact:  # every product of the row rounded at once
        requests = [(view.at(i, j), Fraction(v[j, c])) for c in cols for j in active]
        products = nums.products("weights", requests)
    lines = []
    shown = []
    for c in cols:
        formula = [
            f"{view.sym('w', f'{i + 1},{j + 1}')} \\times {paren(rational_latex(v[j, c]))}"
            for j in active
        ]
        with_w = [
            f"{nums.plain('weights', view.at(i, j))} \\times {paren(rational_latex(v[j, c]))}"
            for j in active
        ]
        if weights_exact:
            prods = [rational_latex(_weight(nums, view.at(i, j)) * v[j, c]) for j in active]
        else:
            block = products[c * len(active) : (c + 1) * len(active)]
            prods = ["0" if v[j, c] == 0 else p for j, p in zip(active, block, strict=True)]
        exact = [side("=", exactforms.output(view, i, c))] if nums.exact else []
        approx = () if weights_exact else (side(r"\approx", *with_w), side(r"\approx", *prods))
        rest = nums.sides(stage, view.at(i, c), exact=exact, rounded=approx)
        if weights_exact:
            rest = [side("=", *with_w), side("=", *prods), *rest]
        math = chain_eq(view.sym("o", f"{i + 1},{c + 1}"), [side("=", *formula), *rest])
        lines.append(Line.of(None, math, at=("col", c)))
        shown.append(nums.plain(stage, view.at(i, c)))
    exact_out = all(_is_exact(nums, stage, view.at(i, c)) for c in cols)
    rel = "=" if exact_out else r"\approx"
    result = Line.of(msg("output_result"), vector_eq(view.sym("o", str(i + 1)), rel, shown))
    intro = msg("output_intro_exact") if weights_exact else msg("output_intro")
    return (intro,), (*lines, result), ()


def _weight(nums: Numbers, idx: tuple[int, ...]) -> Fraction:
    q = nums.tensor("weights").rational(idx)
    assert q is not None
    return q


def _copy_output(view: View, i: int, j: int) -> tuple[Line, ...]:
    """The output of a row that sees one key: exactly that key's value."""
    values = [rational_latex(x) for x in view.V[j]]
    lhs = f"{view.sym('o', str(i + 1))} = {view.sym('v', str(j + 1))}"
    return (Line.of(None, vector_eq(lhs, "=", values)),)


def _zero(view: View, i: int) -> Line:
    return Line.of(None, vector_eq(view.sym("o", str(i + 1)), "=", ["0"] * view.V.shape[1]))
