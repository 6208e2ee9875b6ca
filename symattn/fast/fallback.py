"""What the batched paths leave open, decided structurally and refined in Arb, row by row.

For one query row, the active keys are grouped by equal exact logit ``t_g`` (a score ``s``
times the exact scale, plus the additive mask). An output entry is
``sum_g A_g e^{t_g} / sum_g n_g e^{t_g}`` (``A_g``: the sum of V over the group, ``n_g`` its
size), and by the Lindemann-Weierstrass theorem ``e^{t_g}`` for distinct algebraic ``t_g``
are linearly independent over the algebraic numbers, so

* the entry is rational exactly when every group has the same mean ``A_g / n_g`` (then it
  is that mean: an exact zero when every ``A_g`` is 0), and
* a weight ``e^{t_j} / sum_g n_g e^{t_g}`` is rational exactly when the row has one group
  (then it is ``1/n``; a masked weight is 0).

Rational entries are decided on their exact value; every other entry is irrational, never on
a rounding boundary, so Arb refinement (``exp`` once per group) decides it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import flint
import numpy as np

from symattn.config import Limits
from symattn.errors import PrecisionError
from symattn.exact import Ball, Surd
from symattn.fast.problem import Problem
from symattn.fast.sliced import Exact, at_batch, exact_products

__all__ = ["ExactRow", "RowCache", "constant_columns", "settle_outputs", "settle_weights"]

T = TypeVar("T")


def _ints(src: Exact, b: tuple[int, ...], index: Any) -> tuple[np.ndarray, Fraction]:
    """Exact integers and a unit for ``index`` of the matrix at batch entry ``b``."""
    return src.batch(b).at(index)


class RowCache:
    """The exact K and V of one batch entry, converted once for all the rows that need them."""

    def __init__(self, p: Problem, b: tuple[int, ...]) -> None:
        self.p, self.b = p, b
        self._k: tuple[np.ndarray, Fraction] | None = None
        self._v: dict[int, tuple[np.ndarray, Fraction]] = {}

    def keys(self) -> tuple[np.ndarray, Fraction]:
        """All of K as exact integers (S x E) and a unit."""
        if self._k is None:
            self._k = _ints(self.p.k.source, self.b, (slice(None), slice(None)))
        return self._k

    def scores(self, i: int, keys: np.ndarray) -> tuple[np.ndarray, Fraction]:
        """The exact scores of query row ``i`` with ``keys``: Python integers and a unit.

        From the slices when they hold Q and K exactly (exact BLAS products, one Python
        integer per key), else from the exact integers of K."""
        p, b = self.p, self.b
        if not (p.q.exact and p.k.exact):
            qi, uq = _ints(p.q.source, b, (i, slice(None)))
            kall, uk = self.keys()
            if not qi.size:
                return np.zeros(keys.size, dtype=object), uq * uk
            return kall[keys].dot(qi), uq * uk
        qsl = [a[i : i + 1] for a in p.q.at_batch(b)]
        ksl = [a[keys] for a in p.k.at_batch(b)]
        ints = exact_products(qsl, p.q.width, ksl, p.k.width, False)[0]
        unit = p.q.unit * p.k.unit
        q_exps, k_exps = p.q.exps_at(b), p.k.exps_at(b)
        if k_exps is not None and keys.size:
            ek = k_exps[keys, 0]
            low = int(ek.min())
            ints = ints * (np.ones(keys.size, dtype=object) << (ek - low).astype(object))
            unit *= Fraction(2) ** low
        if q_exps is not None:
            unit *= Fraction(2) ** int(q_exps[i, 0])
        return ints, unit

    def column(self, c: int) -> tuple[np.ndarray, Fraction]:
        """Column ``c`` of V as exact integers and a unit."""
        if c not in self._v:
            self._v[c] = _ints(self.p.v.source, self.b, (slice(None), c))
        return self._v[c]


@dataclass(frozen=True)
class ExactRow:
    """One query row: its active keys grouped by equal exact logit."""

    keys: np.ndarray  # active key indices
    group: np.ndarray  # the group of each active key
    logits: list[Surd]  # one exact logit per group
    sizes: np.ndarray  # keys per group

    @classmethod
    def of(cls, cache: RowCache, i: int) -> ExactRow:
        """Row ``i`` of the batch entry ``cache`` holds."""
        p, b = cache.p, cache.b
        S = p.k.shape[-2]
        keys = (np.flatnonzero(~p.masked[b][i]) if p.masked is not None else np.arange(S)).astype(
            np.int64
        )
        if not keys.size:
            return cls(keys, keys, [], keys)
        scores, unit = cache.scores(i, keys)
        c = p.scale * unit
        if p.add is not None:
            a_ints, ua = _ints(p.add.source, b, (i, keys))
        else:
            a_ints, ua = np.zeros(keys.size, dtype=object), Fraction(1)
        found: dict[Any, int] = {}
        group = np.empty(keys.size, dtype=np.int64)
        logits: list[Surd] = []
        # equal logits: c s + ua a alike; with c irrational, s alike and a alike
        den = math.lcm(c.p.denominator, ua.denominator)
        cp, ca = int(c.p * den), int(ua * den)
        for n, (s, a) in enumerate(zip(scores.tolist(), a_ints.tolist(), strict=True)):
            key: Any = cp * s + ca * a if c.q == 0 else (s, a)
            g = found.get(key)
            if g is None:
                g = found[key] = len(logits)
                logits.append(Surd(c.p * s, c.q * s, c.r) + ua * a)
            group[n] = g
        return cls(keys, group, logits, np.bincount(group, minlength=len(logits)))

    def arb_exps(self) -> list[flint.arb]:
        """``exp(t_g - max t)`` for every group (call inside an Arb working precision)."""
        xs = [s.arb() for s in self.logits]
        top = max(xs, key=lambda x: x.mid())
        return [(x - top).exp() for x in xs]


def _refine(
    row: ExactRow,
    numerators: list[list[int]],
    unit: list[Fraction],
    decide: Callable[[Ball], T | None],
    start_bits: int,
    limits: Limits,
    weights: bool = False,
) -> list[T]:
    """``decide`` on Arb balls of ``sum_g A_g e^{t_g} / sum_g n_g e^{t_g} * unit`` for each
    list ``A`` of ``numerators`` (or of ``e^{t_g} / sum * unit`` for group ``A[0]`` when
    ``weights``), doubling the precision until every one decides."""
    out: list[Any] = [None] * len(numerators)
    pending = list(range(len(numerators)))
    prec = max(64, start_bits) + 2 * max(len(row.keys), 2).bit_length()
    while pending:
        if prec > limits.max_precision_bits:
            raise PrecisionError(
                f"undecided at {limits.max_precision_bits} bits of precision; "
                "raise Limits(max_precision_bits=...)"
            )
        with flint.ctx.workprec(prec):
            e = row.arb_exps()
            total = flint.arb(0)
            for x, n in zip(e, row.sizes.tolist(), strict=True):
                total += x * n
            still = []
            for idx in pending:
                if weights:
                    num = e[numerators[idx][0]]
                else:
                    num = flint.arb(0)
                    for x, a in zip(e, numerators[idx], strict=True):
                        if a:
                            num += x * a
                u = unit[idx]
                ball = num * flint.fmpq(u.numerator, u.denominator) / total
                res = decide(Ball.from_arb(ball)) if ball.is_finite() else None
                if res is None:
                    still.append(idx)
                else:
                    out[idx] = res
        pending = still
        prec *= 2
    return out


def _decide_exact(decide: Callable[[Ball], T | None], value: Fraction) -> T:
    res = decide(Ball.exact(value))
    if res is None:
        raise PrecisionError(f"undecided on the exact value {value}")
    return res


def settle_outputs(
    cache: RowCache,
    i: int,
    cols: list[int],
    decide: Callable[[Ball], T | None],
    start_bits: int,
    limits: Limits,
) -> dict[int, T]:
    """``decide`` for output entries ``(i, c)``, ``c`` in ``cols``, of the cached batch entry."""
    row = ExactRow.of(cache, i)
    out: dict[int, T] = {}
    if not row.keys.size:  # safe softmax: a fully masked row is 0
        return {c: _decide_exact(decide, Fraction(0)) for c in cols}
    irrational: list[int] = []
    numerators: list[list[int]] = []
    units: list[Fraction] = []
    G = len(row.logits)
    for c in cols:
        vcol, uv = cache.column(c)
        sums = [0] * G
        for g, x in zip(row.group.tolist(), vcol[row.keys].tolist(), strict=True):
            sums[g] += x
        sizes = row.sizes.tolist()
        mean = Fraction(sums[0], sizes[0])
        if all(a * sizes[0] == sums[0] * n for a, n in zip(sums, sizes, strict=True)):
            out[c] = _decide_exact(decide, mean * uv)
        else:
            irrational.append(c)
            numerators.append(sums)
            units.append(uv)
    if irrational:
        got = _refine(row, numerators, units, decide, start_bits, limits)
        out.update(zip(irrational, got, strict=True))
    return out


def settle_weights(
    cache: RowCache,
    i: int,
    cols: list[int],
    decide: Callable[[Ball], T | None],
    start_bits: int,
    limits: Limits,
) -> dict[int, T]:
    """``decide`` for the weights ``(i, j)``, ``j`` in ``cols``, of the cached batch entry."""
    row = ExactRow.of(cache, i)
    where = {int(j): n for n, j in enumerate(row.keys.tolist())}
    out: dict[int, T] = {}
    pending: list[int] = []
    for j in cols:
        n = where.get(j)
        if n is None:
            out[j] = _decide_exact(decide, Fraction(0))
        elif len(row.logits) == 1:
            out[j] = _decide_exact(decide, Fraction(1, len(row.keys)))
        else:
            pending.append(j)
    if pending:
        numerators = [[int(row.group[where[j]])] for j in pending]
        got = _refine(
            row, numerators, [Fraction(1)] * len(pending), decide, start_bits, limits, True
        )
        out.update(zip(pending, got, strict=True))
    return out


def constant_columns(p: Problem, b: tuple[int, ...]) -> dict[int, Fraction]:
    """Columns of V (batch entry ``b``) equal on every key, with their exact value: the
    output of every row with an active key is that value there (one group mean)."""
    src = p.v.source
    if src.floats is not None:
        m = at_batch(src.floats, b)
        unit = Fraction(1)
    else:
        assert src.ints is not None
        m, unit = at_batch(src.ints, b), src.unit
    if m.shape[0] == 0:
        return {}
    same = np.all(m == m[:1], axis=0)
    out: dict[int, Fraction] = {}
    for c in np.flatnonzero(same).tolist():
        x = m[0, c]
        out[int(c)] = (
            Fraction(*float(x).as_integer_ratio())
            if src.floats is not None
            else (Fraction(int(x)) * unit)
        )
    return out
