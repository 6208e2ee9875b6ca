"""One claim: its verdict and, when it is not a correct rounding, the most specific cause.

The causes are tried in this order (the first that reproduces the claim names it):

1. ``float-representation`` (info): the claim is how a float64/float32 of the value prints;
2. ``approximate-constant``: a rounded constant (``e ≈ 2.718``) reproduces a long claim digit
   for digit in double precision (``2.718**0.092 + ...``);
3. ``propagated-rounding`` (exact): the author's own earlier numbers, taken as written,
   reproduce the claim (``12.18 + 2.71 = 14.89``);
4. ``truncated``: the claim is the truncation of the exact value;
5. ``approximate-constant`` for a scaled score that a rounded ``√d`` gives;
6. ``wrong-value`` with a named slip (transposed or dropped digit, wrong sign, swapped operand,
   a misread input);
7. ``propagated-rounding`` (interval): the claim fits once each earlier claim stands for the
   interval of values that round to it, carried forward with Arb balls ("unrounding");
8. ``approximate-constant`` for a short claim that a rounded e rounds to;
9. ``wrong-value``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import flint

from symattn.engine import AttentionResult
from symattn.exact import ExactTensor
from symattn.judge.approximations import Approximation, approximate_e, approximate_root
from symattn.judge.chain import ChainLink
from symattn.judge.findings import SpecLocation
from symattn.judge.intervals import UNROUNDING_BITS, fits
from symattn.judge.messages import Cause, FindingKey
from symattn.judge.misreads import find_misread
from symattn.judge.quantities import TensorEntry
from symattn.judge.run import Run
from symattn.judge.slips import find_slip
from symattn.numbers import Written

#: verdicts recorded as they are (info), with their catalog key
_AS_IS: Mapping[str, FindingKey] = MappingProxyType(
    {"float-representation": "float-representation", "undecided": "undecided"}
)


@dataclass(frozen=True)
class Site:
    """A claim, where it is shown, and the exact entry it is judged against."""

    step: str
    position: tuple[str, ...]
    claim: Written
    tensor: ExactTensor
    index: tuple[int, ...]
    result: AttentionResult
    link: ChainLink | None = None  # its place in the author's chain (row claims only)

    @property
    def value(self) -> TensorEntry:
        """The exact entry."""
        return TensorEntry(self.tensor, self.index)


def diagnose(run: Run, site: Site) -> None:
    """Judge the claim at ``site``; record a finding with the most specific cause, if any."""
    w = site.claim
    v = run.judge(w, site.value)
    if v.code is None:
        return
    q = site.value.rational()
    inexact = not (q is not None and v.exact not in ("?", "") and Fraction(v.exact) == q)
    where = SpecLocation(site.step, site.position)

    def add(
        code: str,
        key: FindingKey,
        params: Mapping[str, object],
        cause: Cause | None = None,
    ) -> None:
        run.add(code, key, where, w.text, v.exact, v.expected, params, cause=cause, inexact=inexact)

    as_is = _AS_IS.get(v.code)
    if as_is is not None:
        add(v.code, as_is, dict(v.details))
        return
    base = {"distance": v.details.get("distance", "?")}

    def approximate(hit: Approximation) -> None:
        add("approximate-constant", "approximate-constant", {**base, **hit.params()})

    link = site.link
    if link is not None:
        chain, fieldname, j = link.chain, link.field, link.column
        hit = approximate_e(run, w, chain, fieldname, j, long=True)
        if hit is not None:
            approximate(hit)
            return
        own = chain.point(fieldname, j)
        if own is not None and run.holds(w, own):
            formula = chain.formula(fieldname, j)
            add("propagated-rounding", "propagated-exact", {**base, "formula": formula})
            return
    if v.code == "truncated":
        add("truncated", "truncated", base)
        return
    if link is not None and link.field == "scaled":
        hit = approximate_root(run, w, link.chain, link.column)
        if hit is not None:
            approximate(hit)
            return
    slip = find_slip(run, w, v, site.tensor, site.index)
    if slip is None:
        slip = find_misread(run, w, site.step, site.index, site.result)
    if slip is not None:
        params = {**base, "slip": slip.shown}
        add("wrong-value", "wrong-value-slip", params, cause=slip.cause)
        return
    if link is not None:
        chain, fieldname, j = link.chain, link.field, link.column
        ball_fn = chain.derive(fieldname, j, point=False)
        if ball_fn is not None:
            with flint.ctx.workprec(UNROUNDING_BITS):
                ball = ball_fn()
            if fits(w, ball):
                formula = chain.formula(fieldname, j)
                add("propagated-rounding", "propagated-interval", {**base, "formula": formula})
                return
        hit = approximate_e(run, w, chain, fieldname, j, long=False)
        if hit is not None:
            approximate(hit)
            return
    add("wrong-value", "wrong-value", base)
