"""Tests for symattn.fast.doubles: error-free transformations and double-double operations."""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from symattn.fast.doubles import U2, arb_dd, dd_add, dd_div, dd_mul, fast_two_sum, two_prod, two_sum

F = Fraction
# products and their error terms stay normal: no underflow, no overflow
finite = st.floats(-1e100, 1e100).filter(lambda x: x == 0 or abs(x) > 1e-100)


def _dd(h: object, low: object) -> Fraction:
    return F(float(h)) + F(float(low))


@given(finite, finite)
def test_two_sum_and_two_prod_are_exact(a: float, b: float) -> None:
    s, e = two_sum(np.float64(a), np.float64(b))
    assert _dd(s, e) == F(a) + F(b)
    p, e = two_prod(np.float64(a), np.float64(b))
    assert _dd(p, e) == F(a) * F(b)
    big, small = (a, b) if abs(a) >= abs(b) else (b, a)
    s, e = fast_two_sum(np.float64(big), np.float64(small))
    assert _dd(s, e) == F(a) + F(b)


@given(st.floats(1, 2), st.floats(1, 2), st.floats(1, 2), st.floats(1, 2))
def test_double_double_operations_meet_their_bounds(a: float, b: float, c: float, d: float) -> None:
    x = (np.float64(a), np.float64(a) * 2.0**-60)
    y = (np.float64(c), np.float64(d) * 2.0**-60)
    xv, yv = _dd(*x), _dd(*y)
    for op, exact, rel in ((dd_add, xv + yv, 4), (dd_mul, xv * yv, 7), (dd_div, xv / yv, 16)):
        got = _dd(*op(x[0], x[1], y[0], y[1]))
        assert abs(got - exact) <= rel * F(U2) * abs(exact)
    assert b  # b only widens the examples hypothesis draws


def test_arb_dd_bounds_the_whole_ball() -> None:
    with flint.ctx.workprec(200):
        x = flint.arb(1) / 3
        hi, lo, err = arb_dd(x)
        assert (x - flint.arb(hi) - flint.arb(lo)).abs_upper() <= flint.arb(err)
    assert hi == 1 / 3 and 0 < err < 2.0**-100
