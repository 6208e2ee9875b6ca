"""symattn: Transformer attention with exact and certified numbers.

>>> import symattn
>>> r = symattn.scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
>>> r.output.evalf(8)[0].tolist()
[Decimal('13.648510'), Decimal('23.648510')]

The names below are loaded on first use (PEP 562), so ``import symattn.numbers`` loads only
the bottom layer; ``symattn.api`` holds the public functions.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from symattn.version import __version__ as __version__

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "AttentionResult": "symattn.api",
    "attention_from_scores": "symattn.api",
    "cross_attention": "symattn.api",
    "audit": "symattn.api",
    "check": "symattn.api",
    "multi_head_attention": "symattn.api",
    "scaled_dot_product_attention": "symattn.api",
    "self_attention": "symattn.api",
    "AuditReport": "symattn.read",
    "DEFAULT_LIMITS": "symattn.config",
    "Limits": "symattn.config",
    "InputError": "symattn.errors",
    "LimitError": "symattn.errors",
    "NumberError": "symattn.errors",
    "PrecisionError": "symattn.errors",
    "ShapeError": "symattn.errors",
    "SpecError": "symattn.errors",
    "SymattnError": "symattn.errors",
    "Ball": "symattn.exact",
    "ExactTensor": "symattn.exact",
    "Surd": "symattn.exact",
    "inv_sqrt": "symattn.exact",
    "sqrt_surd": "symattn.exact",
    "Rounding": "symattn.numbers.rounding",
    "Step": "symattn.engine",
    "Trace": "symattn.engine",
}

__all__ = [
    "AttentionResult",
    "AuditReport",
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
    "attention_from_scores",
    "audit",
    "check",
    "cross_attention",
    "inv_sqrt",
    "multi_head_attention",
    "scaled_dot_product_attention",
    "self_attention",
    "sqrt_surd",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'symattn' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:
    from symattn.api import (
        AttentionResult,
        attention_from_scores,
        audit,
        check,
        cross_attention,
        multi_head_attention,
        scaled_dot_product_attention,
        self_attention,
    )
    from symattn.config import DEFAULT_LIMITS, Limits
    from symattn.engine import Step, Trace
    from symattn.errors import (
        InputError,
        LimitError,
        NumberError,
        PrecisionError,
        ShapeError,
        SpecError,
        SymattnError,
    )
    from symattn.exact import Ball, ExactTensor, Surd, inv_sqrt, sqrt_surd
    from symattn.numbers.rounding import Rounding
    from symattn.read import AuditReport
