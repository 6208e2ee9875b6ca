"""Batched certified kernels: correctly rounded float64, enclosures and decimals of whole
attention problems, proved per entry (see docs/performance.md).

=============  ====================================================================================
module         what it holds
=============  ====================================================================================
``doubles``    double-double arithmetic on numpy arrays
``sliced``     exact inputs as sliced integer matrices, and their exact products through BLAS
``problem``    one prepared attention problem (:func:`prepare`, :func:`problem_of`)
``tables``     ``exp`` from certified double-double tables
``exps``       the unnormalised weights of a block of rows, with a proved error bound
``decide``     the float64 decision: accept a double-double whose bound rounds to one double
``fallback``   the per-entry path (:mod:`symattn.exact`) for what the batched paths leave open
``float64``    correctly rounded float64 output (:func:`attention_float64`)
``enclose``    certified Arb balls of the output (:func:`attention_enclose`)
``decimals``   correctly rounded decimals of the output (:func:`attention_decimals`)
``weights``    the weights: float64 and certified decisions
``projected``  multi-head ``concat(heads) @ W_O`` in float64
``kernels``    the :class:`symattn.exact.Kernels` implementation the engine uses (:data:`KERNELS`)
=============  ====================================================================================
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
