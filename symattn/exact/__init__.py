"""Exact values of attention's stages (surds, lazy exact tensors) and certified balls.

Declares :class:`~symattn.exact.tensors.AttentionSpec` and the kernel protocol that the
batched paths of :mod:`symattn.fast` implement; it never imports :mod:`symattn.fast`.
"""

from symattn.exact.tensors import (
    EXPONENT_RANGE_BITS,
    FAST_MIN_SCORES,
    AttentionSpec,
    Ball,
    Evaluator,
    ExactTensor,
    ExpTensor,
    LinearSurdTensor,
    MatMulTensor,
    RationalTensor,
    ReshapeTensor,
    RowSumTensor,
    ScaledIntTensor,
    SoftmaxTensor,
    Surd,
    SurdTensor,
    arb_of,
    arb_to_fraction,
    float_of,
    fractions_to_ints,
    int_matmul,
    inv_sqrt,
    rational_tensor,
    sqrt_surd,
)

__all__ = [
    "EXPONENT_RANGE_BITS",
    "FAST_MIN_SCORES",
    "AttentionSpec",
    "Ball",
    "Evaluator",
    "ExactTensor",
    "ExpTensor",
    "LinearSurdTensor",
    "MatMulTensor",
    "RationalTensor",
    "ReshapeTensor",
    "RowSumTensor",
    "ScaledIntTensor",
    "SoftmaxTensor",
    "Surd",
    "SurdTensor",
    "arb_of",
    "arb_to_fraction",
    "float_of",
    "fractions_to_ints",
    "int_matmul",
    "inv_sqrt",
    "rational_tensor",
    "sqrt_surd",
]
