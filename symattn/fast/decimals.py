"""Every output entry correctly rounded to a number of significant digits, batched."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.exact import Ball
from symattn.fast.enclose import enclose_problem
from symattn.fast.fallback import RowCache, settle_outputs
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

    def decide(ball: Ball) -> Decimal | None:
        if ball.sign == 0 and ball.lower == ball.upper:
            return round_significant(Fraction(0), digits, Rounding.HALF_EVEN)
        if ball.sign == 0:
            return None
        return ball.round_significant(digits)

    for b in np.ndindex(*p.batch):
        pending: dict[int, list[int]] = {}
        for (i, c), x in np.ndenumerate(balls[b]):
            res = None
            if x.is_zero():
                res = round_significant(Fraction(0), digits, Rounding.HALF_EVEN)
            elif x.is_finite():
                res = decide(Ball.from_arb(x))
            if res is None:
                pending.setdefault(i, []).append(c)
            else:
                out[b + (i, c)] = res
        cache = RowCache(p, b)
        for i, cols in pending.items():
            start = int(digits * 3.33) + 32
            for c, res in settle_outputs(cache, i, cols, decide, start, limits).items():
                out[b + (i, c)] = res
    out.flags.writeable = False
    return out
