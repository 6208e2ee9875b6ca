"""Tests for symattn.fast.problem: torch-style arguments and engine specs as one problem."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import symattn
from symattn.config import DEFAULT_LIMITS
from symattn.errors import InputError, ShapeError
from symattn.exact import inv_sqrt
from symattn.fast import attention_float64
from symattn.fast.problem import (
    DROP_BITS,
    WEIGHT_BITS,
    Problem,
    gamma,
    prepare,
    problem_of,
    pv_pairs,
    pv_plan,
)
from tests.conftest import require_module

F = Fraction


def _prepare(q: object, k: object, v: object, **kw: object) -> Problem:
    return prepare(
        q,
        k,
        v,
        kw.get("attn_mask"),
        bool(kw.get("is_causal", False)),
        kw.get("scale"),
        bool(kw.get("enable_gqa", False)),
        True,
        DEFAULT_LIMITS,
    )


@pytest.mark.parametrize("vbits", [1, 7, 24, 40, 60, 104])
def test_pv_plan_leaves_room_and_precision(vbits: int) -> None:
    for keys in (1, 100, 1024, 4096):
        aw, na, vw = pv_plan(keys, vbits)
        assert keys * (2**aw - 1) * (2**vw - 1) < 2**53
        assert aw * na - 1 >= WEIGHT_BITS
        nv = -(-vbits // vw)
        for s in range(na):  # the top V slice always meets every weight slice
            assert (s, nv - 1) in pv_pairs(aw, na, vw, nv) or aw * s >= DROP_BITS


def test_prepare_reads_scale_masks_and_batches() -> None:
    q = np.ones((2, 3, 4))
    p = _prepare(q, q, q, attn_mask=np.array([[0.0, -np.inf, 0.5]] * 3))
    assert p.batch == (2,) and p.scale == inv_sqrt(4) and p.gamma_surd == inv_sqrt(4)
    assert p.masked is not None and p.masked[1, 0].tolist() == [False, True, False]
    assert p.add is not None and p.add.ah[0, 2, 2] == 0.5 and p.add.rel == 0
    causal = _prepare(q, q, q, is_causal=True)
    assert causal.masked is not None and causal.masked[0, 0].tolist() == [False, True, True]
    assert _prepare(q, q, q, attn_mask=np.zeros((3, 3))).add is None
    assert gamma(p)[0] == 0.5


@pytest.mark.parametrize(
    ("args", "kw", "error", "match"),
    [
        ((np.ones(3), np.ones((2, 3)), np.ones((2, 3))), {}, ShapeError, "at least 2"),
        ((np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 3))), {}, ShapeError, "incompatible"),
        (
            (np.ones((3, 2, 2)), np.ones((2, 2, 2)), np.ones((2, 2, 2))),
            {"enable_gqa": True},
            ShapeError,
            "divisible",
        ),
        (
            (np.ones((2, 2)),) * 3,
            {"is_causal": True, "attn_mask": np.ones((2, 2), dtype=bool)},
            InputError,
            "cannot both",
        ),
        ((np.ones((2, 2)),) * 3, {"attn_mask": np.ones((3, 3))}, ShapeError, "broadcast"),
    ],
)
def test_prepare_refuses(args: tuple, kw: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        _prepare(*args, **kw)


def test_problem_of_an_engine_spec_is_the_same_problem() -> None:
    rng = np.random.default_rng(1)
    q, k, v = (np.round(rng.uniform(-1, 1, (16, 2)), 2) for _ in range(3))
    r = symattn.scaled_dot_product_attention(q, k, v, exact_float=False)
    spec = r.output.attention  # type: ignore[attr-defined]  # the output is a MatMulTensor
    p = problem_of(spec)
    direct = prepare(q, k, v, None, False, None, False, False, DEFAULT_LIMITS)
    assert p.batch == direct.batch and p.scale == direct.scale
    everything = (slice(None), slice(None))
    for a, b in ((p.q, direct.q), (p.v, direct.v)):
        assert a.source.fractions(everything).tolist() == b.source.fractions(everything).tolist()
    assert [x.tolist() for x in p.v.slices] == [x.tolist() for x in direct.v.slices]


def test_decimal_masks_are_double_doubles_within_their_bound() -> None:
    q = np.ones((2, 2))
    p = _prepare(q, q, q, attn_mask=[[Fraction(1, 10), Fraction(-1, 3)], [0, "-inf"]])
    assert p.add is not None and p.masked is not None and p.masked[1].tolist() == [False, True]
    for (i, j), want in (((0, 0), F(1, 10)), ((0, 1), F(-1, 3)), ((1, 1), F(0))):
        got = F(float(p.add.ah[i, j])) + F(float(p.add.al[i, j]))
        assert abs(got - want) <= abs(want) * F(p.add.rel)


def test_torch_masks_are_read_as_the_engine_reads_them() -> None:
    torch = require_module("torch")
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((3, 2)) for _ in range(3))
    mask = torch.tensor([[0.1, 0.0, -float("inf")]] * 3, dtype=torch.float64)
    want = symattn.scaled_dot_product_attention(q, k, v, attn_mask=mask, exact_float=True)
    got = attention_float64(q, k, v, attn_mask=mask)
    assert np.array_equal(got, want.to_numpy(method="exact"))
    boolean = torch.tensor([[True, False, True]] * 3)
    assert np.array_equal(
        attention_float64(q, k, v, attn_mask=boolean),
        attention_float64(q, k, v, attn_mask=boolean.numpy()),
    )
