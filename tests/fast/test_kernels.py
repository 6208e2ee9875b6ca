"""Tests for symattn.fast.kernels: the Kernels object the engine hands to every spec."""

from __future__ import annotations

import numpy as np
import pytest

import symattn
from symattn.exact import Kernels
from symattn.fast import KERNELS, kernels


def test_kernels_implement_the_protocol() -> None:
    implementation: Kernels = KERNELS
    for name in (
        "spec_float64",
        "spec_certify",
        "spec_weights_float64",
        "spec_weights_certify",
        "spec_projected_float64",
    ):
        assert callable(getattr(implementation, name))


def test_kernels_call_the_module_functions_at_call_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = kernels.spec_weights_float64
    monkeypatch.setattr(
        kernels, "spec_weights_float64", lambda *a, **k: calls.append("w") or real(*a, **k)
    )
    rng = np.random.default_rng(3)
    q, k, v = (np.round(rng.uniform(-1, 1, (16, 2)), 2) for _ in range(3))
    w = symattn.scaled_dot_product_attention(q, k, v).weights
    assert np.array_equal(w.to_numpy(), w.to_numpy(method="exact"))
    assert calls == ["w"]
