"""Tests for symattn.fast.compiled: the kernels, compiled or plain, piece by piece."""

from __future__ import annotations

import numpy as np
import pytest

from symattn.fast import compiled
from symattn.fast.exps import weight_slices


@pytest.mark.parametrize(("aw", "na"), [(45, 1), (43, 2), (29, 3), (22, 4), (18, 5), (14, 7)])
def test_weight_slices_of_every_count(aw: int, na: int) -> None:
    rng = np.random.default_rng(aw)
    eh = rng.uniform(0.0, 2.0, 37)
    eh[:3] = [0.0, 1.0, np.nextafter(2.0, 0.0)]
    el = eh * rng.uniform(-(2.0**-54), 2.0**-54, 37)
    want = weight_slices(eh, el, aw, na)
    slabs = np.empty((na, 2, 37))
    compiled._slices(eh.copy(), el.copy(), 2.0 ** (aw - 1), 2.0**aw, slabs, 1)
    for s in range(na):
        assert np.array_equal(slabs[s, 1], want[s])


def test_the_kernels_are_compiled_when_numba_is_installed() -> None:
    assert compiled.COMPILED == (compiled.numba is not None)
    if compiled.COMPILED:
        assert hasattr(compiled.block, "signatures")  # a numba dispatcher
