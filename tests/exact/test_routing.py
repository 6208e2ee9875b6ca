"""Tests for symattn.exact.routing: when an attention goes to the batched kernels."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symattn.errors import InputError
from symattn.exact import FAST_MIN_SCORES, AttentionSpec, ScaledIntTensor, Surd, route


class _Kernels:  # the protocol needs no behaviour here: routing never calls it
    pass


def _spec(n: int, kernels: object | None = _Kernels()) -> AttentionSpec:
    ints = ScaledIntTensor(np.ones((n, 2), dtype=np.int64))
    return AttentionSpec(ints, ints, ints, Surd(Fraction(1)), None, None, (), kernels)  # type: ignore[arg-type]  # a stand-in kernel


def test_auto_routes_from_fast_min_scores_on() -> None:
    assert FAST_MIN_SCORES == 256
    assert route(_spec(15), "auto") is None
    spec = _spec(16)  # 16 x 16 = 256 scores
    assert route(spec, "auto") == (spec, spec.kernels)
    assert spec.n_scores == 256


def test_fast_exact_and_missing_kernels() -> None:
    assert route(_spec(2), "fast") is not None
    assert route(_spec(64), "exact") is None
    assert route(_spec(64, kernels=None), "fast") is None
    assert route(_spec(0), "fast") is None
    assert route(None, "auto") is None


def test_unknown_method_is_refused() -> None:
    with pytest.raises(InputError, match="method must be"):
        route(None, "quick")
