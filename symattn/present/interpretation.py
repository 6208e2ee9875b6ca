"""What a query row's result means: which key it attends to most, and how that shows."""

from __future__ import annotations

from symattn.engine.result import AttentionResult
from symattn.errors import InputError
from symattn.exact import Surd
from symattn.present.certified import Numbers, SurdStage, certified_sign, rationals, surd_sign
from symattn.present.model import Msg, Seg, math_seg, msg, token_seg
from symattn.present.numbers import row_vector


def _compare(a: Surd, b: Surd) -> int:
    """The sign of ``a - b`` for two scores of one row, exactly."""
    if a.r == b.r or a.q == 0 or b.q == 0:
        return surd_sign(a.p - b.p, a.q - b.q, a.r if a.q else b.r)
    raise InputError("cannot compare scores with different radicals")  # not produced by the engine


def top_keys(scores: dict[int, Surd]) -> list[int]:
    """The keys (in order) whose score is the largest; ``scores`` maps key -> score."""
    active = list(scores)
    top = [active[0]]
    for j in active[1:]:
        c = _compare(scores[j], scores[top[0]])
        if c > 0:
            top = [j]
        elif c == 0:
            top.append(j)
    return top


def interpret(
    result: AttentionResult, i: int, klabels: tuple[str, ...], masked: SurdStage, nums: Numbers
) -> tuple[Msg, ...]:
    """Sentences on row ``i``: the key with the largest weight, and the output against its
    value, component by component (each comparison decided exactly or certified)."""
    scores: dict[int, Surd] = {}
    for j in range(len(klabels)):
        s = masked.surd((i, j))
        if s is not None:
            scores[j] = s
    active = list(scores)
    top = top_keys(scores)
    out: list[Msg] = []
    if len(top) == len(active):
        out.append(msg("interp_uniform", n=math_seg(str(len(active)))))
    else:
        names = tuple(token_seg(klabels[j]) for j in top)
        share = nums.plain("weights", (i, top[0]))
        out.append(msg("interp_top", keys=names, weight=math_seg(share)))
    # the output relative to the value vector of the (first) top token
    v = rationals(result.stage("V"))
    ref = top[0]
    up: list[Seg] = []
    down: list[Seg] = []
    same: list[Seg] = []
    for c in range(v.shape[1]):
        sign = certified_sign(result.output, (i, c), v[ref, c], nums.limits)
        (up if sign > 0 else down if sign < 0 else same).append(math_seg(str(c + 1)))
    if len(top) == len(active):
        return tuple(out)
    key = token_seg(klabels[ref])
    ref_vec = math_seg(f"v_{{{ref + 1}}} = {row_vector(v[ref])}")
    if up:
        out.append(msg("interp_up", key=key, ref=ref_vec, dims=tuple(up)))
    if down:
        out.append(msg("interp_down", key=key, ref=ref_vec, dims=tuple(down)))
    if same:
        out.append(msg("interp_same", key=key, dims=tuple(same)))
    others = tuple(token_seg(klabels[j]) for j in active if j not in top)
    if (up or down) and others:
        out.append(msg("interp_pull", others=others))
    return tuple(out)
