"""Scaled and masked scores, the logits of softmax: entries ``p + q*sqrt(r)`` or -inf.

:class:`SurdTensor` holds the parts as arrays; :class:`LinearSurdTensor` keeps them compact
as ``scores * coef + add`` and builds the parts only when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, TypeAlias

import flint
import numpy as np

from symattn.exact.surd import Surd, surd_arb
from symattn.exact.tensor import Evaluator, ExactTensor, all_indices, readonly

if TYPE_CHECKING:
    import sympy

__all__ = ["LinearSurdTensor", "Logits", "SurdTensor", "broadcast_index"]


@dataclass(frozen=True, repr=False)
class SurdTensor(ExactTensor):
    """Scaled (and masked) scores: entries ``p + q*sqrt(r)``, or -inf where ``masked``."""

    p: np.ndarray
    q: np.ndarray
    r: int
    masked: np.ndarray  # bool, True = -inf (does not take part)
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", readonly(self.p))
        object.__setattr__(self, "q", readonly(self.q))
        m = np.array(self.masked, dtype=bool)
        m.flags.writeable = False
        object.__setattr__(self, "masked", m)
        object.__setattr__(self, "shape", tuple(self.p.shape))

    def surd(self, index: tuple[int, ...]) -> Surd | None:
        """The entry as a :class:`Surd`, ``None`` where masked."""
        if self.masked[index]:
            return None
        return Surd(self.p[index], self.q[index], self.r)

    def _arb(self, ev: Evaluator) -> np.ndarray:
        out = np.empty(self.shape, dtype=object)
        root = flint.arb(self.r).sqrt()
        for idx in all_indices(self.shape):
            masked = self.masked[idx]
            out[idx] = (
                flint.arb.neg_inf() if masked else surd_arb(self.p[idx], self.q[idx], 1, root)
            )
        return out

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        if self.masked[index] or self.q[index] != 0:
            return None
        value: Fraction = self.p[index]
        return value

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        s = self.surd(index)
        return -sympy.oo if s is None else s.sympy()

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        return bool(self.masked[index])


def broadcast_index(index: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    """The entry of an array of ``shape`` that broadcasting puts at ``index``."""
    tail = index[len(index) - len(shape) :] if shape else ()
    return tuple(0 if n == 1 else i for i, n in zip(tail, shape, strict=True))


@dataclass(frozen=True, repr=False, eq=False)
class LinearSurdTensor(ExactTensor):
    """Scaled (and masked) scores kept compact: ``scores * coef + add``, -inf where ``masked``.

    ``scores`` is rational (:class:`ScaledIntTensor` for large inputs, possibly built lazily),
    ``coef`` a :class:`Surd`, ``add`` an optional rational tensor (an additive mask, 0 where
    masked) and ``masked`` a bool array, both broadcast to the shape. Same interface as
    :class:`SurdTensor` (``p``, ``q``, ``r``, ``surd``, ``masked``), with ``p`` and ``q``
    built only when asked for.
    """

    scores: ExactTensor
    coef: Surd
    masked: np.ndarray
    add: ExactTensor | None = None
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        shape = tuple(self.scores.shape)
        m = np.broadcast_to(np.asarray(self.masked, dtype=bool), shape)
        object.__setattr__(self, "masked", m)
        if self.add is not None:
            np.broadcast_shapes(tuple(self.add.shape), shape)  # refuses what cannot broadcast
        object.__setattr__(self, "shape", shape)

    @property
    def r(self) -> int:
        """The radicand of every entry."""
        return self.coef.r

    @cached_property
    def p(self) -> np.ndarray:
        """Rational parts (masked entries keep ``score * coef.p + add``; ``masked`` says which)."""
        p = self.scores.exact() * self.coef.p
        if self.add is not None:
            p = p + np.broadcast_to(self.add.exact(), self.shape)
        return readonly(p)

    @cached_property
    def q(self) -> np.ndarray:
        """Coefficients of ``sqrt(r)``."""
        return readonly(self.scores.exact() * self.coef.q)

    def surd(self, index: tuple[int, ...]) -> Surd | None:
        """The entry as a :class:`Surd`, ``None`` where masked."""
        if self.masked[index]:
            return None
        x = self.scores.rational(index)
        assert x is not None  # scores are rational
        s = Surd(x * self.coef.p, x * self.coef.q, self.coef.r)
        if self.add is None:
            return s
        a = self.add.rational(broadcast_index(index, tuple(self.add.shape)))
        assert a is not None  # an additive mask is rational
        return s + a

    def _arb(self, ev: Evaluator) -> np.ndarray:
        out = np.empty(self.shape, dtype=object)
        for idx in all_indices(self.shape):
            s = self.surd(idx)
            out[idx] = flint.arb.neg_inf() if s is None else s.arb()
        return out

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        s = self.surd(index)
        return s.p if s is not None and s.q == 0 else None

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        s = self.surd(index)
        return -sympy.oo if s is None else s.sympy()

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        return bool(self.masked[index])


#: the two forms of the logits of softmax
Logits: TypeAlias = SurdTensor | LinearSurdTensor
