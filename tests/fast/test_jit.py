"""Tests for symattn.fast.jit: which path the elementwise work takes."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from symattn.fast import attention_float64, jit


def test_modes_and_their_scope() -> None:
    before = jit.mode()
    with jit.use("numpy"):
        assert jit.mode() == "numpy"
        assert jit.fused_kernels(2**30) is None
        with jit.use("numba"):
            assert jit.fused_kernels(1) is not None
        assert jit.mode() == "numpy"
    assert jit.mode() == before
    with pytest.raises(ValueError, match="mode must be one of"):
        with jit.use("fast"):
            pass


def test_auto_fuses_large_problems_only() -> None:
    with jit.use("auto"):
        assert jit.fused_kernels(jit.AUTO_ENTRIES - 1) is None
        got = jit.fused_kernels(jit.AUTO_ENTRIES)
        assert (got is not None) == jit.numba_installed()


def test_importing_fast_does_not_import_numba() -> None:
    code = "import sys, symattn.fast; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_environment_variable_chooses_and_is_checked() -> None:
    code = "from symattn.fast import jit; print(jit.mode())"
    run = lambda value: subprocess.run(  # noqa: E731
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "SYMATTN_JIT": value},
    )
    assert run("NumPy").stdout.strip() == "numpy"
    bad = run("gpu")
    assert bad.returncode != 0 and "SYMATTN_JIT must be one of" in bad.stderr


def test_both_paths_give_the_same_outputs() -> None:
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((70, 8)) for _ in range(3))
    got = []
    for mode in ("numba", "numpy"):
        with jit.use(mode):
            got.append(attention_float64(q, k, v, is_causal=True))
    assert np.array_equal(got[0], got[1])
