"""Exact values of attention's stages (surds, lazy exact tensors) and certified balls.

Declares :class:`~symattn.exact.routing.AttentionSpec` and the :class:`Kernels` protocol that
the batched paths of :mod:`symattn.fast` implement; it never imports :mod:`symattn.fast`.

============  ===================================================================================
module        what it holds
============  ===================================================================================
``ball``      :class:`Ball`, the one Fraction -> Arb converter, the decisions taken from a ball
``surd``      :class:`Surd`: exact ``p + q*sqrt(r)`` (the scale, the scaled scores)
``integers``  exact integer matrix products through float64 BLAS (slices, recombination)
``tensor``    :class:`ExactTensor`, the lazy exact array, and the one refinement loop
``rational``  rational stages: :class:`RationalTensor`, :class:`ScaledIntTensor`,
              :class:`BinaryTensor` (binary floats, exactly)
``lazy``      :class:`LazyTensor`: a stage built when first read
``routing``   :class:`AttentionSpec`, the :class:`Kernels` protocol, when to route to it
``logits``    scaled and masked scores: :class:`SurdTensor`, :class:`LinearSurdTensor`
``softmax``   :class:`ExpTensor`, :class:`RowSumTensor`, :class:`SoftmaxTensor`
``products``  :class:`MatMulTensor` (``P V``, ``W_O``), :class:`ReshapeTensor` (heads)
``arrays``    :class:`RoundedArray` (``evalf``), :class:`BallArray` (``enclose``), held compactly
============  ===================================================================================
"""

from symattn.exact.arrays import (
    LIMB_BITS,
    BallArray,
    RoundedArray,
    ints_to_limbs,
    limbs_to_ints,
)
from symattn.exact.ball import (
    EXPONENT_RANGE_BITS,
    Ball,
    Narrow,
    Places,
    Significant,
    arb_of,
    arb_of_ratio,
    arb_to_fraction,
    float_of,
)
from symattn.exact.integers import (
    combine_products,
    float_ints,
    fractions_to_ints,
    int_matmul,
    int_slices,
    slice_width,
)
from symattn.exact.lazy import LazyTensor
from symattn.exact.logits import LinearSurdTensor, Logits, SurdTensor
from symattn.exact.products import MatMulTensor, ReshapeTensor
from symattn.exact.rational import BinaryTensor, RationalTensor, ScaledIntTensor, rational_tensor
from symattn.exact.routing import FAST_MIN_SCORES, AttentionSpec, Kernels, route
from symattn.exact.softmax import ExpTensor, RowSumTensor, SoftmaxTensor
from symattn.exact.surd import Surd, inv_sqrt, sqrt_surd
from symattn.exact.tensor import Evaluator, ExactTensor

__all__ = [
    "EXPONENT_RANGE_BITS",
    "FAST_MIN_SCORES",
    "LIMB_BITS",
    "AttentionSpec",
    "Ball",
    "BallArray",
    "BinaryTensor",
    "Evaluator",
    "ExactTensor",
    "ExpTensor",
    "Kernels",
    "LazyTensor",
    "LinearSurdTensor",
    "Logits",
    "MatMulTensor",
    "Narrow",
    "Places",
    "RationalTensor",
    "ReshapeTensor",
    "RoundedArray",
    "RowSumTensor",
    "ScaledIntTensor",
    "Significant",
    "SoftmaxTensor",
    "Surd",
    "SurdTensor",
    "arb_of",
    "arb_of_ratio",
    "arb_to_fraction",
    "combine_products",
    "float_ints",
    "float_of",
    "fractions_to_ints",
    "int_matmul",
    "int_slices",
    "ints_to_limbs",
    "inv_sqrt",
    "limbs_to_ints",
    "rational_tensor",
    "route",
    "slice_width",
    "sqrt_surd",
]
