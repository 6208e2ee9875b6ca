"""Tests for symattn.fast.enclose: certified balls of every output entry."""

from __future__ import annotations

import zlib

import flint
import numpy as np
import pytest

import symattn
from symattn.fast import attention_enclose, enclose, jit


@pytest.mark.parametrize(
    "exact_float", [True, False]
)  # binary: Arb matrices; decimals: fixed-point slices
@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"is_causal": True},
        {"attn_mask": np.array([[0.0, -np.inf, 0.5]] * 3)},
        {"scale": -0.5},
        {"attn_mask": np.array([[True, False, True], [False] * 3, [True] * 3])},
    ],
)
@pytest.mark.parametrize("mode", ["numba", "numpy"])  # compiled kernels, or numpy and Arb
def test_enclosures_contain_the_exact_values(kw: dict, exact_float: bool, mode: str) -> None:
    rng = np.random.default_rng(11)
    q, k, v = (np.round(rng.uniform(-2, 2, (3, 2)), 2) for _ in range(3))
    with jit.use(mode):
        got = attention_enclose(q, k, v, digits=30, exact_float=exact_float, **kw)
    want = symattn.scaled_dot_product_attention(
        q, k, v, exact_float=exact_float, **kw
    ).output.enclose(45, method="exact")
    with flint.ctx.workprec(400):
        for ball, exact in zip(got.reshape(-1), want.reshape(-1), strict=True):
            assert ball.rad() < flint.arb(10) ** -30
            lo = flint.arb(flint.fmpq(exact.lower.numerator, exact.lower.denominator))
            hi = flint.arb(flint.fmpq(exact.upper.numerator, exact.upper.denominator))
            assert ball.overlaps(lo.union(hi))
            assert (ball - lo).abs_upper() < flint.arb(10) ** -29


def test_enclosures_of_fully_masked_rows_are_zero() -> None:
    q = np.ones((2, 2))
    mask = np.array([[False, False], [True, False]])
    got = attention_enclose(q, q, q, attn_mask=mask, digits=20)
    assert got[0, 0].is_zero() and got[0, 1].is_zero()


def test_empty_heads_give_empty_or_zero_outputs() -> None:
    # no keys: safe softmax gives zeros (as attention_float64 does); no queries: no rows
    no_keys = attention_enclose(np.ones((2, 2)), np.ones((0, 2)), np.ones((0, 3)), digits=10)
    assert no_keys.shape == (2, 3) and all(x.is_zero() for x in no_keys.reshape(-1))
    no_queries = attention_enclose(np.ones((0, 2)), np.ones((2, 2)), np.ones((2, 3)), digits=10)
    assert no_queries.shape == (0, 3)


def _binary_case(kind: str, n: int, rng: np.random.Generator) -> tuple[list[np.ndarray], dict]:
    dtype = {"float64": np.float64, "float16": np.float16}.get(kind, np.float32)
    s = 12.0 if kind == "wide" else 1.0
    q, k, v = ((rng.standard_normal((n, 8)) * s).astype(dtype) for _ in range(3))
    kw: dict = {}
    if kind == "causal":
        kw["is_causal"] = True
    elif kind == "additive":
        mask = (rng.standard_normal((n, n)) * 0.25).astype(np.float32)
        mask[0, 1:] = -np.inf
        kw["attn_mask"] = mask
    elif kind == "boolean":
        kw["attn_mask"] = rng.random((n, n)) < 0.7
        kw["attn_mask"][1] = False  # a fully masked row
    elif kind == "zero columns":
        v[:, ::2] = 0
    elif kind == "scale":
        kw["scale"] = np.float32(0.3)
    return [q, k, v], kw


@pytest.mark.parametrize(
    "kind",
    [
        "float32",
        "float64",
        "float16",
        "causal",
        "additive",
        "boolean",
        "wide",
        "zero columns",
        "scale",
    ],
)
@pytest.mark.parametrize("mode", ["numba", "numpy"])  # fixed-point kernels, or Arb matrices
def test_binary_inputs_against_an_independent_80_digit_reference(
    kind: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fast.reference import flint_outputs

    rng = np.random.default_rng(zlib.crc32(kind.encode()))
    (q, k, v), kw = _binary_case(kind, 12, rng)
    arb_heads: list[int] = []
    arb_path = enclose._enclose_binary
    monkeypatch.setattr(enclose, "_enclose_binary", lambda *a: arb_heads.append(1) or arb_path(*a))
    with jit.use(mode):
        got = attention_enclose(q, k, v, digits=50, **kw)
    # the path under test: the fixed-point kernels with numba (additive masks too), the Arb
    # matrices without
    assert bool(arb_heads) == (mode == "numpy")
    mask = kw.get("attn_mask")
    want = flint_outputs(
        q, k, v, mask=mask, causal=kw.get("is_causal", False), scale=kw.get("scale"), prec=400
    )
    with flint.ctx.workprec(400):
        for ball, ref in zip(got.reshape(-1), want.reshape(-1), strict=True):
            assert ball.rad() < flint.arb(10) ** -50 / 2
            assert ball.overlaps(ref)  # the true value is in both: 0 wrong certified values
            assert (ball - ref).abs_upper() < flint.arb(10) ** -49


def test_binary_inputs_batched_and_grouped_heads() -> None:
    from tests.fast.reference import flint_outputs

    rng = np.random.default_rng(5)
    q = rng.standard_normal((2, 4, 5, 3)).astype(np.float32)
    k, v = (rng.standard_normal((2, 2, 6, 3)).astype(np.float32) for _ in range(2))
    got = attention_enclose(q, k, v, enable_gqa=True, digits=40)
    assert got.shape == (2, 4, 5, 3)
    with flint.ctx.workprec(300):
        for b in range(2):
            for h in range(4):
                want = flint_outputs(q[b, h], k[b, h // 2], v[b, h // 2])
                for ball, ref in zip(got[b, h].reshape(-1), want.reshape(-1), strict=True):
                    assert ball.overlaps(ref) and ball.rad() < flint.arb(10) ** -40
