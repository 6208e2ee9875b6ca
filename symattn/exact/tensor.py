"""The lazy exact array every stage is (:class:`ExactTensor`), and the one refinement loop
that draws certified numbers from it.

An :class:`ExactTensor` gives

* ``exact()``: the exact entries (``Fraction`` where rational, sympy expressions otherwise),
* ``enclose(digits)``: certified intervals narrower than ``10**-digits`` (a
  :class:`~symattn.exact.arrays.BallArray`; one entry is a :class:`Ball`),
* ``evalf(digits)``: correctly rounded decimals (a :class:`~symattn.exact.arrays.RoundedArray`;
  one entry is a ``Decimal``),
* ``round(decimals)``: correctly rounded to a number of places (``Decimal``),
* ``to_numpy()``: correctly rounded float64.

Certified numbers come from Arb ball arithmetic (python-flint), refined until they decide
(:meth:`ExactTensor.refine_entries`); floats are never the source of truth. Rational
entries are known exactly (see :mod:`symattn.exact.softmax` for when a weight is rational),
so ties at a rounding boundary are decided exactly instead of refined forever.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, PrecisionError
from symattn.exact.arrays import BallArray, RoundedArray
from symattn.exact.ball import Ball, Narrow, Places, Significant, float_of
from symattn.exact.display import tensor_repr
from symattn.numbers.rounding import Rounding

if TYPE_CHECKING:
    import sympy

__all__ = [
    "METHODS",
    "Evaluator",
    "ExactTensor",
    "T",
    "all_indices",
    "check_method",
    "readonly",
    "readonly_view",
]

T = TypeVar("T")

#: how certified numbers are computed: ``auto`` routes large attention to the batched kernels
METHODS = ("auto", "fast", "exact")


def check_method(method: str) -> None:
    """Refuse a ``method`` that is not one of :data:`METHODS`."""
    if method not in METHODS:
        raise InputError(f"method must be 'auto', 'fast' or 'exact', got {method!r}")


def all_indices(shape: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every index of an array of ``shape``, in row-major order."""
    return iter(np.ndindex(*shape))


def readonly(a: np.ndarray) -> np.ndarray:
    """A read-only object-array copy of ``a``."""
    a = np.array(a, dtype=object)
    a.flags.writeable = False
    return a


