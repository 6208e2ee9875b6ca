"""Rounded constants as causes: a claim that ``e ≈ 2.718`` or ``√2 ≈ 1.41`` reproduces.

Long claims (12+ significant digits) are matched digit for digit with the author's chain in
double precision (``2.718**0.092 + …``), short ones as a correct rounding of the exact value
the rounded constant gives. The constants come from the one table,
:mod:`symattn.judge.constants`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import flint

from symattn.exact import arb_of
from symattn.judge.chain import E_FIELDS, Chain
from symattn.judge.constants import APPROX_E, approximate_roots
from symattn.judge.formatting import frac_text
from symattn.judge.frames import distinct
from symattn.judge.quantities import Computed, Const, certified_decimals
from symattn.judge.run import Run
from symattn.numbers import Written

#: claims with at least this many significant digits are matched digit for digit in float64
LONG_CLAIM_DIGITS = 12
#: decimals of the author's own (exact-e) value shown next to a float64 match
_OWN_DECIMALS_LONG = 6


@dataclass(frozen=True)
class Approximation:
    """A rounded constant that reproduces a claim, and how."""

    constant: str  # "e ≈ 2.718"
    computation: str  # the author's computation with it
    precision: str  # "float64" (digit for digit) or "exact" (a correct rounding)
    own: str  # the value of the author's own numbers with the exact constant

    def params(self) -> Mapping[str, object]:
        """The message parameters."""
        return {
            "constant": self.constant,
            "computation": self.computation,
            "precision": self.precision,
            "own": self.own,
        }


def _over_root(score: Fraction, d: int) -> Computed:
    """``score / √d`` as a quantity."""
    return Computed(lambda: arb_of(score) / flint.arb(d).sqrt())


def approximate_root(run: Run, w: Written, chain: Chain, j: int | None) -> Approximation | None:
    """A rounded ``√d`` (or ``1/√d``) that reproduces a scaled score at its written precision."""
    if j is None:
        return None
    sc = chain.claim("scores", j)
    score = sc.value if sc is not None else chain.res.scores.rational((chain.i, j))
    if score is None or score == 0:
        return None
    score_text = sc.text if sc is not None else frac_text(score)
    c = run.spec.claims
    claimed = c.d_k.value if c.d_k is not None else None
    for d in distinct([run.spec.d_k, chain.res.key_width, claimed]):
        if d <= 0 or Fraction(d).denominator != 1:
            continue
        for const in approximate_roots(int(d)):
            got = score / const.value if const.divide else score * const.value
            if run.holds(w, Const(got)):
                op = "/" if const.divide else "×"
                exact = _over_root(score, int(d))
                return Approximation(
                    f"{const.symbol} ≈ {const.text}",
                    f"{score_text} {op} {const.text} = {frac_text(got)}",
                    "exact",
                    certified_decimals(exact, (w.decimals or 0) + 3, run.limits),
                )
    return None


def approximate_e(
    run: Run, w: Written, chain: Chain, fieldname: str, j: int | None, *, long: bool
) -> Approximation | None:
    """A rounded e that reproduces ``w``: digit for digit in float64 (``long``, claims of
    12+ significant digits) or as a correct rounding (short claims)."""
    if fieldname not in E_FIELDS:
        return None
    if long != ((w.significant or 0) >= LONG_CLAIM_DIGITS):
        return None
    for const in APPROX_E:
        if long:
            got = chain.float_value(fieldname, j, float(const.value))
            if got is not None and Fraction(repr(got)) == w.value:
                own = chain.point(fieldname, j)
                return Approximation(
                    f"{const.symbol} ≈ {const.text}",
                    chain.float_formula(fieldname, j, const.text) + f" = {repr(got)}",
                    "float64",
                    certified_decimals(own, _OWN_DECIMALS_LONG, run.limits)
                    if own is not None
                    else "?",
                )
        else:
            q = chain.point(fieldname, j, base=const.value)
            if q is not None and run.holds(w, q):
                own = chain.point(fieldname, j)
                return Approximation(
                    f"{const.symbol} ≈ {const.text}",
                    chain.formula(fieldname, j, base=const.text),
                    "exact",
                    certified_decimals(own, (w.decimals or 0) + 3, run.limits)
                    if own is not None
                    else "?",
                )
    return None
