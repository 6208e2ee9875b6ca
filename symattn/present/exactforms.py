"""Exact symbolic forms of one query row (``--exact``), built in token order.

``e^{s}`` with the exact exponent, the sum ``Z`` as its terms, each weight as
``e^{s_j} / (e^{s_1} + ...)`` and each output component as one fraction: every term in the
order of the keys, never in a computer-algebra system's order.
"""

from __future__ import annotations

from symattn.present.numbers import paren, rational_latex, surd_latex
from symattn.present.view import View


def exponent(view: View, i: int, j: int) -> str:
    """The exact exponent of ``e`` for key ``j`` (the masked, scaled score)."""
    s = view.masked.surd(view.at(i, j))
    if s is None:
        return r"-\infty"
    return surd_latex(s)


def e_to(ex: str) -> str:
    """``e^{ex}``; ``\\exp(ex)`` when the exponent holds a fraction (a fraction in a
    superscript is set too small to read in print); ``1`` for ``e^{0}``."""
    if ex == "0":
        return "1"
    return f"\\exp\\left({ex}\\right)" if "\\frac" in ex else f"e^{{{ex}}}"


def power(view: View, i: int, j: int) -> str:
    """``e^{s}`` exactly (``1`` for ``e^{0}``)."""
    return e_to(exponent(view, i, j))


def z_terms(view: View, i: int) -> list[str]:
    """The terms of the softmax denominator of row ``i``, in key order."""
    return [power(view, i, j) for j in view.active(i)]


def weight(view: View, i: int, j: int) -> str:
    """The weight of key ``j`` as one exact fraction."""
    return f"\\frac{{{power(view, i, j)}}}{{{' + '.join(z_terms(view, i))}}}"


def output(view: View, i: int, c: int) -> str:
    """Output component ``c`` of row ``i`` as one exact fraction."""
    terms = []
    for j in view.active(i):
        v = view.V[j, c]
        if v == 0:
            continue
        p = power(view, i, j)
        if v == 1:
            terms.append(p)
        elif p == "1":
            terms.append(paren(rational_latex(v)))
        else:
            terms.append(f"{paren(rational_latex(v))} {p}")
    numerator = " + ".join(terms) or "0"
    return f"\\frac{{{numerator}}}{{{' + '.join(z_terms(view, i))}}}"