def readonly_view(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a`` (no copy)."""
    v = a.view()
    v.flags.writeable = False
    return v


class Evaluator:
    """Arb values of tensors at one working precision, each tensor computed once."""

    def __init__(self, prec: int) -> None:
        self.prec = prec
        self._memo: dict[int, tuple[ExactTensor, np.ndarray]] = {}

    def arb(self, tensor: ExactTensor) -> np.ndarray:
        """The object array of ``flint.arb`` balls for ``tensor``."""
        hit = self._memo.get(id(tensor))
        if hit is None:
            with flint.ctx.workprec(self.prec):
                hit = (tensor, tensor._arb(self))
            self._memo[id(tensor)] = hit
        return hit[1]


class ExactTensor(ABC):
    """A read-only array of exact real numbers, evaluated lazily."""

    shape: tuple[int, ...]

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @abstractmethod
    def _arb(self, ev: Evaluator) -> np.ndarray:
        """Arb balls for every entry at ``ev.prec`` (call ``ev.arb`` for operands)."""

    @abstractmethod
    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        """The entry's value when it is rational, else ``None``."""

    @abstractmethod
    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        """The entry's exact value as a sympy expression."""

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        """Whether the entry is -inf (a masked score)."""
        return False

    # -- exact ----------------------------------------------------------------

    def exact(self) -> np.ndarray:
        """Exact entries: ``Fraction`` where rational, otherwise a sympy expression."""
        out = np.empty(self.shape, dtype=object)
        for idx in all_indices(self.shape):
            q = self.rational(idx)
            out[idx] = q if q is not None else self.sympy(idx)
        out.flags.writeable = False
        return out

    # -- certified ------------------------------------------------------------

    def certify(
        self,
        decide: Callable[[Ball], T | None],
        *,
        neg_inf: Any = None,
        start_bits: int = 64,
        limits: Limits = DEFAULT_LIMITS,
        method: str = "auto",
    ) -> np.ndarray:
        """Apply ``decide`` to enclosures of every entry, refining until each decides.

        ``decide`` gets a :class:`Ball` and returns a result or ``None`` (undecided).
        Rational entries get their exact zero-width ball at once; -inf entries (masked
        scores) get ``neg_inf``. Precision doubles up to ``limits.max_precision_bits``;
        past that, :class:`PrecisionError`. ``method="auto"`` lets a large attention output
        take the batched path of :mod:`symattn.fast` (same decisions, proved the same way);
        ``"exact"`` forces the per-entry path, ``"fast"`` the batched one where available.
        """
        got = self._certified(decide, neg_inf, start_bits, limits, method)
        if isinstance(got, RoundedArray):
            return got.to_decimal()
        if isinstance(got, BallArray):
            return got.to_balls()
        return got

    def _certified(
        self,
        decide: Callable[[Ball], T | None],
        neg_inf: Any,
        start_bits: int,
        limits: Limits,
        method: str,
    ) -> np.ndarray | RoundedArray | BallArray:
        """``certify``, as a batched path returns it: for ``Significant`` and ``Narrow`` it may
        be a :class:`RoundedArray` or :class:`BallArray` already."""
        routed = self._fast_certify(decide, start_bits, limits, method)
        if routed is not None:
            return routed
        where = list(all_indices(self.shape))
        results = self.certify_entries(
            where, [decide] * len(where), neg_inf=neg_inf, start_bits=start_bits, limits=limits
        )
        out = np.empty(self.shape, dtype=object)
        for idx, res in zip(where, results, strict=True):
            out[idx] = res
        out.flags.writeable = False
        return out

    def certify_entries(
        self,
        indices: list[tuple[int, ...]],
        decides: list[Callable[[Ball], T | None]],
        *,
        neg_inf: Any = None,
        start_bits: int = 64,
        limits: Limits = DEFAULT_LIMITS,
    ) -> list[Any]:
        """``decides[n]`` on the entry at ``indices[n]``, refining the undecided ones together.

        Rational entries get their exact zero-width ball once (whatever ``decide`` returns
        for it is kept); -inf entries get ``neg_inf``.
        """
        results: list[Any] = [None] * len(indices)
        pending: list[int] = []
        for n, idx in enumerate(indices):
            q = self.rational(idx)
            if self.is_neg_inf(idx):
                results[n] = neg_inf
            elif q is not None:
                results[n] = decides[n](Ball.exact(q))
            else:
                pending.append(n)
        refined = self.refine_entries(
            [indices[n] for n in pending],
            [decides[n] for n in pending],
            start_bits=start_bits,
            limits=limits,
        )
        for n, res in zip(pending, refined, strict=True):
            results[n] = res
        return results

    def refine_entries(
        self,
        indices: list[tuple[int, ...]],
        decides: list[Callable[[Ball], T | None]],
        *,
        start_bits: int,
        limits: Limits,
    ) -> list[T]:
        """``decides[n]`` on Arb enclosures of the entry at ``indices[n]``: the one refinement loop.

        Precision starts at ``start_bits`` and doubles while any entry is undecided, up to
        ``limits.max_precision_bits``; past that, :class:`PrecisionError`.
        """
        results: list[Any] = [None] * len(indices)
        pending = list(range(len(indices)))
        prec = min(start_bits, limits.max_precision_bits)
        while pending:
            values = Evaluator(prec).arb(self)
            still: list[int] = []
            for n in pending:
                with flint.ctx.workprec(prec):
                    x = values[indices[n]]
                    ball = Ball.from_arb(x) if x.is_finite() else None
                res = decides[n](ball) if ball is not None else None
                if res is None:
                    still.append(n)
                else:
                    results[n] = res
            pending = still
            if pending:
                if prec >= limits.max_precision_bits:
                    raise PrecisionError(
                        f"undecided at {prec} bits of precision for {len(pending)} entries "
                        f"(first at index {indices[pending[0]]}); "
                        "raise Limits(max_precision_bits=...)"
                    )
                prec = min(2 * prec, limits.max_precision_bits)
        return results

    def _fast_certify(
        self, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits, method: str
    ) -> np.ndarray | RoundedArray | BallArray | None:
        """``certify`` through a batched path, or ``None`` where there is none (a batched path
        may answer ``Significant`` with a :class:`RoundedArray`, ``Narrow`` with a
        :class:`BallArray`)."""
        check_method(method)
        return None

    def _fast_float64(self, limits: Limits, method: str) -> np.ndarray | None:
        """``to_numpy`` through a batched path, or ``None`` where there is none."""
        check_method(method)
        return None

    def enclose(
        self, digits: int = 30, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto"
    ) -> BallArray:
        """Certified balls, each narrower than ``10**-digits`` (``.to_balls()`` for the object
        array of :class:`Ball`)."""
        start = int(digits * 3.33) + 32
        got = self._certified(Narrow(digits), None, start, limits, method)
        if isinstance(got, BallArray):
            return got
        return BallArray.from_balls(got, digits)

    def evalf(
        self,
        digits: int = 15,
        *,
        mode: Rounding = Rounding.HALF_EVEN,
        limits: Limits = DEFAULT_LIMITS,
        method: str = "auto",
    ) -> RoundedArray:
        """Entries correctly rounded to ``digits`` significant digits (``.to_decimal()`` for
        the object array of ``Decimal``, ``.to_numpy()`` for float64)."""
        got = self._certified(
            Significant(digits, mode), Decimal("-Infinity"), int(digits * 3.33) + 32, limits, method
        )
        if isinstance(got, RoundedArray):
            return got
        return RoundedArray.from_decimals(got, digits)

    def round(
        self,
        decimals: int,
        *,
        mode: Rounding = Rounding.HALF_EVEN,
        limits: Limits = DEFAULT_LIMITS,
        method: str = "auto",
    ) -> np.ndarray:
        """Entries correctly rounded to ``decimals`` places after the point, as ``Decimal``."""
        return self.certify(
            Places(decimals, mode),
            neg_inf=Decimal("-Infinity"),
            start_bits=int(decimals * 3.33) + 48,
            limits=limits,
            method=method,
        )

    def to_numpy(self, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto") -> np.ndarray:
        """Entries correctly rounded to float64 (round-to-nearest-even), decided from enclosures."""
        routed = self._fast_float64(limits, method)
        if routed is not None:
            return routed
        return np.asarray(
            self.certify(float_of, neg_inf=-math.inf, start_bits=80, limits=limits, method="exact"),
            dtype=np.float64,
        )

    def __repr__(self) -> str:
        return tensor_repr(self)
