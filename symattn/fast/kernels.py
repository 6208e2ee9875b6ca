"""The batched paths behind :class:`symattn.exact.Kernels`, for attention the engine recorded.

Each ``spec_*`` function turns the engine's :class:`~symattn.exact.AttentionSpec` into a
:class:`~symattn.fast.problem.Problem` and runs one batched path; :data:`KERNELS` is the
object the engine hands to every spec. Its methods look the functions up in this module
when called, so a test may replace one (``monkeypatch.setattr(kernels, "spec_float64", ...)``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.exact import AttentionSpec, Ball, BallArray, MatMulTensor, RoundedArray
from symattn.fast.float64 import attention_float64, run
from symattn.fast.outputs import certify_outputs
from symattn.fast.problem import problem_of
from symattn.fast.projected import projected_float64
from symattn.fast.weights import certify_weights, weights_run

__all__ = [
    "KERNELS",
    "attention_float64",  # kept importable here for callers of the former single module
    "spec_certify",
    "spec_float64",
    "spec_projected_float64",
    "spec_weights_certify",
    "spec_weights_float64",
]

T = TypeVar("T")


def spec_float64(spec: AttentionSpec, *, limits: Limits = DEFAULT_LIMITS) -> np.ndarray:
    """The output of ``spec`` correctly rounded to float64 (:func:`attention_float64`'s path)."""
    return np.array(run(problem_of(spec), None, limits, 256)[0])


def spec_certify(
    spec: AttentionSpec,
    decide: Callable[[Ball], T | None],
    start_bits: int,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """:meth:`~symattn.exact.ExactTensor.certify` of the output of ``spec``, batched."""
    return certify_outputs(problem_of(spec), decide, start_bits, limits)


def spec_weights_float64(spec: AttentionSpec, *, limits: Limits = DEFAULT_LIMITS) -> np.ndarray:
    """The weights of ``spec`` correctly rounded to float64, batched."""
    return np.array(weights_run(problem_of(spec), limits, 256)[0])


def spec_weights_certify(
    spec: AttentionSpec,
    decide: Callable[[Ball], T | None],
    start_bits: int,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray | RoundedArray | BallArray:
    """:meth:`~symattn.exact.ExactTensor.certify` of the weights of ``spec``, batched."""
    return certify_weights(problem_of(spec), decide, start_bits, limits)


def spec_projected_float64(
    spec: AttentionSpec,
    source: np.ndarray,
    tensor: MatMulTensor,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """``concat(heads) @ W_O`` correctly rounded to float64 (``tensor`` is that product)."""
    return projected_float64(problem_of(spec), source, tensor, limits)


class _Kernels:
    """The batched paths as one object implementing :class:`symattn.exact.Kernels` (each
    method calls this module's function of the same name, looked up at call time)."""

    def spec_float64(self, spec: AttentionSpec, *, limits: Limits) -> np.ndarray:
        return spec_float64(spec, limits=limits)

    def spec_certify(
        self, spec: AttentionSpec, decide: Callable[[Ball], Any], start_bits: int, *, limits: Limits
    ) -> np.ndarray:
        return spec_certify(spec, decide, start_bits, limits=limits)

    def spec_weights_float64(self, spec: AttentionSpec, *, limits: Limits) -> np.ndarray:
        return spec_weights_float64(spec, limits=limits)

    def spec_weights_certify(
        self, spec: AttentionSpec, decide: Callable[[Ball], Any], start_bits: int, *, limits: Limits
    ) -> np.ndarray | RoundedArray | BallArray:
        return spec_weights_certify(spec, decide, start_bits, limits=limits)

    def spec_projected_float64(
        self, spec: AttentionSpec, source: np.ndarray, tensor: MatMulTensor, *, limits: Limits
    ) -> np.ndarray:
        return spec_projected_float64(spec, source, tensor, limits=limits)


#: what the engine hands to every :class:`~symattn.exact.AttentionSpec` it builds
KERNELS = _Kernels()
