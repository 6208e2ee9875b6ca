"""Tests for symattn.fast.limbexp: fixed-point limb products and their error bounds."""

from __future__ import annotations

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS
from symattn.fast import limbexp
from symattn.fast.bulk import fixed_binary
from symattn.fast.limbexp import LIMB, _mul, error_ulps
from symattn.fast.limbs import shifted_product
from symattn.fast.problem import prepare


def _value(limbs: np.ndarray, e: int) -> int:
    return sum(int(x) << (LIMB * i) for i, x in enumerate(limbs[:, e].tolist()))


def test_products_are_floored_within_their_bound() -> None:
    rng = np.random.default_rng(4)
    nx, ny, shift, n_out, nb = 5, 4, 3, 6, 7
    x = rng.integers(0, 2**LIMB, (nx, nb)).astype(np.uint32)
    y = rng.integers(0, 2**LIMB, (ny, nb)).astype(np.uint32)
    out = np.zeros((n_out, nb), dtype=np.uint32)
    acc = np.zeros((2, nb), dtype=np.uint64)
    assert _mul(x, y, shift, out, acc, nb) == 0
    for e in range(nb):
        exact = _value(x, e) * _value(y, e)
        got = _value(out, e)
        floor = exact >> (LIMB * shift)
        assert floor - (min(nx, ny) + 2) <= got <= floor


def test_a_product_too_long_for_its_output_is_reported() -> None:
    x = np.full((3, 1), 2**LIMB - 1, dtype=np.uint32)
    out = np.zeros((2, 1), dtype=np.uint32)
    assert _mul(x, x, 1, out, np.zeros((2, 1), dtype=np.uint64), 1) != 0


def test_the_error_bound_grows_with_the_terms_and_the_scale() -> None:
    assert error_ulps(7, 1, 4, 1) < error_ulps(7, 1, 9, 1) < error_ulps(7, 1, 9, 3)


def test_the_kernel_weights_lie_within_their_error_bound() -> None:
    rng = np.random.default_rng(9)
    q, k, v = (rng.standard_normal((6, 4)).astype(np.float32) for _ in range(3))
    p = prepare(q, k, v, None, False, None, False, True, DEFAULT_LIMITS)
    captured: dict = {}

    class Spy:
        @staticmethod
        def error_ulps(*args):
            captured["err"] = limbexp.error_ulps(*args)
            return captured["err"]

        @staticmethod
        def weights_kernel(*args):
            status = limbexp.weights_kernel(*args)
            captured["w"] = args[-1].copy()
            return status

    nf = 3
    bo = fixed_binary(p, (), None, nf, Spy)
    assert bo is not None
    w = captured["w"]
    with flint.ctx.workprec(400):
        qa = [[flint.arb(float(x)) for x in row] for row in q.tolist()]
        ka = [[flint.arb(float(x)) for x in row] for row in k.tolist()]
        s = [
            [sum((a * b for a, b in zip(qi, kj, strict=True)), flint.arb(0)) / 2 for kj in ka]
            for qi in qa
        ]
        for i in range(6):
            first = sum(int(w[c, i, 0]) << (LIMB * c) for c in range(nf + 1))
            for j in range(6):
                got = sum(int(w[c, i, j]) << (LIMB * c) for c in range(nf + 1))
                # W_ij = 2**F exp(t_ij - M_i) and W_i0 alike, each within err: their ratio
                ratio = flint.arb(got) / (s[i][j] - s[i][0]).exp()
                assert abs(ratio - first) <= 2 * captured["err"] + 2


def test_table_products_are_the_exact_floors() -> None:
    rng = np.random.default_rng(6)
    a0 = rng.integers(0, 2**24, (5, 4)).astype(np.uint32)
    a1 = rng.integers(0, 2**24, (3, 4)).astype(np.uint32)
    lo, hi = np.array([0, 4, 2, 3]), np.array([2, 0, 1, 1])
    out = np.zeros((4, 6))
    assert limbexp.table_kernel(a0, a1, lo, hi, 2, out) == 0

    def value(d: np.ndarray) -> int:
        return sum(int(x) << (24 * i) for i, x in enumerate(d.tolist()))

    for u in range(4):
        assert value(out[u]) == (value(a0[lo[u]]) * value(a1[hi[u]])) >> 48
    assert limbexp.table_kernel(a0, a1, lo, hi, 2, np.zeros((4, 3))) == 1  # too short


def test_centre_digits_equal_numpys_shifted_product() -> None:
    rng = np.random.default_rng(8)
    table = rng.integers(0, 2**24, (7, 5)).astype(np.uint32)
    inv = rng.integers(0, 7, (3, 300))
    recip = rng.integers(0, 2**24, (3, 4)).astype(np.uint64)
    drop = 4
    want = shifted_product(
        [table[:, s].astype(np.float64)[inv] for s in range(5)],
        [recip[:, u].astype(np.float64)[:, None] for u in range(4)],
        drop,
    )
    out = np.zeros((3, 300, want.shape[-1] + 2), dtype=np.int64)
    limbexp.centre_kernel(table, inv, recip, drop, 24, out)
    assert (out[:, :, : want.shape[-1]] == want).all() and not out[:, :, want.shape[-1] :].any()


def test_plain_python_kernels_give_the_compiled_weights() -> None:
    # without numba the kernels run as plain Python: the same integers
    rng = np.random.default_rng(12)
    q, k, v = (rng.standard_normal((5, 3)) for _ in range(3))
    p = prepare(q, k, v, None, True, None, False, True, DEFAULT_LIMITS)
    got: list[np.ndarray] = []

    def spy(kernel):
        class Spy:
            error_ulps = staticmethod(limbexp.error_ulps)

            @staticmethod
            def weights_kernel(*args):
                status = kernel(*args)
                got.append(args[-1].copy())
                return status

        return Spy

    compiled = limbexp.weights_kernel
    plain = getattr(compiled, "py_func", compiled)
    a = fixed_binary(p, (), p.masked, 3, spy(compiled))
    b = fixed_binary(p, (), p.masked, 3, spy(plain))
    assert a is not None and b is not None
    assert (got[0] == got[1]).all() and a.num.tolist() == b.num.tolist()


def test_weights_below_exp_minus_256_are_marked_zero() -> None:
    q = np.array([[30.0]])
    k = np.array([[10.0], [9.0], [0.0], [-10.0]])  # deltas 0, 30, 300, 600
    p = prepare(q, k, k, None, False, None, False, True, DEFAULT_LIMITS)
    got: dict = {}

    class Spy:
        error_ulps = staticmethod(limbexp.error_ulps)

        @staticmethod
        def weights_kernel(*args):
            status = limbexp.weights_kernel(*args)
            got["w"] = args[-1].copy()
            return status

    bo = fixed_binary(p, (), None, 3, Spy)
    assert bo is not None
    w = got["w"]
    assert w[0, 0, 2] == -1 and w[0, 0, 3] == -1 and (w[1:, 0, 2:] == 0).all()
    assert w[0, 0, 0] >= 0 and w[0, 0, 1] >= 0
    assert bo.num_rad.shape == (1, 1)  # per entry: the two far weights count one ulp each
