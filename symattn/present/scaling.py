"""The scale of a worked example (which ``d_k``, and why) and the mask it applies."""

from __future__ import annotations

from fractions import Fraction

from symattn.engine.result import AttentionResult
from symattn.present.certified import Numbers, surds
from symattn.present.keys import MASKS, lookup
from symattn.present.model import DocMeta, Msg, math_seg, msg
from symattn.present.numbers import rational_latex, short_surd_latex


def scaling(result: AttentionResult, meta: DocMeta, nums: Numbers) -> tuple[tuple[Msg, ...], str]:
    """The sentences on the scale and the display ``\\sqrt{d_k} = ...`` (``""`` for a given
    scale that is not ``1/\\sqrt{d_k}``)."""
    d = result.d_k
    width = result.key_width
    if d is None:
        scale = result.scale
        import sympy  # lazy: only an irrational scale without a short form needs it

        short = short_surd_latex(scale) or sympy.latex(scale.sympy())
        return (msg("scale_given", scale=math_seg(f"c = {short}")),), ""
    root_step = result.trace.get("sqrt_d_k")
    root = surds(root_step.value).surd(())
    sqrt = nums.value("sqrt_d_k", (), short_surd_latex(root) if root is not None else None)
    dtext = rational_latex(d)
    dk = math_seg(f"d_k = {dtext}")
    msgs = []
    if meta.d_k_stated is not None and Fraction(meta.d_k_stated) == d:
        msgs.append(msg("dk_stated", dk=dk, width=math_seg(str(width))))
    elif root_step.attrs.get("default"):
        msgs.append(msg("dk_width", dk=dk))
    else:
        msgs.append(msg("dk_scale", dk=dk, width=math_seg(str(width))))
    if d != width:
        msgs.append(msg("dk_differs", dk=dk, width=math_seg(str(width))))
    head = f"\\sqrt{{d_k}} = \\sqrt{{{dtext}}}"
    if sqrt.startswith(f"= \\sqrt{{{dtext}}} "):
        sqrt = sqrt[len(f"= \\sqrt{{{dtext}}} ") :]
    return tuple(msgs), f"{head} {sqrt}"


def mask_intro(result: AttentionResult) -> tuple[Msg, ...]:
    """The sentence on the mask, when there is one."""
    step = result.trace.find("masked_scores")
    if step is None:
        return ()
    return (msg(lookup(MASKS, str(step.attrs.get("kind")), "mask kind")),)
