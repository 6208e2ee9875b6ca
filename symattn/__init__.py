"""symattn: Transformer attention with exact and certified numbers.

>>> import symattn
>>> r = symattn.scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
>>> r.output.evalf(8)[0].tolist()
[Decimal('13.648510'), Decimal('23.648510')]
"""

from __future__ import annotations

from .audit import AuditReport, audit
from .check import check
from .config import DEFAULT_LIMITS, Limits
from .engine import multi_head_attention, scaled_dot_product_attention, self_attention
from .errors import (
    InputError,
    LimitError,
    NumberError,
    PrecisionError,
    ShapeError,
    SpecError,
    SymattnError,
)
from .exact import Ball, ExactTensor, Surd, inv_sqrt, sqrt_surd
from .result import AttentionResult
from .rounding import Rounding
from .trace import Step, Trace

__version__ = "0.1.0"

__all__ = [
    "AuditReport",
    "audit",
    "AttentionResult",
    "Ball",
    "DEFAULT_LIMITS",
    "ExactTensor",
    "InputError",
    "LimitError",
    "Limits",
    "NumberError",
    "PrecisionError",
    "Rounding",
    "ShapeError",
    "SpecError",
    "Step",
    "Surd",
    "SymattnError",
    "Trace",
    "check",
    "inv_sqrt",
    "multi_head_attention",
    "scaled_dot_product_attention",
    "self_attention",
    "sqrt_surd",
]
