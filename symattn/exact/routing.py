"""Routing to batched kernels: what one plain attention is (:class:`AttentionSpec`), the
:class:`Kernels` protocol that :mod:`symattn.fast` implements, and when to use it.

``exact`` declares what it needs and never imports the implementation: the engine, which
sits above both, hands an implementation to each :class:`AttentionSpec` it builds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from symattn.config import Limits
from symattn.exact.arrays import BallArray, RoundedArray
from symattn.exact.ball import Ball
from symattn.exact.surd import Surd
from symattn.exact.tensor import ExactTensor, check_method

if TYPE_CHECKING:
    from symattn.exact.products import MatMulTensor

__all__ = ["FAST_MIN_SCORES", "AttentionSpec", "Kernels", "route"]

#: routed to :mod:`symattn.fast` from this many score entries on (``method="auto"``)
FAST_MIN_SCORES = 256


class Kernels(Protocol):
    """Batched certified paths for one plain attention (implemented by :mod:`symattn.fast`)."""

    def spec_float64(self, spec: AttentionSpec, *, limits: Limits) -> np.ndarray:
        """The output, correctly rounded to float64."""
        ...

    def spec_certify(
        self, spec: AttentionSpec, decide: Callable[[Ball], Any], start_bits: int, *, limits: Limits
    ) -> np.ndarray | RoundedArray | BallArray:
        """``decide`` applied to certified balls of every output entry, refined until decided."""
        ...

    def spec_weights_float64(self, spec: AttentionSpec, *, limits: Limits) -> np.ndarray:
        """The weights, correctly rounded to float64."""
        ...

    def spec_weights_certify(
        self, spec: AttentionSpec, decide: Callable[[Ball], Any], start_bits: int, *, limits: Limits
    ) -> np.ndarray | RoundedArray | BallArray:
        """``decide`` applied to certified balls of every weight, refined until decided
        (``Significant`` may be answered by a :class:`RoundedArray`, ``Narrow`` by a
        :class:`BallArray`)."""
        ...

    def spec_projected_float64(
        self, spec: AttentionSpec, source: np.ndarray, tensor: MatMulTensor, *, limits: Limits
    ) -> np.ndarray:
        """``concat(heads) @ W_O`` correctly rounded to float64."""
        ...


@dataclass(frozen=True)
class AttentionSpec:
    """What the fast paths need to recompute one plain attention.

    ``q``, ``k``, ``v`` are exact inputs (:class:`ScaledIntTensor`, :class:`BinaryTensor`, or
    a lazy stage of either); ``k`` and ``v`` are already repeated for grouped-query attention;
    ``masked`` (True = does not take part) and ``add`` (additive mask values, a rational
    tensor holding 0 where masked) broadcast to the scores. ``kernels`` implements the
    batched paths (``None``: per-entry paths only).
    """

    q: ExactTensor
    k: ExactTensor
    v: ExactTensor
    scale: Surd
    masked: np.ndarray | None
    add: ExactTensor | None
    batch: tuple[int, ...]
    kernels: Kernels | None = None

    @property
    def n_scores(self) -> int:
        """Entries of the score matrix (all batch entries)."""
        return math.prod(self.batch) * self.q.shape[-2] * self.k.shape[-2]


def route(spec: AttentionSpec | None, method: str) -> tuple[AttentionSpec, Kernels] | None:
    """``spec`` and its kernels when ``method`` sends it to the batched paths, else ``None``.

    ``"auto"`` sends an attention with at least :data:`FAST_MIN_SCORES` score entries,
    ``"fast"`` any non-empty one, ``"exact"`` none; an unknown ``method`` is an InputError.
    """
    check_method(method)
    if spec is None or method == "exact" or spec.kernels is None:
        return None
    if min(spec.q.shape[-2:] + spec.k.shape[-2:] + spec.v.shape[-1:]) == 0 or 0 in spec.batch:
        return None
    if method == "fast" or spec.n_scores >= FAST_MIN_SCORES:
        return spec, spec.kernels
    return None
