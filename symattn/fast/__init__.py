"""Batched certified kernels: correctly rounded float64, enclosures and decimals of whole
attention problems, proved per entry (see docs/performance.md).

==============  ===================================================================================
module          what it holds
==============  ===================================================================================
``doubles``     double-double arithmetic on numpy arrays, the exp residual polynomial
``sliced``      exact inputs as sliced integer matrices (a power of two per line), exact products
``workspace``   reused scratch arrays
``problem``     one prepared attention problem (:func:`prepare`, :func:`problem_of`), the P V plan
``scores``      the scores of a block of rows as double-doubles with a proved bound
``tables``      ``exp`` from certified double-double tables
``scaled``      ``exp`` over the whole exponent range (mantissa and power of two)
``exps``        the unnormalised weights of a block of rows, with a proved error bound
``fused``       the same work in one compiled pass per row (numba, optional; bit for bit the same)
``compiled``    the numba kernels of ``fused`` (plain Python without numba)
``jit``         whether a problem takes the fused kernels or numpy (``SYMATTN_JIT``)
``decide``      the float64 decision of the output: a double-double whose bound rounds to one double
``decisions``   float64, digits, places and balls decided for whole arrays at once
``fallback``    what the bound leaves open: exact structure (Lindemann-Weierstrass), Arb per row
``float64``     correctly rounded float64 output (:func:`attention_float64`)
``limbexp``     certified fixed-point ``exp`` of binary-float scores, compiled (numba, optional)
``bulk``        certified outputs of binary-float heads in fixed point on ``limbexp``
``fixedpoint``  exact fixed-point weights of integer scores, the outputs N / R built on them
``limbs``       products of many-digit integers as numpy digits (the balls of many digits)
``enclose``     certified Arb balls of the output (:func:`attention_enclose`)
``outputs``     every output entry decided at once (``certify`` of the output)
``decimals``    correctly rounded decimals of the output (:func:`attention_decimals`)
``weights``     the weights: double-doubles over the whole range, every decision batched
``projected``   multi-head ``concat(heads) @ W_O`` in float64
``kernels``     the :class:`symattn.exact.Kernels` implementation the engine uses (:data:`KERNELS`)
==============  ===================================================================================
"""

from symattn.fast.decimals import attention_decimals
from symattn.fast.enclose import attention_enclose
from symattn.fast.float64 import attention_float64
from symattn.fast.kernels import KERNELS
from symattn.fast.problem import Progress, problem_of

__all__ = [
    "KERNELS",
    "Progress",
    "attention_decimals",
    "attention_enclose",
    "attention_float64",
    "problem_of",
]
