"""Rational stages: inputs, projections and scores, as ``Fraction`` objects
(:class:`RationalTensor`) or as integers over one common denominator (:class:`ScaledIntTensor`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError
from symattn.exact.ball import arb_of, arb_of_ratio
from symattn.exact.integers import float_ints, fractions_to_ints, max_abs
from symattn.exact.tensor import Evaluator, ExactTensor, readonly, readonly_view

if TYPE_CHECKING:
    import sympy

__all__ = ["BinaryTensor", "RationalTensor", "ScaledIntTensor", "rational_tensor"]

_ARB_OF_FRACTION = np.frompyfunc(arb_of, 1, 1)


@dataclass(frozen=True, repr=False)
class RationalTensor(ExactTensor):
    """An array of ``Fraction``: inputs, projections, scores."""

    values: np.ndarray
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", readonly(self.values))
        object.__setattr__(self, "shape", tuple(self.values.shape))

    def _arb(self, ev: Evaluator) -> np.ndarray:
        return np.asarray(_ARB_OF_FRACTION(self.values), dtype=object).reshape(self.shape)

    def rational(self, index: tuple[int, ...]) -> Fraction:
        value: Fraction = self.values[index]
        return value

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        v = self.values[index]
        return sympy.Rational(v.numerator, v.denominator)

    def exact(self) -> np.ndarray:
        return self.values

    @cached_property
    def as_ints(self) -> ScaledIntTensor:
        """The same entries as an integer array over one common denominator."""
        ints, den = fractions_to_ints(self.values)
        return ScaledIntTensor(ints, den)


@dataclass(frozen=True, repr=False, eq=False)
class ScaledIntTensor(ExactTensor):
    """Rational entries ``ints / den``: an integer array (int64, or Python ints when large)
    and one common positive denominator. Memory is one machine word per entry; ``values``
    (``Fraction`` objects) is built only when asked for."""

    ints: np.ndarray
    den: int = 1
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        if self.den <= 0:
            raise InputError(f"denominator must be positive, got {self.den}")
        ints = self.ints if self.ints.dtype in (np.int64, object) else self.ints.astype(np.int64)
        object.__setattr__(self, "ints", readonly_view(ints))
        object.__setattr__(self, "shape", tuple(ints.shape))

    @property
    def as_ints(self) -> ScaledIntTensor:
        """Itself (the integer form)."""
        return self

    @cached_property
    def values(self) -> np.ndarray:
        """The entries as a read-only object array of ``Fraction``."""
        den = self.den
        flat = [Fraction(int(i), den) for i in self.ints.reshape(-1).tolist()]
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        out = out.reshape(self.shape)
        out.flags.writeable = False
        return out

    def _arb(self, ev: Evaluator) -> np.ndarray:
        den = self.den
        conv = np.frompyfunc(lambda i: arb_of_ratio(int(i), den), 1, 1)
        return np.asarray(conv(self.ints), dtype=object).reshape(self.shape)

    def rational(self, index: tuple[int, ...]) -> Fraction:
        return Fraction(int(self.ints[index]), self.den)

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        return sympy.Rational(int(self.ints[index]), self.den)

    def exact(self) -> np.ndarray:
        return self.values

    def to_numpy(self, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto") -> np.ndarray:
        """Correctly rounded float64: one IEEE division of exact operands when both fit in
        53 bits."""
        if method != "exact" and self.den < 2**53 and max_abs(self.ints) < 2**53:
            quotient: np.ndarray = self.ints.astype(np.float64) / float(self.den)
            return quotient
        return super().to_numpy(limits=limits, method=method)


@dataclass(frozen=True, repr=False, eq=False)
class BinaryTensor(ExactTensor):
    """Binary floats read exactly: the float64 array ``floats`` holds the exact entries (a
    float16, float32 or bfloat16 value is a float64 too). Nothing per entry is built unless
    asked for: ``as_ints`` (integers over a power of two) and ``values`` (``Fraction``)."""

    floats: np.ndarray
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "floats", readonly_view(np.asarray(self.floats, np.float64)))
        object.__setattr__(self, "shape", tuple(self.floats.shape))

    @cached_property
    def as_ints(self) -> ScaledIntTensor:
        """The same entries as integers over a power of two."""
        ints, e0 = float_ints(self.floats)
        if e0 >= 0:
            return ScaledIntTensor(ints * (1 << e0) if e0 else ints, 1)
        return ScaledIntTensor(ints, 1 << -e0)

    @cached_property
    def values(self) -> np.ndarray:
        """The entries as a read-only object array of ``Fraction``."""
        flat = [Fraction(*x.as_integer_ratio()) for x in self.floats.reshape(-1).tolist()]
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        out = out.reshape(self.shape)
        out.flags.writeable = False
        return out

    def _arb(self, ev: Evaluator) -> np.ndarray:
        conv = np.frompyfunc(lambda x: flint.arb(float(x)), 1, 1)  # a double is exact in Arb
        return np.asarray(conv(self.floats), dtype=object).reshape(self.shape)

    def rational(self, index: tuple[int, ...]) -> Fraction:
        return Fraction(*float(self.floats[index]).as_integer_ratio())

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        f = self.rational(index)
        return sympy.Rational(f.numerator, f.denominator)

    def exact(self) -> np.ndarray:
        return self.values

    def to_numpy(self, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto") -> np.ndarray:
        """The floats themselves: they are the exact values."""
        if method == "exact":
            return super().to_numpy(limits=limits, method=method)
        return np.array(self.floats)


def rational_tensor(values: np.ndarray) -> RationalTensor:
    """A :class:`RationalTensor` over an object array of ``Fraction``."""
    return RationalTensor(values)
