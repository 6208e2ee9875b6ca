"""The scale of a worked example (which ``d_k``, or which given scale, and why) and its mask.

Every case says where the scale comes from: a ``d_k`` the example states, the width of the
keys (the paper's default), or a scale the example gives itself (then the document says so,
and that it states no ``d_k``).
"""

from __future__ import annotations

from fractions import Fraction

from symattn.present.certified import Numbers
from symattn.present.keys import MASKS, lookup
from symattn.present.layout import chain, side
from symattn.present.model import DocMeta, Msg, math_seg, msg
from symattn.present.numbers import rational_latex, short_surd_latex, surd_latex
from symattn.present.view import View


def _scale_latex(view: View) -> str:
    scale = view.result.scale
    return short_surd_latex(scale) or surd_latex(scale)


def scaling(view: View, meta: DocMeta, nums: Numbers) -> tuple[tuple[Msg, ...], str]:
    """The sentences on the scale and its display (``\\sqrt{d_k} = \\sqrt{2} \\approx 1.4142``,
    or ``c = ...``; ``""`` when the example gives the scaled scores)."""
    result = view.result
    stated = meta.d_k_stated
    if view.starts_scaled:
        out = [msg("scaled_given")]
        if stated is not None:
            out.append(msg("scaled_given_dk", dk=math_seg(f"d_k = {stated}")))
        return tuple(out), ""
    step = result.trace.find("sqrt_d_k")
    if step is None:  # a scale that is not 1/sqrt(d)
        c = math_seg(f"c = {_scale_latex(view)}")
        if stated is not None:
            return (msg("scale_overrides", dk=math_seg(f"d_k = {stated}"), scale=c),), ""
        return (msg("scale_given_plain", scale=c),), ""
    d: Fraction = step.attrs["d_k"]
    width = step.attrs.get("width")
    dtext = rational_latex(d)
    dk = math_seg(f"d_k = {dtext}")
    msgs: list[Msg] = []
    if stated is not None and Fraction(stated) == d:
        if width is None:
            msgs.append(msg("dk_stated_only", dk=dk))
        else:
            msgs.append(msg("dk_stated", dk=dk, width=math_seg(str(width))))
    elif step.attrs.get("default"):
        msgs.append(msg("dk_width", dk=dk))
    elif stated is not None:
        c = math_seg(f"c = {_scale_latex(view)}")
        msgs.append(msg("scale_overrides", dk=math_seg(f"d_k = {stated}"), scale=c))
    else:
        c = math_seg(f"c = {_scale_latex(view)} = \\frac{{1}}{{\\sqrt{{{dtext}}}}}")
        msgs.append(msg("scale_given_dk", scale=c, d=dk))
    if width is not None and d != width and stated is not None and Fraction(stated) == d:
        msgs.append(msg("dk_differs", dk=dk, width=math_seg(str(width))))
    root = step.value.surd(())
    short = short_surd_latex(root) if root is not None else None
    exact = [side("=", short)] if short is not None and short != f"\\sqrt{{{dtext}}}" else []
    sides = nums.sides("sqrt_d_k", (), exact=exact)
    return tuple(msgs), chain(f"\\sqrt{{d_k}} = \\sqrt{{{dtext}}}", sides)


def mask_intro(view: View) -> tuple[Msg, ...]:
    """The sentence on the mask, when there is one."""
    step = view.result.trace.find("masked_scores")
    if step is None:
        return ()
    return (msg(lookup(MASKS, str(step.attrs.get("kind")), "mask kind")),)
