"""Every output entry correctly rounded to a number of significant digits, batched."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.exact import Ball
from symattn.fast.enclose import enclose_problem
from symattn.fast.fallback import entry_tensor
from symattn.fast.problem import Progress, prepare
from symattn.numbers.rounding import Rounding, round_significant

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
    exact_float: bool = True,
    progress: Progress | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """Every output entry correctly rounded to ``digits`` significant digits (``Decimal``).

    Decided from :func:`~symattn.fast.attention_enclose` balls with guard digits; entries
    they cannot decide (exact ties, tiny values) go one by one through :mod:`symattn.exact`.
    """
    p = prepare(query, key, value, attn_mask, is_causal, scale, enable_gqa, exact_float, limits)
    balls = enclose_problem(p, digits + 12, progress, limits)
    out = np.empty(balls.shape, dtype=object)
    for idx, x in np.ndenumerate(balls):
        with flint.ctx.workprec(int(digits * 3.4) + 200):
            res: Decimal | None = None
            if x.is_zero():
                res = round_significant(Fraction(0), digits, Rounding.HALF_EVEN)
            elif x.is_finite():
                ball = Ball.from_arb(x)
                if ball.lower * ball.upper > 0:
                    res = ball.round_significant(digits)
        if res is None:
            res = entry_tensor(p, idx[:-2], idx[-2], idx[-1]).evalf(digits, limits=limits)[0, 0]
        out[idx] = res
    out.flags.writeable = False
    return out
