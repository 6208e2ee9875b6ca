"""Rounded constants as causes: a claim that ``e ≈ 2.718`` or ``√2 ≈ 1.41`` reproduces.

Long claims (12+ significant digits) are matched digit for digit with the author's chain in
double precision (``2.718**0.092 + …``), short ones as a correct rounding of the exact value
the rounded constant gives. The constants come from the one table,
:mod:`symattn.judge.constants`.

A rounded e is a cause only when it is consistent with the author's other numbers: ``e ≈
2.7`` explains ``e^0.5 ≈ 1.64`` but not ``e^1.5 ≈ 4.48`` (2.7^1.5 = 4.44) in the same text, so
there the 1.64 is a truncation. :func:`contradicted` finds the author's number that rules a
constant out: one the exact e explains and the constant does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import flint

from symattn.exact import arb_of
from symattn.judge.chain import Chain
from symattn.judge.constants import APPROX_E, ApproxConstant, approximate_roots
from symattn.judge.formatting import frac_text
from symattn.judge.frames import distinct, key_width
from symattn.judge.graph import E_STEPS, Node
from symattn.judge.quantities import Computed, Const, Quantity, certified_decimals
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


def approximate_root(run: Run, w: Written, chain: Chain, node: Node) -> Approximation | None:
    """A rounded ``√d`` (or ``1/√d``) that reproduces a scaled score at its written precision."""
    if node.step != "scaled_scores":
        return None
    g = chain.graph
    score_node = Node("scores", node.pos)
    sc = g.claim(score_node)
    score = sc.value if sc is not None else g.exact(score_node).rational()
    if score is None or score == 0:
        return None
    score_text = sc.text if sc is not None else frac_text(score)
    c = run.spec.claims
    claimed = c.d_k.value if c.d_k is not None else None
    for d in distinct([run.spec.d_k, key_width(g.res), claimed]):
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


def contradicted(run: Run, chain: Chain, const: ApproxConstant) -> Node | None:
    """The author's number that rules ``const`` out: one the exact e explains (as the exact
    value, or from the author's own numbers) and ``const`` does not; None if there is none."""
    cache: dict[Fraction, Node | None] = chain.cache.setdefault("contradicted", {})
    if const.value in cache:
        return cache[const.value]
    g = chain.graph
    found = None
    for node, w in g.iter_claims():
        if node.step not in E_STEPS or node.step not in ("exp_scores", "exp_sums"):
            continue
        own = chain.point(node)
        right = run.holds(w, g.exact(node)) or (own is not None and run.holds(w, own))
        if not right:
            continue
        with_const = chain.point(node, base=const.value)
        if with_const is None or not run.holds(w, with_const):
            found = node
            break
    cache[const.value] = found
    return found


def approximate_e(
    run: Run, w: Written, chain: Chain, node: Node, *, long: bool
) -> Approximation | None:
    """A rounded e that reproduces ``w``: digit for digit in float64 (``long``, claims of
    12+ significant digits) or as a correct rounding (short claims)."""
    if node.step not in E_STEPS:
        return None
    if long != ((w.significant or 0) >= LONG_CLAIM_DIGITS):
        return None
    for const in APPROX_E:
        if long:
            got = _float_value(chain, node, float(const.value))
            if got is not None and Fraction(repr(got)) == w.value:
                own = chain.point(node)
                return Approximation(
                    f"{const.symbol} ≈ {const.text}",
                    _float_formula(chain, node, const.text) + f" = {repr(got)}",
                    "float64",
                    certified_decimals(own, _OWN_DECIMALS_LONG, run.limits)
                    if own is not None
                    else "?",
                )
        else:
            q = chain.point(node, base=const.value)
            if q is not None and run.holds(w, q):
                mine: Quantity | None = chain.point(node)
                ours: Quantity = mine if mine is not None else chain.graph.exact(node)
                return Approximation(
                    f"{const.symbol} ≈ {const.text}",
                    chain.graph.formula(node, base=const.text),
                    "exact",
                    certified_decimals(ours, (w.decimals or 0) + 3, run.limits),
                )
    return None


def approximate_e_consistent(
    run: Run, w: Written, chain: Chain, node: Node
) -> tuple[Approximation, bool] | None:
    """A short-claim rounded e that reproduces ``w``, and whether it is consistent with the
    author's other numbers (no :func:`contradicted` number)."""
    hit = approximate_e(run, w, chain, node, long=False)
    if hit is None:
        return None
    const = next(c for c in APPROX_E if f"{c.symbol} ≈ {c.text}" == hit.constant)
    return hit, contradicted(run, chain, const) is None


# -- double precision, as an author's program would compute ------------------------------


def _row(node: Node) -> tuple[int, ...]:
    return node.pos if node.step == "exp_sums" else node.pos[:-1]


def _scaled_float(chain: Chain, row: tuple[int, ...], k: int) -> float:
    g = chain.graph
    n = Node("scaled_scores", (*row, k))
    w = g.claim(n)
    if w is not None:
        return float(w.value)
    return float(g.tensor("scaled_scores").to_numpy()[(*row, k)])


def _float_value(chain: Chain, node: Node, c: float) -> float | None:
    """The entry computed in float64 with ``c`` for e, from the author's scaled scores."""
    g = chain.graph
    if node.step not in ("exp_scores", "exp_sums", "weights", g.att):
        return None
    row = _row(node)

    def ex(k: int) -> float:
        if g.masked((*row, k)):
            return 0.0
        e: float = c ** _scaled_float(chain, row, k)
        return e

    try:
        if node.step == "exp_scores":
            return ex(node.pos[-1])
        exps = [ex(k) for k in range(g.n_keys)]
        total = 0.0
        for e in exps:
            total += e
        if node.step == "exp_sums":
            return total
        weights = [e / total for e in exps]
        if node.step == "weights":
            return weights[node.pos[-1]]
        values = g.tensor(g.q_step("V")).to_numpy()
        out = 0.0
        for k, wk in enumerate(weights):
            out += wk * float(values[(*row[:-1], k, node.pos[-1])])
        return out
    except (OverflowError, ZeroDivisionError):
        return None


def _float_formula(chain: Chain, node: Node, c: str) -> str:
    """The float64 computation shown in a finding."""
    g = chain.graph
    row = _row(node)

    def sc(k: int) -> str:
        w = g.claim(Node("scaled_scores", (*row, k)))
        return w.text if w is not None else repr(_scaled_float(chain, row, k))

    if node.step == "exp_scores":
        return f"{c}**{sc(node.pos[-1])}"
    terms = " + ".join(f"{c}**{sc(k)}" for k in range(g.n_keys) if not g.masked((*row, k)))
    if node.step == "exp_sums":
        return terms
    return f"({node.step} from {terms})"
