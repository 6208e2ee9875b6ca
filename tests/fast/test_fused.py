"""Tests for symattn.fast.fused: the fused kernels give the numpy path's doubles, bit for bit."""

from __future__ import annotations

import os
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.config import DEFAULT_LIMITS
from symattn.fast import fused, jit
from symattn.fast.exps import iter_exps, weight_slices
from symattn.fast.float64 import block_outputs, setup
from symattn.fast.problem import Problem, prepare
from symattn.fast.scores import score_levels
from symattn.fast.tables import TABLES
from symattn.fast.workspace import Workspace
from tests.conftest import require_module
from tests.fast.reference import random_inputs


def _problem(
    kind: str, mask_kind: str, L: int, S: int, E: int, seed: int, scale: object
) -> Problem:
    rng = np.random.default_rng(seed)
    q, k, v, mask = random_inputs(rng, kind, mask_kind, L, S, E)
    decimal = kind == "decimals"
    return prepare(q, k, v, mask, mask_kind == "causal", scale, False, not decimal, DEFAULT_LIMITS)


def _numpy_block(p: Problem, rows: slice) -> tuple[np.ndarray, ...]:
    g, direct = setup(p)
    assert g is not None
    R, S = rows.stop - rows.start, p.k.shape[-2]
    slabs, rte, n_active = np.empty((p.na, R, S)), np.empty(R), np.empty(R, dtype=np.int64)
    with np.errstate(all="ignore"):  # NaN rows of the "huge" kind
        for rs, x in iter_exps(p, (), rows, g, TABLES, direct, Workspace()):
            for s, a in enumerate(weight_slices(x.eh, x.el, p.aw, p.na)):
                slabs[s][rs] = a
            rte[rs], n_active[rs] = x.row_t_err, x.n_active
    return slabs, rte, n_active


def _fused_block(p: Problem, rows: slice) -> tuple[np.ndarray, ...] | None:
    g, direct = setup(p)
    assert g is not None
    R, S = rows.stop - rows.start, p.k.shape[-2]
    out = (np.empty((p.na, R, S)), np.empty(R), np.empty(R, dtype=np.int64))
    with np.errstate(all="ignore"):
        lv = score_levels(p.q, p.k, (), rows, Workspace())
    if fused.fill_block(p, (), rows, lv, g, TABLES, direct, out) is None:
        return None
    return out


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit for bit (NaN where NaN: a row beyond the double range, left open either way)."""
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


KINDS = ["float16", "float32", "float64", "bfloat16", "decimals", "wide", "spread", "huge"]
MASKS = ["none", "causal", "boolean", "additive"]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(KINDS),
    st.sampled_from(MASKS),
    st.integers(1, 5),
    st.integers(1, 37),  # vector bodies and remainders of the compiled loops
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, 1, -0.75, "third"]),
)
def test_fused_block_is_the_numpy_block_bit_for_bit(
    kind: str, mask_kind: str, L: int, S: int, E: int, seed: int, scale: object
) -> None:
    p = _problem(kind, mask_kind, L, S, E, seed, Fraction(1, 3) if scale == "third" else scale)
    if setup(p)[0] is None:
        return  # out of double range: neither path runs
    rows = slice(0, L)
    got = _fused_block(p, rows)
    if got is None:  # line exponents below the normal range: only the numpy path (ldexp)
        assert kind == "spread"
        return
    for a, b in zip(got, _numpy_block(p, rows), strict=True):
        assert _same(a, b)


@pytest.mark.parametrize("mask_kind", MASKS)
@pytest.mark.parametrize("kind", KINDS)
def test_block_outputs_agree_between_the_paths(kind: str, mask_kind: str) -> None:
    # a block as the benchmark runs it: 40 rows, 300 keys, every decision input compared
    p = _problem(kind, mask_kind, 40, 300, 16, 5, None)
    g, direct = setup(p)
    if g is None:
        return
    got = []
    for mode in ("numba", "numpy"):
        with jit.use(mode), np.errstate(all="ignore"):
            o = block_outputs(p, (), slice(0, 40), g, TABLES, direct, Workspace())
        got.append((o.oh, o.ol, o.bound, o.valid, o.zero_rows))
    for a, b in zip(*got, strict=True):
        assert _same(a, b)


def test_line_exponents_below_the_normal_range_are_left_to_numpy() -> None:
    q = np.array([[2.0**-1060, 2.0**-1070], [1.0, 2.0]])  # row 0 scaled by 2**-1060
    k = np.array([[2.0**-20, 1.0], [1.0, 3.0]])
    p = prepare(q, k, k, None, False, None, False, True, DEFAULT_LIMITS)
    assert _fused_block(p, slice(0, 2)) is None


def test_self_check_passes() -> None:
    assert fused.self_check()


def test_compiled_on_ci() -> None:
    # CI installs the extra `fast`: the kernels must be the compiled ones there
    if os.environ.get("CI"):
        require_module("numba")
        assert fused.COMPILED
    else:
        assert fused.COMPILED == (jit.numba_installed())
