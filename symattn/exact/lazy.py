"""A stage computed only when something reads it (:class:`LazyTensor`).

The engine records every step of attention in its trace, but a caller who asks for the output
alone (``scaled_dot_product_attention(q, k, v).to_numpy()``) should not pay for exact score
matrices of Python integers: those steps hold a :class:`LazyTensor` that builds its value on
first use and then behaves exactly like it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.exact.tensor import Evaluator, ExactTensor

if TYPE_CHECKING:
    import sympy

__all__ = ["LazyTensor"]


class LazyTensor(ExactTensor):
    """An exact tensor of a known ``shape`` whose value ``make()`` builds on first use."""

    def __init__(self, shape: tuple[int, ...], make: Callable[[], ExactTensor]) -> None:
        self.shape = tuple(shape)
        self._make = make

    @cached_property
    def value(self) -> ExactTensor:
        """The tensor itself (built now if not yet)."""
        value = self._make()
        if tuple(value.shape) != self.shape:
            raise AssertionError(f"lazy stage built shape {value.shape}, expected {self.shape}")
        return value

    @property
    def as_ints(self) -> Any:
        """The integer form of a rational value (see ``ScaledIntTensor``)."""
        value: Any = self.value
        return value.as_ints

    @property
    def values(self) -> np.ndarray:
        """The exact entries of a rational value, as ``Fraction``."""
        value: Any = self.value
        values: np.ndarray = value.values
        return values

    def _arb(self, ev: Evaluator) -> np.ndarray:
        return ev.arb(self.value)

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        return self.value.rational(index)

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        return self.value.sympy(index)

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        return self.value.is_neg_inf(index)

    def exact(self) -> np.ndarray:
        return self.value.exact()

    def to_numpy(self, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto") -> np.ndarray:
        return self.value.to_numpy(limits=limits, method=method)
