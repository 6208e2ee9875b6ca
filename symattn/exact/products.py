"""Products and layouts: ``P V`` and ``concat(heads) W_O`` (:class:`MatMulTensor`), and the
split and concatenation of heads (:class:`ReshapeTensor`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, overload

import numpy as np

from symattn.config import Limits
from symattn.errors import InputError
from symattn.exact.arrays import BallArray, RoundedArray
from symattn.exact.ball import Ball
from symattn.exact.rational import BinaryTensor, RationalTensor, ScaledIntTensor
from symattn.exact.routing import AttentionSpec, route
from symattn.exact.softmax import SoftmaxTensor
from symattn.exact.tensor import Evaluator, ExactTensor, T, readonly_view

if TYPE_CHECKING:
    import sympy

__all__ = ["MatMulTensor", "ReshapeTensor"]

#: what a batched path answers: an object array, or decimals or balls held compactly
Packed = np.ndarray | RoundedArray | BallArray


@dataclass(frozen=True, repr=False)
class MatMulTensor(ExactTensor):
    """``left @ right`` with an exact rational ``right`` (``P V``, ``concat(heads) W_O``)."""

    left: ExactTensor
    right: RationalTensor | ScaledIntTensor | BinaryTensor
    shape: tuple[int, ...] = field(init=False)
    #: set by the engine for ``P V``: enables the batched paths
    attention: AttentionSpec | None = None

    def __post_init__(self) -> None:
        if self.left.shape[-1] != self.right.shape[-2]:
            raise InputError(f"cannot multiply shapes {self.left.shape} and {self.right.shape}")
        batch = np.broadcast_shapes(self.left.shape[:-2], self.right.shape[:-2])
        object.__setattr__(
            self, "shape", tuple(batch) + (self.left.shape[-2], self.right.shape[-1])
        )

    def _arb(self, ev: Evaluator) -> np.ndarray:
        product: np.ndarray = np.matmul(ev.arb(self.left), ev.arb(self.right))
        return product

    def _projected_heads(self) -> tuple[AttentionSpec, np.ndarray] | None:
        """``(spec, source)`` when this is ``concat(heads) @ W_O`` over one plain attention."""
        left = self.left
        if not (isinstance(left, ReshapeTensor) and isinstance(left.base, MatMulTensor)):
            return None
        spec = left.base.attention
        if spec is None or self.right.ndim != 2 or left.ndim < 2:
            return None
        return spec, left.source

    def _fast_float64(self, limits: Limits, method: str) -> np.ndarray | None:
        if self.attention is None:
            heads = self._projected_heads()
            routed = route(heads[0] if heads is not None else None, method)
            if heads is None or routed is None:
                return None
            spec, kernels = routed
            return kernels.spec_projected_float64(spec, heads[1], self, limits=limits)
        routed = route(self.attention, method)
        if routed is None:
            return None
        spec, kernels = routed
        return kernels.spec_float64(spec, limits=limits)

    def _fast_certify(
        self, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits, method: str
    ) -> Packed | None:
        routed = route(self.attention, method)
        if routed is None:
            return None
        spec, kernels = routed
        return kernels.spec_certify(spec, decide, start_bits, limits=limits)

    def _operands(self, index: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        batch = index[:-2]
        lb = batch[len(batch) - (self.left.ndim - 2) :] if self.left.ndim > 2 else ()
        lb = tuple(0 if n == 1 else b for b, n in zip(lb, self.left.shape[:-2], strict=True))
        rb = batch[len(batch) - (self.right.ndim - 2) :] if self.right.ndim > 2 else ()
        rb = tuple(0 if n == 1 else b for b, n in zip(rb, self.right.shape[:-2], strict=True))
        return lb + (index[-2],), rb, index[-1]

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        lrow, rb, col = self._operands(index)
        n = self.left.shape[-1]
        column = [self.right.values[rb + (k, col)] for k in range(n)]
        if isinstance(self.left, SoftmaxTensor):
            # sum_t a_t e^t / sum_t n_t e^t is rational iff every group averages alike
            groups = self.left.row_groups(lrow)
            if not groups:
                return Fraction(0)
            means = {sum((column[j] for j in js), Fraction(0)) / len(js) for js in groups.values()}
            return means.pop() if len(means) == 1 else None
        total = Fraction(0)
        for k in range(n):
            if not column[k]:  # a zero coefficient adds exactly 0, whatever the entry is
                continue
            part = self.left.rational(lrow + (k,))
            if part is None:
                return None
            total += part * column[k]
        return total

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        lrow, rb, col = self._operands(index)
        if isinstance(self.left, SoftmaxTensor):  # (sum_j v_j e^{s_j}) / (sum_j e^{s_j})
            if self.left.fully_masked(lrow):
                return sympy.Integer(0)
            num = []
            for k in range(self.left.shape[-1]):
                c = self.right.values[rb + (k, col)]
                if c and not self.left.logits.masked[lrow + (k,)]:
                    num.append(
                        sympy.Rational(c.numerator, c.denominator)
                        * self.left.terms.sympy(lrow + (k,))
                    )
            return sympy.Add(*num) / self.left.sums.sympy(lrow)
        terms = []
        for k in range(self.left.shape[-1]):
            c = self.right.values[rb + (k, col)]
            if c:
                terms.append(
                    self.left.sympy(lrow + (k,)) * sympy.Rational(c.numerator, c.denominator)
                )
        return sympy.Add(*terms)


@dataclass(frozen=True, repr=False)
class ReshapeTensor(ExactTensor):
    """A permutation/reshape of another tensor's entries (split and concat of heads)."""

    base: ExactTensor
    source: np.ndarray  # for each entry, the flat index into ``base``
    shape: tuple[int, ...] = field(init=False)

    @classmethod
    def of(cls, base: ExactTensor, transform: Callable[[np.ndarray], np.ndarray]) -> ReshapeTensor:
        """Apply ``transform`` (numpy reshape/transpose steps) to ``base``'s layout."""
        flat = np.arange(math.prod(base.shape)).reshape(base.shape)
        return cls(base, np.ascontiguousarray(transform(flat)))

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(self.source.shape))

    @overload
    def _gather(self, base: None) -> None: ...
    @overload
    def _gather(self, base: Packed) -> Packed: ...
    def _gather(self, base: Packed | None) -> Packed | None:
        """This layout of an array of ``base``'s shape (read-only)."""
        if base is None:
            return None
        if isinstance(base, (RoundedArray, BallArray)):
            gathered: RoundedArray | BallArray = base.reshape(-1)[self.source]
            return gathered
        return readonly_view(np.asarray(base).reshape(-1)[self.source])

    def _fast_float64(self, limits: Limits, method: str) -> np.ndarray | None:
        got = self._gather(self.base._fast_float64(limits, method))
        assert not isinstance(got, (RoundedArray, BallArray))  # float64 is a numpy array
        return got

    def _fast_certify(
        self, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits, method: str
    ) -> Packed | None:
        return self._gather(self.base._fast_certify(decide, start_bits, limits, method))

    def _where(self, index: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(int(i) for i in np.unravel_index(int(self.source[index]), self.base.shape))

    def _arb(self, ev: Evaluator) -> np.ndarray:
        gathered: np.ndarray = ev.arb(self.base).reshape(-1)[self.source]
        return gathered

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        return self.base.rational(self._where(index))

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        return self.base.is_neg_inf(self._where(index))

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        return self.base.sympy(self._where(index))
