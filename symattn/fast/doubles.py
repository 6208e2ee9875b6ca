"""Double-double arithmetic on numpy arrays: a value is ``hi + lo`` (about 106 bits).

Error-free transformations (Knuth, Dekker; no FMA) and the double-double operations of
Joldes, Muller and Popescu, with their proved relative error bounds; :func:`arb_dd` turns an
Arb ball into a double-double with a rigorous absolute error.
"""

from __future__ import annotations

from typing import Any

import flint
import numpy as np

__all__ = [
    "EXP_RESIDUAL_ERR",
    "U2",
    "arb_dd",
    "dd_add",
    "dd_div",
    "dd_mul",
    "exp_residual",
    "fast_two_sum",
    "two_prod",
    "two_sum",
]

U2 = 2.0**-106  # u**2 for double precision, u = 2**-53


def two_sum(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """``a + b = s + e`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def fast_two_sum(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """``a + b = s + e`` exactly when ``|a| >= |b|`` (Dekker)."""
    s = a + b
    return s, b - (s - a)


def _split(a: Any) -> tuple[np.ndarray, np.ndarray]:
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """``a * b = p + e`` exactly (Dekker, no FMA)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def dd_mul(xh: Any, xl: Any, yh: Any, yl: Any) -> tuple[np.ndarray, np.ndarray]:
    """Double-double product (DWTimesDW1 of Joldes-Muller-Popescu; rel. error <= 7u^2)."""
    ch, cl1 = two_prod(xh, yh)
    cl2 = xh * yl + xl * yh
    return fast_two_sum(ch, cl1 + cl2)


def dd_add(xh: Any, xl: Any, yh: Any, yl: Any) -> tuple[np.ndarray, np.ndarray]:
    """Double-double sum (AccurateDWPlusDW; rel. error <= 3u^2 + 13u^3)."""
    sh, sl = two_sum(xh, yh)
    th, tl = two_sum(xl, yl)
    sl = sl + th
    sh, sl = fast_two_sum(sh, sl)
    sl = sl + tl
    return fast_two_sum(sh, sl)


def dd_div(xh: Any, xl: Any, yh: Any, yl: Any) -> tuple[np.ndarray, np.ndarray]:
    """Double-double quotient (DWDivDW1; rel. error <= 15u^2 + 56u^3)."""
    th = xh / yh
    rh, rl = dd_mul(yh, yl, th, 0.0)
    ph, pl = two_sum(xh, -rh)
    dl = pl + (xl - rl)
    tl = (ph + dl) / yh
    return fast_two_sum(th, tl)


def arb_dd(x: flint.arb) -> tuple[float, float, float]:
    """``(hi, lo, err)``: ``|x - (hi + lo)| <= err`` for every point of the ball ``x``."""
    hi = float(x)
    lo = float(x - hi)
    err = (x - hi - lo).abs_upper()
    if err == 0:  # x is exactly hi + lo (a power of two scale: products by it are exact)
        return hi, lo, 0.0
    return hi, lo, float(err) * (1 + 2.0**-50) + 5e-324


#: the relative error of :func:`exp_residual`
EXP_RESIDUAL_ERR = 2.0**-96


def exp_residual(yh: np.ndarray, yl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``exp(-y)`` for a double-double ``|y| <= 2**-15`` (``|yl| <= 2**-53 |yh|``), within
    relative :data:`EXP_RESIDUAL_ERR`.

    ``exp(-y) = exp(-yh) (1 - yl) + O(yl^2)``; ``exp(-yh)`` is its Taylor polynomial of degree
    6 (the rest below ``|yh|^7 / 5040 < 2**-117``). ``1 - yh`` (TwoSum) and ``yh^2 / 2``
    (TwoProd) are exact double-doubles; the rest, ``-yl + yl yh - yh^3 (1/6 - ...)``, is below
    ``2**-47`` and rounds by less than ``2**-97``; the three additions of parts below
    ``2**-46`` by less than ``3 * 2**-99``.
    """
    ph, pl = two_sum(1.0, -yh)
    bh, bl = two_prod(yh, yh)
    rest = yl * yh - yl - yh * yh * yh * (1 / 6 - yh * (1 / 24 - yh * (1 / 120 - yh / 720)))
    sh, sl = two_sum(ph, bh * 0.5)  # halving is exact
    return fast_two_sum(sh, sl + pl + (bl * 0.5 + rest))
