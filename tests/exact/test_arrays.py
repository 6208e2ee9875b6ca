"""RoundedArray and BallArray: the arrays evalf and enclose return."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from symattn import scaled_dot_product_attention
from symattn.exact import Ball, BallArray, RoundedArray, ints_to_limbs, limbs_to_ints


def test_limbs_round_trip() -> None:
    rng = random.Random(5)
    values = [0, 1, (1 << 24) - 1, 1 << 24] + [
        rng.getrandbits(rng.randint(1, 300)) for _ in range(50)
    ]
    limbs = ints_to_limbs(values)
    assert limbs.dtype == np.int64 and limbs.max() < 1 << 24
    assert limbs_to_ints(limbs) == values


def test_rounded_array_round_trips_decimals_exactly() -> None:
    values = np.array(
        [
            [Decimal("0.892958198535"), Decimal("-1.5E-30"), Decimal("0")],
            [Decimal("-Infinity"), Decimal("12345678901234567890123"), Decimal("-0.00")],
        ],
        dtype=object,
    )
    r = RoundedArray.from_decimals(values, digits=12)
    back = r.to_decimal()
    assert back.shape == (2, 3)
    assert [str(x) for x in back.reshape(-1)] == [str(x) for x in values.reshape(-1)]
    assert r[0, 1] == Decimal("-1.5E-30") and isinstance(r[0, 1], Decimal)
    assert isinstance(r[1], RoundedArray) and r[1].shape == (3,)
    assert r.tolist() == values.tolist()
    assert [list(row) for row in r] == values.tolist()
    assert (r == values).all()


def test_rounded_to_numpy_is_the_correctly_rounded_double() -> None:
    rng = random.Random(7)
    vals = [Decimal(f"{rng.randint(-(10**15), 10**15)}E{rng.randint(-40, 5)}") for _ in range(400)]
    r = RoundedArray.from_decimals(np.array(vals, dtype=object))
    assert r.to_numpy().tolist() == [float(v) for v in vals]
    assert np.asarray(r, dtype=object).tolist() == vals


def test_ball_array_round_trips_balls() -> None:
    balls = np.empty(4, dtype=object)
    balls[:] = [
        Ball.exact(Fraction(1, 3)),  # not dyadic: held as it is
        Ball(Fraction(-3, 4), Fraction(1, 4)),
        Ball.exact(Fraction(0)),
        Ball.exact(Fraction(5, 8)),
    ]
    a = BallArray.from_balls(balls.reshape(2, 2), digits=10)
    assert a.shape == (2, 2)
    assert list(a.to_balls().reshape(-1)) == list(balls)
    assert a[0, 0] == Ball.exact(Fraction(1, 3))
    assert a.contains([[Fraction(1, 3), Fraction(1, 5)], [0, Fraction(5, 8)]]).tolist() == [
        [True, True],
        [True, True],
    ]
    assert not a.contains(Fraction(1, 2)).any()
    assert a.mid().tolist() == [[1 / 3, -0.25], [0.0, 0.625]]
    assert (a.rad() >= [[0, 0.5], [0, 0]]).all()


def test_evalf_and_enclose_of_the_weights() -> None:
    r = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    w = r.weights.evalf(12)
    assert isinstance(w, RoundedArray) and w.digits == 12
    assert w.tolist() == [[Decimal("0.892958198535"), Decimal("0.107041801465")]]
    assert repr(w) == "RoundedArray([[0.892958198535, 0.107041801465]], digits=12)"
    b = r.weights.enclose(30)
    assert isinstance(b, BallArray) and isinstance(b[0, 1], Ball)
    assert b[0, 0].narrower_than(Fraction(1, 10**30))
    assert b.contains(r.weights.evalf(60).to_decimal()).all()
    assert "± " in repr(b) and repr(b).startswith("BallArray([[")


@pytest.mark.parametrize("n", [3, 40])
def test_a_large_array_reprs_summarised(n: int) -> None:
    r = RoundedArray.of(np.arange(n * n, dtype=np.int64).reshape(n, n), np.full((n, n), -2))
    text = repr(r)
    assert ("..." in text) == (n * n > 1000) or n == 40
    assert text.startswith("RoundedArray([[0.00, 0.01")
