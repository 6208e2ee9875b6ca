"""Many-digit products in numpy digits, against Python integers."""

from __future__ import annotations

import random

import numpy as np
import pytest

from symattn.exact import LIMB_BITS, ints_to_limbs, limbs_to_ints
from symattn.fast.limbs import shifted_product


@pytest.mark.parametrize("bits", [30, 200, 700])
def test_shifted_product_is_the_floor_or_one_less(bits: int) -> None:
    rng = random.Random(bits)
    xs = [rng.getrandbits(bits) for _ in range(60)]
    ys = [rng.getrandbits(bits + 20) for _ in range(60)]
    a, b = ints_to_limbs(xs), ints_to_limbs(ys)
    drop = bits // LIMB_BITS
    got = shifted_product(
        [a[:, s].astype(np.float64) for s in range(a.shape[1])],
        [b[:, u].astype(np.float64) for u in range(b.shape[1])],
        drop,
    )
    for x, y, g in zip(xs, ys, limbs_to_ints(got), strict=True):
        exact = (x * y) >> (LIMB_BITS * drop)
        assert exact - 1 <= g <= exact
