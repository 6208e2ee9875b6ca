"""Every output entry correctly rounded to a number of significant digits, batched."""

from __future__ import annotations

from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.exact import Significant
from symattn.fast.outputs import certify_outputs
from symattn.fast.problem import Progress, prepare
from symattn.numbers.interop import FloatReading, float_reading

__all__ = ["attention_decimals"]


def attention_decimals(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    is_causal: bool = False,
    scale: Any = None,
    enable_gqa: bool = False,
    *,
    digits: int = 15,
    read_floats: str | FloatReading | None = None,
    exact_float: bool | None = None,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """Every output entry correctly rounded to ``digits`` significant digits (``Decimal``).

    Decided from the double-double outputs and their bounds (``digits <= 15``) or from
    :func:`~symattn.fast.attention_enclose` balls with guard digits; what they leave open
    (exact zeros, rational means, entries near a rounding boundary) is decided structurally
    or refined row by row (:mod:`symattn.fast.outputs`).
    """
    floats = float_reading(read_floats, exact_float)
    p = prepare(query, key, value, attn_mask, is_causal, scale, enable_gqa, floats, limits)
    out: np.ndarray = certify_outputs(p, Significant(digits), int(digits * 3.33) + 32, limits)
    if progress is not None:
        progress(1, 1)
    return out
