"""What a query row's result means: which key it attends to most, and how that shows."""

from __future__ import annotations

from symattn.errors import PrecisionError
from symattn.exact import Surd
from symattn.present.certified import Numbers, certified_signs
from symattn.present.layout import vector
from symattn.present.model import Msg, Seg, count_seg, math_seg, msg, token_seg
from symattn.present.numbers import rational_latex
from symattn.present.view import View


def top_keys(scores: dict[int, Surd]) -> list[int]:
    """The keys (in order) whose score is the largest; ``scores`` maps key -> score."""
    active = list(scores)
    top = [active[0]]
    for j in active[1:]:
        c = scores[j].compare(scores[top[0]])
        if c > 0:
            top = [j]
        elif c == 0:
            top.append(j)
    return top


def interpret(view: View, i: int, nums: Numbers) -> tuple[Msg, ...]:
    """Sentences on row ``i`` (at least two visible keys): the key with the largest weight,
    and the output against its value, component by component (each comparison decided
    exactly or certified)."""
    scores: dict[int, Surd] = {}
    for j in view.active(i):
        s = view.masked.surd(view.at(i, j))
        if s is not None:
            scores[j] = s
    active = list(scores)
    top = top_keys(scores)
    if len(top) == len(active):
        return (msg("interp_uniform", count=len(active), n=count_seg(len(active))),)
    names = tuple(token_seg(view.klabels[j]) for j in top)
    share = nums.plain("weights", view.at(i, top[0]))
    out: list[Msg] = [msg("interp_top", count=len(top), keys=names, weight=math_seg(share))]
    # the output relative to the value vector of the (first) top token
    v = view.V
    ref = top[0]
    stage = view.output_step.name
    requests = [(view.at(i, c), v[ref, c]) for c in range(v.shape[1])]
    try:
        signs = certified_signs(
            nums.tensor(stage), requests, nums.limits, nums.floats_of(stage, len(requests))
        )
    except PrecisionError:  # closer than the precision limit tells (a mask of -1e9): say nothing
        return tuple(out)
    up: list[Seg] = []
    down: list[Seg] = []
    same: list[Seg] = []
    for c, sign in enumerate(signs):
        (up if sign > 0 else down if sign < 0 else same).append(count_seg(c + 1))
    key = token_seg(view.klabels[ref])
    ref_vec = math_seg(
        f"{view.sym('v', str(ref + 1))} = {vector([rational_latex(x) for x in v[ref]])}"
    )
    if up:
        out.append(msg("interp_up", count=len(up), key=key, ref=ref_vec, dims=tuple(up)))
    if down:
        out.append(msg("interp_down", count=len(down), key=key, ref=ref_vec, dims=tuple(down)))
    if same:
        out.append(msg("interp_same", count=len(same), key=key, dims=tuple(same)))
    others = tuple(token_seg(view.klabels[j]) for j in active if j not in top)
    if (up or down) and others:
        out.append(msg("interp_pull", count=len(others), others=others))
    return tuple(out)
