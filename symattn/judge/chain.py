"""The author's chain: one query row recomputed from the author's own earlier numbers.

A claim that is wrong for the exact value may be right for the numbers the author wrote
before it (``12.18 + 2.71 = 14.89``). :class:`Chain` computes each entry of a row from the
previous step, using the author's claim where they wrote one and the frame's exact value where
they did not: as the claim's exact value (``point``), as the interval of values that round to
it (:func:`~symattn.judge.intervals.interval_ball`), with a rounded constant for ``e``
(``base``), or in double precision as the author's program would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import flint

from symattn.engine import AttentionResult
from symattn.exact import Evaluator, Surd, arb_of
from symattn.judge.intervals import interval_ball, point_ball
from symattn.judge.quantities import Computed
from symattn.numbers import Written
from symattn.spec import RowClaims, Spec
from symattn.stages import BY_CLAIM, ROW_STAGES

#: the row fields computed with e (exp and what follows it): a rounded ``base`` changes them
E_FIELDS: tuple[str, ...] = tuple(s.claim for s in ROW_STAGES[ROW_STAGES.index(BY_CLAIM["exp"]) :])


def _col(j: int | None) -> int:
    """The key column of a per-key entry (only the sum has none)."""
    if j is None:
        raise KeyError("a per-key entry needs its column")
    return j


class Chain:
    """One query row's computation from the author's own earlier numbers.

    ``derive(field, j, point=...)`` returns a function computing the entry (inside a flint
    working-precision context) from the previous step: the author's claim where they wrote
    one — as its exact value (``point``) or as the interval of values that round to it —
    and the exact value of the frame where they did not.
    """

    def __init__(self, spec: Spec, row: str, i: int, res: AttentionResult, scale: Surd) -> None:
        self.spec = spec
        self.rc: RowClaims = spec.claims.rows[row]
        self.i = i
        self.res = res
        self.scale = scale
        self.n: int = res.weights.shape[-1]
        self.masked = [res.masked_scores.is_neg_inf((i, j)) for j in range(self.n)]
        self.v_claims = self._v_claims()

    def _v_claims(self) -> list[tuple[Written | None, ...] | None]:
        labels = self.res.key_labels or ()
        out: list[tuple[Written | None, ...] | None] = []
        for k in range(self.n):
            tc = self.spec.claims.tokens.get(labels[k]) if k < len(labels) else None
            out.append(tc.v if tc is not None else None)
        return out

    def _v_claim(self, k: int, c: int | None) -> Written | None:
        """The author's claim for ``V[k, c]``, if any."""
        claims = self.v_claims[k]
        if claims is None or c is None or c >= len(claims):
            return None
        return claims[c]

    def _exact(self, step: str, idx: tuple[int, ...]) -> flint.arb:
        ball: flint.arb = Evaluator(flint.ctx.prec).arb(self.res.stage(step))[idx]
        return ball

    def claim(self, fieldname: str, j: int | None) -> Written | None:
        """The author's claim for the entry, if any."""
        val: Written | tuple[Written | None, ...] | None = getattr(self.rc, fieldname)
        if not isinstance(val, tuple):
            return val
        return val[j] if j is not None and j < len(val) else None

    def _own(self, fieldname: str, j: int | None, base: Fraction | None) -> Written | None:
        """The claim the chain takes as written (with a rounded ``base``, only before exp)."""
        if base is not None and fieldname in E_FIELDS:
            return None
        return self.claim(fieldname, j)

    # -- exact arithmetic on balls -------------------------------------------------------

    def value(self, fieldname: str, j: int | None, point: bool, base: Fraction | None) -> flint.arb:
        """The author's value of an earlier entry: claim (point or interval) or derived."""
        w = self._own(fieldname, j, base)
        if w is not None:
            return point_ball(w) if point else interval_ball(w)
        return self.compute(fieldname, j, point, base)

    def compute(
        self, fieldname: str, j: int | None, point: bool, base: Fraction | None
    ) -> flint.arb:
        """The entry computed from the previous step's author values."""
        i = self.i
        if fieldname == "scores":
            return self._exact("scores", (i, _col(j)))
        if fieldname == "scaled":
            scaled: flint.arb = self.value("scores", j, point, base) * self.scale.arb()
            return scaled
        if fieldname == "exp":
            if self.masked[_col(j)]:
                return flint.arb(0)
            x = self.value("scaled", j, point, base)
            e: flint.arb = x.exp() if base is None else (x * arb_of(base).log()).exp()
            return e
        if fieldname == "sum":
            total = flint.arb(0)
            for k in range(self.n):
                total += self.value("exp", k, point, base)
            return total
        if fieldname == "weights":
            w: flint.arb = self.value("exp", j, point, base) / self.value("sum", None, point, base)
            return w
        if fieldname == "output":
            total = flint.arb(0)
            for k in range(self.n):
                total += self.value("weights", k, point, base) * self._v(k, _col(j), point)
            return total
        raise KeyError(fieldname)

    def _v(self, k: int, c: int, point: bool) -> flint.arb:
        w = self._v_claim(k, c)
        if w is not None:
            return point_ball(w) if point else interval_ball(w)
        return self._exact("V", (k, c))

    def derive(
        self, fieldname: str, j: int | None, *, point: bool, base: Fraction | None = None
    ) -> Callable[[], flint.arb] | None:
        """A function computing the entry from the author's earlier numbers (None: nothing to
        use)."""
        if fieldname == "scores":
            return None
        return lambda: self.compute(fieldname, j, point, base)

    def point(self, fieldname: str, j: int | None, base: Fraction | None = None) -> Computed | None:
        """The entry from the author's own numbers taken as written, as a quantity."""
        fn = self.derive(fieldname, j, point=True, base=base)
        if fn is None:
            return None
        return Computed(fn, self.rational(fieldname, j, base))

    # -- exact rationals -----------------------------------------------------------------

    def rational(self, fieldname: str, j: int | None, base: Fraction | None) -> Fraction | None:
        """The point value exactly, when it is rational (claims only, no exp of a non-zero)."""
        if fieldname == "scores":
            return self.res.scores.rational((self.i, _col(j)))
        if fieldname == "exp":
            if self.masked[_col(j)]:
                return Fraction(0)
            x = self._point_in("scaled", j, base)
            return Fraction(1) if x == 0 else None
        if fieldname == "scaled":
            x = self._point_in("scores", j, base)
            return x * self.scale.p if x is not None and self.scale.is_rational else None
        if fieldname == "sum":
            total = Fraction(0)
            for k in range(self.n):
                part = self._point_in("exp", k, base)
                if part is None:
                    return None
                total += part
            return total
        if fieldname == "weights":
            e, t = self._point_in("exp", j, base), self._point_in("sum", None, base)
            return None if e is None or not t else e / t
        if fieldname == "output":
            total = Fraction(0)
            for k in range(self.n):
                wk = self._point_in("weights", k, base)
                vw = self._v_claim(k, j)
                vk = vw.value if vw is not None else self.res.value.rational((k, _col(j)))
                if wk is None or vk is None:
                    return None
                total += wk * vk
            return total
        return None

    def _point_in(self, fieldname: str, j: int | None, base: Fraction | None) -> Fraction | None:
        w = self._own(fieldname, j, base)
        if w is not None:
            return w.value
        return self.rational(fieldname, j, base)

    def formula(self, fieldname: str, j: int | None, base: str = "e") -> str:
        """The computation as the author wrote it, e.g. ``12.18 + 2.71``."""

        def val(f: str, k: int | None) -> str:
            w = self.claim(f, k)
            return w.text if w is not None else f"{f}[{k}]" if k is not None else f

        if fieldname == "scaled":
            return f"{val('scores', j)} * {self.scale}"
        if fieldname == "exp":
            return f"{base}^{val('scaled', j)}"
        if fieldname == "sum":
            return " + ".join(
                val("exp", k)
                if self.claim("exp", k) is not None and base == "e"
                else f"{base}^{val('scaled', k)}"
                for k in range(self.n)
            )
        if fieldname == "weights":
            return f"{val('exp', j)} / {val('sum', None)}"
        if fieldname == "output":
            parts = []
            for k in range(self.n):
                vw = self._v_claim(k, j)
                vtxt = vw.text if vw is not None else f"V[{k},{j}]"
                parts.append(f"{val('weights', k)}×{vtxt}")
            return " + ".join(parts)
        return fieldname

    # -- double precision, as an author's program would compute --------------------------

    def _scaled_float(self, k: int) -> float:
        w = self.claim("scaled", k)
        if w is not None:
            return float(w.value)
        return float(self.res.scaled_scores.to_numpy()[self.i, k])

    def float_value(self, fieldname: str, j: int | None, c: float) -> float | None:
        """The entry computed in float64 with ``c`` for e, from the author's numbers."""

        def ex(k: int) -> float:
            if self.masked[k]:
                return 0.0
            e: float = c ** self._scaled_float(k)
            return e

        try:
            if fieldname == "exp":
                return ex(_col(j))
            exps = [ex(k) for k in range(self.n)]
            total = 0.0
            for e in exps:
                total += e
            if fieldname == "sum":
                return total
            weights = [e / total for e in exps]
            if fieldname == "weights":
                return weights[_col(j)]
            if fieldname == "output":
                values = self.res.value.to_numpy()
                vcol = [float(values[k, _col(j)]) for k in range(self.n)]
                out = 0.0
                for wk, vk in zip(weights, vcol, strict=True):
                    out += wk * vk
                return out
        except (OverflowError, ZeroDivisionError):
            return None
        return None

    def float_formula(self, fieldname: str, j: int | None, c: str) -> str:
        """The float64 computation shown in a finding."""

        def sc(k: int) -> str:
            w = self.claim("scaled", k)
            return w.text if w is not None else repr(self._scaled_float(k))

        if fieldname == "exp":
            return f"{c}**{sc(_col(j))}"
        terms = " + ".join(f"{c}**{sc(k)}" for k in range(self.n) if not self.masked[k])
        if fieldname == "sum":
            return terms
        return f"({fieldname} from {terms})"


@dataclass(frozen=True)
class ChainLink:
    """A claim's place in the author's chain: the row's chain, the field and the column."""

    chain: Chain
    field: str
    column: int | None
