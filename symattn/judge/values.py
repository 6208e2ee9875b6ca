"""The values of the graph's nodes under a :class:`Policy`: certified, never floats.

- ``point``: the author's numbers as written (the author's chain): ``12.18 + 2.71`` is
  exactly ``14.89``. Values are exact rationals where they can be, Arb balls otherwise.
- ``interval``: each of the author's numbers stands for the interval of values that round to
  it — "unrounding" — except a number that is exactly what its own inputs give (an integer
  score, ``2/2 = 1.0``), which stays a point. Softmax is bounded by monotonicity: ``w_j`` is
  increasing in ``e_j`` and decreasing in every other ``e_k``, so its range over a box of
  exps is ``[lo_j / (lo_j + Σ hi_k), hi_j / (hi_j + Σ lo_k)]``, not ball arithmetic that
  counts ``e_j`` twice.
- ``none`` with an :class:`~symattn.judge.programs.Arithmetic`: what a program computing in
  that format can produce from the inputs (every operation widened by its rounding error,
  see :mod:`symattn.judge.programs`); with ``boxes``, from any inputs inside the roundings
  the spec lists in ``rounded_inputs``. The enclosure is rigorous, so a claim outside it is
  no printout of that program.

Every value is a ``Fraction`` (exact) or a ``flint.arb`` ball; a caller sets the working
precision (``flint.ctx.workprec``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias

import flint

from symattn.errors import PrecisionError
from symattn.exact import arb_of, arb_to_fraction
from symattn.judge.graph import E_STEPS, Graph, Node
from symattn.judge.intervals import rounding_interval
from symattn.judge.programs import Arithmetic

Val: TypeAlias = Fraction | flint.arb

#: values below ``2**-TINY_BITS`` are bounded by it (far below any written claim's unit)
TINY_BITS = 4096
_TINY = Fraction(1, 2**TINY_BITS)
_TINY_ARB = flint.arb(2) ** -TINY_BITS
#: a ball reaching beyond ``2**HUGE_BITS`` is not written out exactly (its ends would take
#: that many bits); the claims it feeds are not checked
HUGE_BITS = 1 << 16
_HUGE_ARB = flint.arb(2) ** HUGE_BITS

#: spec input names -> trace steps (the scaled scores are the step ``scaled_scores``)
INPUT_STEPS = {"scaled": "scaled_scores"}
#: steps whose values are never negative (an interval of a claim is cut at 0)
_NONNEGATIVE = frozenset({"exp_scores", "exp_sums", "weights"})
#: extra roundings in the scaling: the scale's own rounding and the multiply or divide, or
#: torch's ``sqrt(scale)`` applied to both Q and K (two constants, two multiplies)
_SCALING_OPS = 4


@dataclass(frozen=True)
class Policy:
    """How the leaves are taken and how the arithmetic rounds."""

    claims: Literal["none", "point", "interval"] = "none"
    arithmetic: Arithmetic | None = None
    boxes: bool = False
    base: Fraction | None = None  # a rounded e the author computed with


POINT = Policy("point")
INTERVAL = Policy("interval")
EXACT = Policy()


def to_arb(x: Val) -> flint.arb:
    """A value as an Arb ball."""
    return arb_of(x) if isinstance(x, Fraction) else x


def _ends(x: flint.arb) -> tuple[Fraction, Fraction]:
    """Exact ends of a ball (its midpoint and radius are exact dyadics), outward: a midpoint
    or radius below ``2**-TINY_BITS`` counts as that bound (never written out bit by bit, so
    ``exp(-7e16)`` costs nothing); a ball beyond ``2**HUGE_BITS`` raises
    :class:`PrecisionError`."""
    if not x.is_finite():
        raise PrecisionError(f"the enclosure {x} is not finite")
    if x.abs_upper() < _TINY_ARB:
        return -_TINY, _TINY
    if x.abs_upper() > _HUGE_ARB:
        raise PrecisionError(f"the enclosure {x} is beyond 2**{HUGE_BITS}")
    m, r = _outward(x.mid()), _outward(flint.arb(x.rad()))
    return m[0] - m[1] - r[0] - r[1], m[0] + m[1] + r[0] + r[1]


def _outward(a: flint.arb) -> tuple[Fraction, Fraction]:
    """An exact dyadic ``a`` as ``(value, slack)``: below ``2**-TINY_BITS`` it is 0 with that
    bound as its slack."""
    if a != 0 and abs(a) < _TINY_ARB:
        return Fraction(0), _TINY
    return arb_to_fraction(a), Fraction(0)


def between(lo: Val, hi: Val) -> Val:
    """The ball ``[lower(lo), upper(hi)]``."""
    a = lo if isinstance(lo, Fraction) else _ends(lo)[0]
    b = hi if isinstance(hi, Fraction) else _ends(hi)[1]
    if a == b:
        return a
    a, b = min(a, b), max(a, b)
    return arb_of((a + b) / 2, (b - a) / 2)


def lower(x: Val) -> Fraction:
    """The lower end of a value, exactly."""
    return x if isinstance(x, Fraction) else _ends(x)[0]


def upper(x: Val) -> Fraction:
    """The upper end of a value, exactly."""
    return x if isinstance(x, Fraction) else _ends(x)[1]


def magnitude(x: Val) -> Fraction:
    """An upper bound of ``|x|``."""
    if isinstance(x, Fraction):
        return abs(x)
    lo, hi = _ends(x)
    return max(abs(lo), abs(hi))


def plus_minus(x: Val, r: Fraction) -> Val:
    """``x`` widened by ``r`` on both sides."""
    return x if r == 0 else to_arb(x) + arb_of(0, r)


def _mul(a: Val, b: Val) -> Val:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    return to_arb(a) * to_arb(b)


def _add(a: Val, b: Val) -> Val:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a + b
    return to_arb(a) + to_arb(b)


def _div(a: Val, b: Val) -> Val:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a / b
    return to_arb(a) / to_arb(b)


def total(xs: Sequence[Val]) -> Val:
    """The exact sum."""
    out: Val = Fraction(0)
    for x in xs:
        out = _add(out, x)
    return out


def ratio_bounds(exps: Sequence[Val], j: int) -> Val:
    """``e_j / Σ e_k`` over independent intervals of the ``e_k`` (all >= 0), by
    monotonicity: the lowest ``e_j`` with the highest others, and the reverse."""
    if all(isinstance(e, Fraction) for e in exps):
        s = total(exps)
        return Fraction(0) if s == 0 else _div(exps[j], s)
    lo_j, hi_j = max(lower(exps[j]), Fraction(0)), upper(exps[j])
    lo_rest = sum((max(lower(e), Fraction(0)) for k, e in enumerate(exps) if k != j), Fraction(0))
    hi_rest = sum((upper(e) for k, e in enumerate(exps) if k != j), Fraction(0))
    low = Fraction(0) if lo_j == 0 else lo_j / (lo_j + hi_rest)
    high = Fraction(1) if hi_j + lo_rest == 0 else hi_j / (hi_j + lo_rest)
    return between(low, high)


class Values:
    """The values of a graph's nodes under one policy, at the current working precision."""

    def __init__(
        self, graph: Graph, policy: Policy, exact_claim: Callable[[Node], bool] | None = None
    ) -> None:
        self.g = graph
        self.p = policy
        self.a = policy.arithmetic
        self.exact_claim = exact_claim
        self.memo: dict[Node, Val] = {}
        self.derived: dict[Node, Val] = {}

    def __call__(self, node: Node) -> Val:
        got = self.memo.get(node)
        if got is None:
            got = self._leaf(node)
            if got is None:
                got = self._compute(node)
            self.memo[node] = got
        return got

    def derive(self, node: Node) -> Val:
        """``node`` computed from its parents' values (its own claim, if any, not used)."""
        got = self.derived.get(node)
        if got is None:
            got = self._compute(node)
            self.derived[node] = got
        return got

    def uses_claim(self, node: Node) -> bool:
        """Whether the author's number at ``node`` is a leaf under this policy."""
        if self.p.claims == "none" or node not in self.g.claims:
            return False
        return not (self.p.base is not None and node.step in E_STEPS)

    # -- leaves ------------------------------------------------------------------------

    def _leaf(self, node: Node) -> Val | None:
        if self.uses_claim(node):
            w = self.g.claims[node]
            if self.p.claims == "point" or (self.exact_claim and self.exact_claim(node)):
                return w.value
            lo, hi = rounding_interval(w)
            if node.step in _NONNEGATIVE:
                lo = max(lo, Fraction(0))
            return between(lo, hi)
        if not self.g.is_input(node.step):
            return None
        q = self.g.tensor(node.step).rational(node.pos)
        x: Val = Fraction(0) if q is None else q
        if self.p.boxes:
            name = next((k for k, v in INPUT_STEPS.items() if v == node.step), node.step)
            units = self.g.spec.half_units.get(name)
            if units is not None:
                x = plus_minus(x, Fraction(units[node.pos]))
        if self.a is not None:  # read from decimal text, perhaps through float64 first
            x = plus_minus(x, 2 * self.a.u * magnitude(x) + self.a.eta)
        return x

    # -- operations --------------------------------------------------------------------

    def _dot(self, a: Sequence[Val], b: Sequence[Val], extra: int = 0) -> Val:
        s = total([_mul(x, y) for x, y in zip(a, b, strict=True)])
        if self.a is None:
            return s
        n = len(a)
        bound = sum((magnitude(x) * magnitude(y) for x, y in zip(a, b, strict=True)), Fraction(0))
        return plus_minus(s, self.a.gamma(n + extra) * bound + 2 * n * self.a.eta)

    def _scaled(self, idx: tuple[int, ...]) -> Val:
        scale = self.g.scale
        if self.a is not None and not self.g.is_input("scores"):
            # the scores again, with the roundings of the scaling inside the dot product
            ps = self.g.parents(Node("scores", idx))
            half = len(ps) // 2
            s = self._dot([self(p) for p in ps[:half]], [self(p) for p in ps[half:]], _SCALING_OPS)
        else:
            s = self(Node("scores", idx))
        x: Val = (
            s * scale.p
            if scale.is_rational and isinstance(s, Fraction)
            else to_arb(s) * scale.arb()
        )
        if self.a is not None:
            x = plus_minus(x, self.a.gamma(2) * magnitude(x) + 2 * self.a.eta)
        return x

    def logit(self, idx: tuple[int, ...]) -> Val:
        """The exponent of ``e``: the scaled score plus the additive mask."""
        x = self(Node("scaled_scores", idx))
        add = self.g.mask_add(idx)
        if add:
            x = _add(x, add)
            if self.a is not None:
                x = plus_minus(x, self.a.u * magnitude(x) + self.a.eta)
        return x

    def _exp(self, x: Val) -> Val:
        if isinstance(x, Fraction) and x == 0:
            e: Val = Fraction(1)
        elif self.p.base is not None:
            e = (to_arb(x) * arb_of(self.p.base).log()).exp()
        else:
            e = to_arb(x).exp()
        if self.a is not None:
            e = plus_minus(e, 2 * self.a.u * magnitude(e) + 2 * self.a.eta)
        return e

    def _compute(self, node: Node) -> Val:
        step, idx = node
        g = self.g
        if step == "scaled_scores":
            return self._scaled(idx)
        if step == "exp_scores":
            return Fraction(0) if g.masked(idx) else self._exp(self.logit(idx))
        if step == "exp_sums":
            terms = [self(Node("exp_scores", (*idx, j))) for j in range(g.n_keys)]
            s = total(terms)
            if self.a is None:
                return s
            bound = sum((magnitude(t) for t in terms), Fraction(0))
            n = len(terms)
            return plus_minus(s, self.a.gamma(max(n - 1, 1)) * bound + n * self.a.eta)
        if step == "weights":
            return self._weight(idx)
        ps = g.parents(node)
        if step in ("Q_heads", "K_heads", "V_heads") or step == g.cat:
            return self(ps[0])
        half = len(ps) // 2
        return self._dot([self(p) for p in ps[:half]], [self(p) for p in ps[half:]])

    def _weight(self, idx: tuple[int, ...]) -> Val:
        g = self.g
        *p, i, j = idx
        row = (*p, i)
        if g.masked(idx):
            return Fraction(0)
        if self.a is not None:
            return self._program_weight(row, j)
        s_node = Node("exp_sums", row)
        e_j = self(Node("exp_scores", idx))
        if self.uses_claim(s_node):
            s = self(s_node)
            if isinstance(s, Fraction) and s == 0:
                return Fraction(0)
            if not isinstance(s, Fraction) and lower(s) <= 0:
                return between(Fraction(0), Fraction(10) ** 9)
            return _div(e_j, s)
        exps = [self(Node("exp_scores", (*row, k))) for k in range(g.n_keys)]
        return ratio_bounds(exps, j)

    def _program_weight(self, row: tuple[int, ...], j: int) -> Val:
        """A float program's softmax weight ``fl(e_j / fl(Σ e_k))``, for both ways programs
        compute it: ``e_k = fl(exp(x_k))`` and ``e_k = fl(exp(fl(x_k - max)))``. Each ``e_k``
        lies in ``[exp(lo)(1-2u) - 2η, exp(hi)(1+2u) + 2η]`` (faithful exp, subnormals
        included); the sum within ``(1±γ_(n-1))`` and ``±nη``; ``w_j`` is increasing in
        ``e_j`` and decreasing in the others. Ends are exact Arb numbers (a ``-1e9`` mask
        stays harmless); the result is the hull of both ways."""
        a = self.a
        assert a is not None
        keys = [k for k in range(self.g.n_keys) if not self.g.masked((*row, k))]
        xs = {k: to_arb(self.logit((*row, k))) for k in keys}
        u, eta = arb_of(a.u), arb_of(a.eta)
        n = len(keys)
        gam = arb_of(a.gamma(max(n - 1, 1)))
        top_lo = max(x.lower() for x in xs.values())  # exact Arb numbers: compared exactly
        top_hi = max(x.upper() for x in xs.values())

        def naive(k: int) -> tuple[flint.arb, flint.arb]:
            return xs[k].lower(), xs[k].upper()

        def shifted(k: int) -> tuple[flint.arb, flint.arb]:
            lo = (xs[k].lower() - top_hi) * (1 + u)  # x - max <= 0, then rounded
            hi = (xs[k].upper() - top_lo).min(flint.arb(0)) * (1 - u)
            return lo.lower(), hi.upper()

        lows: list[flint.arb] = []
        highs: list[flint.arb] = []
        for way in (naive, shifted):
            e_lo: dict[int, flint.arb] = {}
            e_hi: dict[int, flint.arb] = {}
            for k in keys:
                lo, hi = way(k)
                e_lo[k] = (lo.exp() * (1 - 2 * u) - 2 * eta).max(flint.arb(0)).lower()
                e_hi[k] = (hi.exp() * (1 + 2 * u) + 2 * eta).upper()
            rest_lo = sum((e_lo[k] for k in keys if k != j), flint.arb(0))
            rest_hi = sum((e_hi[k] for k in keys if k != j), flint.arb(0))
            den_hi = ((e_lo[j] + rest_hi) * (1 + gam) + n * eta).upper()
            den_lo = ((e_hi[j] + rest_lo) * (1 - gam) - n * eta).lower()
            lows.append((e_lo[j] * (1 - u) / den_hi - eta).lower())
            highs.append(
                flint.arb(1) if not den_lo > 0 else (e_hi[j] * (1 + u) / den_lo + eta).upper()
            )
        w_lo = lows[0].min(lows[1])
        w_hi = highs[0].max(highs[1]).min(flint.arb(1) + 2 * u)
        if not (w_hi.is_finite() and w_lo.is_finite()):
            return between(Fraction(0), Fraction(1))
        return between(lower(w_lo), upper(w_hi))
