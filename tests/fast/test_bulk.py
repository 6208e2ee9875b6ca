"""Tests for symattn.fast.bulk: certified outputs of binary-float heads in fixed point."""

from __future__ import annotations

import zlib

import flint
import numpy as np
import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.fast import bulk, jit, limbexp
from symattn.fast.bulk import (
    LIMB,
    binary_balls,
    combine_ints,
    exp_tables,
    fixed_binary,
    limb_count,
    limbs_of,
)
from symattn.fast.problem import prepare
from tests.fast.reference import flint_outputs


def _problem(q, k, v, **kw):
    return prepare(
        q,
        k,
        v,
        kw.get("attn_mask"),
        kw.get("is_causal", False),
        kw.get("scale"),
        False,
        True,
        DEFAULT_LIMITS,
    )


def test_the_tables_are_floored_exps_within_two_ulps() -> None:
    nf = 3
    t = exp_tables(nf)
    with flint.ctx.workprec(300):
        for k, c in ((0, 0), (0, 4095), (1, 1), (2, 77), (3, 4095)):
            x = sum(int(d) << (LIMB * i) for i, d in enumerate(t[k, c].tolist()))
            exact = (-(flint.arb(c) * flint.arb(2) ** (-4 - 12 * k))).exp() * 2 ** (LIMB * nf)
            assert abs(exact - x) < 2


def test_combine_ints_is_exact_for_signed_parts() -> None:
    rng = np.random.default_rng(3)
    parts = [
        (rng.integers(-(2**52), 2**52, (4, 5)).astype(np.float64), k) for k in (0, 17, 26, 200)
    ]
    got = combine_ints(parts)
    want = sum(p.astype(np.int64).astype(object) * (1 << k) for p, k in parts)
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize(
    "kind",
    [
        "float32",
        "float64",
        "causal",
        "boolean",
        "scale",
        "d5",
        "zero columns",
        "wide",
        "additive",
        "additive wide",
        "additive big",
    ],
)
@pytest.mark.parametrize("rows", [64, 3])  # one block of rows, or four (the last one short)
def test_fixed_point_balls_hold_an_independent_reference(
    kind: str, rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bulk, "ROWS", rows)
    rng = np.random.default_rng(zlib.crc32(kind.encode()))
    d = 5 if kind == "d5" else 8  # d = 5: an irrational scale 1/sqrt(5)
    dtype = np.float64 if kind == "float64" else np.float32
    s = 9.0 if kind == "wide" else 1.0
    q, k, v = ((rng.standard_normal((11, d)) * s).astype(dtype) for _ in range(3))
    kw: dict = {}
    if kind == "causal":
        kw["is_causal"] = True
    elif kind == "boolean":
        kw["attn_mask"] = rng.random((11, 11)) < 0.6
        kw["attn_mask"][2] = False  # a fully masked row
    elif kind == "scale":
        kw["scale"] = np.float32(0.3)
    elif kind == "zero columns":
        v[:, ::2] = 0
    elif kind.startswith("additive"):  # -inf, finite binary floats; some rows' top logit
        s_add = {"additive": 0.5, "additive wide": 40.0, "additive big": 3e6}[kind]
        mask = (rng.standard_normal((11, 11)) * s_add).astype(np.float32)
        mask[0, 1:] = -np.inf  # one key left in row 0
        mask[3, ::2] = -np.inf
        mask[4, 5] = 2.0**-200 if kind == "additive" else mask[4, 5]  # below 2**-F: floored
        kw["attn_mask"] = mask.astype(np.float64)
    p = _problem(q, k, v, **kw)
    masked = p.masked if p.masked is not None else None
    with jit.use("numba"):
        kernels = jit.limb_kernels(1)
    assert kernels is limbexp
    nf = limb_count(50, 2)
    balls = None
    for limbs in (nf, nf + 1, nf + 3):  # as enclose does: more limbs while too wide
        bo = fixed_binary(p, (), masked, limbs, kernels)
        assert bo is not None
        balls = binary_balls(bo, 50)
        if balls is not None:
            break
    assert balls is not None
    mask = kw.get("attn_mask")
    want = flint_outputs(
        q, k, v, mask=mask, causal=kw.get("is_causal", False), scale=kw.get("scale"), prec=400
    )
    with flint.ctx.workprec(400):
        for ball, ref in zip(balls.reshape(-1), want.reshape(-1), strict=True):
            assert ball.rad() < flint.arb(10) ** -50 / 2
            assert ball.overlaps(ref)
            assert (ball - ref).abs_upper() < flint.arb(10) ** -49


def test_limbs_of_cuts_an_integer_low_first() -> None:
    assert limbs_of(2**60 + 5, 3).tolist() == [5, (2**60 >> 26) & (2**26 - 1), 2**60 >> 52]


@pytest.mark.parametrize("digits", [50, 120, 150])
def test_weights_set_to_zero_count_their_error_at_many_limbs(digits: int) -> None:
    # delta = 257: the weight is set to 0, 2**(F - 369) ulps from exp(-257) once F >= 369
    q, k, v = np.array([[1.0]]), np.array([[0.0], [-257.0]]), np.array([[0.0], [1.0]])
    with jit.use("numba"):
        from symattn.fast import attention_enclose

        got = attention_enclose(q, k, v, digits=digits, scale=1.0)
    want = flint_outputs(q, k, v, scale=1.0, prec=1200)
    with flint.ctx.workprec(1200):
        assert got[0, 0].overlaps(want[0, 0])
        assert got[0, 0].rad() < flint.arb(10) ** -digits / 2


def test_an_additive_mask_whose_row_constant_is_too_low_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the kernel checks delta = g (M_i - s_ij) + c_i - a_ij >= 0 exactly: a c_i below the
    # row's largest logit gives None (the Arb path), never a wrong weight
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((5, 4)) for _ in range(3))
    mask = rng.standard_normal((5, 5)) * 0.5
    p = _problem(q, k, v, attn_mask=mask)
    with jit.use("numba"):
        kernels = jit.limb_kernels(1)
    assert fixed_binary(p, (), p.masked, 4, kernels) is not None
    tops = bulk._row_tops

    def low(*args):
        top, c, big = tops(*args)
        return top, c - 2.0**-20, big

    monkeypatch.setattr(bulk, "_row_tops", low)
    assert fixed_binary(p, (), p.masked, 4, kernels) is None
