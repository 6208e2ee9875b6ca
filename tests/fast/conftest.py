"""Fixtures of the tests of symattn.fast.

``both_paths`` (module scope, parametrized) runs a test module once with the fused, compiled
kernels forced (:mod:`symattn.fast.fused`; numba is installed on CI, as the extra ``fast``)
and once with the numpy path forced, for every problem size. numba's on-disk cache of the
compiled kernels goes to a temporary directory, not into the checkout (set before numba is
first imported, which only a fused kernel does).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from symattn.fast import jit

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "symattn-numba-cache"))


@pytest.fixture(scope="module", params=["numba", "numpy"])
def both_paths(request: pytest.FixtureRequest) -> Iterator[str]:
    """The module's tests with the fused kernels (``"numba"``), then with numpy."""
    with jit.use(request.param):
        yield request.param
