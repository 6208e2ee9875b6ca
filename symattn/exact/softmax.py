"""Softmax, exactly: ``exp`` of the logits (:class:`ExpTensor`), their row sums
(:class:`RowSumTensor`) and the weights (:class:`SoftmaxTensor`).

A weight is rational only where a row's active scores are all equal (``1/m``): by the
Lindemann-Weierstrass theorem ``exp`` of distinct algebraic numbers are linearly independent
over the algebraic numbers. Those weights are known exactly, so a tie at a rounding boundary
is decided exactly instead of refined forever.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import flint
import numpy as np

from symattn.config import Limits
from symattn.exact.arrays import BallArray, RoundedArray
from symattn.exact.ball import Ball
from symattn.exact.logits import Logits
from symattn.exact.routing import AttentionSpec, route
from symattn.exact.surd import Surd
from symattn.exact.tensor import Evaluator, ExactTensor, T, all_indices

if TYPE_CHECKING:
    import sympy

__all__ = ["ExpTensor", "RowSumTensor", "SoftmaxTensor"]


@dataclass(frozen=True, repr=False)
class ExpTensor(ExactTensor):
    """``exp`` of every entry of the logits (0 where masked)."""

    logits: Logits
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", self.logits.shape)

    def _arb(self, ev: Evaluator) -> np.ndarray:
        x = ev.arb(self.logits)
        out = np.empty(self.shape, dtype=object)
        for idx in all_indices(self.shape):
            out[idx] = flint.arb(0) if self.logits.masked[idx] else x[idx].exp()
        return out

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        if self.logits.masked[index]:
            return Fraction(0)
        s = self.logits.surd(index)
        return Fraction(1) if s is not None and s.p == 0 and s.q == 0 else None

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        s = self.logits.surd(index)
        return sympy.Integer(0) if s is None else sympy.exp(s.sympy())


@dataclass(frozen=True, repr=False)
class RowSumTensor(ExactTensor):
    """The sum over the last axis of an :class:`ExpTensor` (softmax's denominator)."""

    terms: ExpTensor
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", self.terms.shape[:-1])

    def _arb(self, ev: Evaluator) -> np.ndarray:
        x = ev.arb(self.terms)
        out = np.empty(self.shape, dtype=object)
        for idx in all_indices(self.shape):
            total = flint.arb(0)
            for v in x[idx]:
                total += v
            out[idx] = total
        return out

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        total = Fraction(0)
        for j in range(self.terms.shape[-1]):
            part = self.terms.rational(index + (j,))
            if part is None:
                return None
            total += part
        return total

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        return sympy.Add(*[self.terms.sympy(index + (j,)) for j in range(self.terms.shape[-1])])


@dataclass(frozen=True, repr=False)
class SoftmaxTensor(ExactTensor):
    """``exp(s_ij) / sum_k exp(s_ik)``; a row with no active entry is all zeros (safe softmax)."""

    terms: ExpTensor
    sums: RowSumTensor
    shape: tuple[int, ...] = field(init=False)
    attention: AttentionSpec | None = None  # set by the engine: enables the batched paths

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", self.terms.shape)

    @property
    def logits(self) -> Logits:
        """The scaled, masked scores the weights come from."""
        return self.terms.logits

    def _fast_float64(self, limits: Limits, method: str) -> np.ndarray | None:
        routed = route(self.attention, method)
        if routed is None or not self._whole(routed[0]):
            return None
        spec, kernels = routed
        return kernels.spec_weights_float64(spec, limits=limits)

    def _fast_certify(
        self, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits, method: str
    ) -> np.ndarray | RoundedArray | BallArray | None:
        routed = route(self.attention, method)
        if routed is None or not self._whole(routed[0]):
            return None
        spec, kernels = routed
        return kernels.spec_weights_certify(spec, decide, start_bits, limits=limits)

    def _whole(self, spec: AttentionSpec) -> bool:
        """Whether these are all the weights of ``spec`` (not a part cut out of them)."""
        return self.shape == spec.batch + (spec.q.shape[-2], spec.k.shape[-2])

    def fully_masked(self, row: tuple[int, ...]) -> bool:
        """Whether every entry of ``row`` (an index without the last axis) is masked."""
        return bool(self.logits.masked[row].all())

    def _arb(self, ev: Evaluator) -> np.ndarray:
        e, s = ev.arb(self.terms), ev.arb(self.sums)
        out = np.empty(self.shape, dtype=object)
        for idx in all_indices(self.shape):
            row = idx[:-1]
            if self.logits.masked[idx]:
                out[idx] = flint.arb(0)
            else:
                out[idx] = e[idx] / s[row]
        return out

    def row_groups(self, row: tuple[int, ...]) -> dict[Surd, list[int]]:
        """Active keys of ``row`` grouped by equal score."""
        groups: dict[Surd, list[int]] = {}
        for j in range(self.shape[-1]):
            s = self.logits.surd(row + (j,))
            if s is not None:
                groups.setdefault(s, []).append(j)
        return groups

    def rational_row(self, row: tuple[int, ...]) -> Fraction | None:
        """The weight of every active key of ``row`` when the row is rational (equal scores:
        ``1/m``; no active key: 0), else ``None``."""
        groups = self.row_groups(row)
        if not groups:
            return Fraction(0)
        return Fraction(1, len(next(iter(groups.values())))) if len(groups) == 1 else None

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        if self.logits.masked[index]:
            return Fraction(0)
        return self.rational_row(index[:-1])

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        if self.logits.masked[index]:
            return sympy.Integer(0)
        return self.terms.sympy(index) / self.sums.sympy(index[:-1])
