"""The engine hands large problems to the batched certified kernels (fast/): routed results equal
the per-entry exact path, and only large problems are routed; exact integer products."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import symattn
from symattn import InputError
from symattn.exact import inv_sqrt

Q1, K1, V1 = [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]]
X001 = [[0.55, 0.20, -0.11, 0.44], [0.62, -0.10, 0.24, -0.31], [0.19, -0.37, 0.28, 0.06]]
WQ = [[1, 0], [0, 1], [1, 1], [0, -1]]
WK = [[0.5, 0], [0, 0.5], [0.5, 0.5], [0, -0.5]]
WV = [[0.1, 0.2], [0.2, 0.1], [-0.1, 0.3], [0.3, -0.2]]


# --------------------------------------------------------------------------- routed fast paths


def _routing_case(name: str) -> tuple[tuple, dict]:
    """Inputs for one routed-vs-per-entry comparison (small, so the per-entry path is quick)."""
    rng = np.random.default_rng(sum(map(ord, name)))

    def two(*shape: int) -> np.ndarray:
        return np.round(rng.uniform(-1, 1, shape), 2)

    if name == "plain":
        return (two(6, 4), two(7, 4), two(7, 3)), {}
    if name == "causal":
        return (two(6, 4), two(6, 4), two(6, 2)), {"is_causal": True}
    if name == "bool_mask_fully_masked_row":
        mask = rng.random((5, 6)) < 0.6
        mask[2] = False
        return (two(5, 3), two(6, 3), two(6, 2)), {"attn_mask": mask}
    if name == "additive_mask":
        mask = np.round(rng.uniform(-2, 2, (5, 6)), 1)
        mask[1, ::2] = -np.inf
        mask[3] = -np.inf
        return (two(5, 3), two(6, 3), two(6, 2)), {"attn_mask": mask}
    if name == "gqa_batch":
        return (two(2, 4, 3, 2), two(2, 2, 5, 2), two(2, 2, 5, 3)), {"enable_gqa": True}
    if name == "broadcast_batch":
        return (two(3, 4), two(2, 5, 4), two(2, 5, 3)), {"is_causal": False}
    if name == "scores_pm_1000":
        q = np.array([[1000.0], [-1000.0], [0.5], [999.99]])
        k = np.array([[1.0], [-1.0], [0.99], [0.0]])
        return (q, k, two(4, 3)), {"scale": 1}
    if name == "equal_scores_ties":  # outputs are column means, exactly at rounding boundaries
        v = np.array([[0.25, 0.135, 1.0, -0.125], [0.0, 0.135, 0.0, -0.125]])
        return (np.zeros((3, 2)), np.zeros((2, 2)), v), {}
    if name == "near_ties":  # scores that differ by tiny amounts
        q = np.array([[1.0, 1e-9], [1.0, -1e-9], [0.5, 0.5]])
        k = np.array([[1.0, 0.0], [1.0, 1e-12], [0.0, 1.0]])
        return (q, k, np.array([[0.5, 1.0], [0.5, -1.0], [0.25, 0.0]])), {"scale": 2}
    if name == "surd_scale":
        return (two(4, 3), two(5, 3), two(5, 2)), {"scale": inv_sqrt(3)}
    raise AssertionError(name)


ROUTING_CASES = [
    "plain",
    "causal",
    "bool_mask_fully_masked_row",
    "additive_mask",
    "gqa_batch",
    "broadcast_batch",
    "scores_pm_1000",
    "equal_scores_ties",
    "near_ties",
    "surd_scale",
]


@pytest.mark.parametrize("name", ROUTING_CASES)
def test_routed_to_numpy_equals_per_entry(name: str) -> None:
    args, kw = _routing_case(name)
    out = symattn.scaled_dot_product_attention(*args, **kw).output
    fast, exact = out.to_numpy(method="fast"), out.to_numpy(method="exact")
    assert fast.dtype == exact.dtype == np.float64
    assert fast.shape == exact.shape
    assert np.array_equal(fast, exact)


@pytest.mark.parametrize("name", ROUTING_CASES)
@pytest.mark.parametrize(("how", "n"), [("evalf", 3), ("evalf", 17), ("round", 2), ("round", 6)])
def test_routed_decimals_equal_per_entry(name: str, how: str, n: int) -> None:
    args, kw = _routing_case(name)
    out = symattn.scaled_dot_product_attention(*args, **kw).output
    fast, exact = getattr(out, how)(n, method="fast"), getattr(out, how)(n, method="exact")
    assert fast.shape == exact.shape
    assert [str(x) for x in fast.reshape(-1)] == [str(x) for x in exact.reshape(-1)]


@pytest.mark.parametrize("name", ROUTING_CASES)
def test_routed_enclosures_are_certified(name: str) -> None:
    args, kw = _routing_case(name)
    out = symattn.scaled_dot_product_attention(*args, **kw).output
    fast, exact = out.enclose(25, method="fast"), out.enclose(40, method="exact")
    for f, e in zip(fast.reshape(-1), exact.reshape(-1), strict=True):
        assert f.width < Fraction(1, 10**25)
        assert f.lower <= e.upper and e.lower <= f.upper  # both contain the true value
    for idx in np.ndindex(*out.shape):
        q = out.rational(idx)
        if q is not None:
            assert q in fast[idx]


@pytest.mark.parametrize("name", ROUTING_CASES)
def test_routed_weights_to_numpy_equals_per_entry(name: str) -> None:
    args, kw = _routing_case(name)
    w = symattn.scaled_dot_product_attention(*args, **kw).weights
    fast, exact = w.to_numpy(method="fast"), w.to_numpy(method="exact")
    assert fast.dtype == exact.dtype == np.float64
    assert fast.shape == exact.shape == w.shape
    assert np.array_equal(fast, exact)


@pytest.mark.parametrize("name", ROUTING_CASES)
@pytest.mark.parametrize(("how", "n"), [("evalf", 3), ("evalf", 17), ("round", 2), ("round", 6)])
def test_routed_weights_decimals_equal_per_entry(name: str, how: str, n: int) -> None:
    args, kw = _routing_case(name)
    w = symattn.scaled_dot_product_attention(*args, **kw).weights
    fast, exact = getattr(w, how)(n, method="fast"), getattr(w, how)(n, method="exact")
    assert fast.shape == exact.shape
    assert [str(x) for x in fast.reshape(-1)] == [str(x) for x in exact.reshape(-1)]


@pytest.mark.parametrize("name", ROUTING_CASES)
def test_routed_weights_enclosures_are_certified(name: str) -> None:
    args, kw = _routing_case(name)
    w = symattn.scaled_dot_product_attention(*args, **kw).weights
    fast, exact = w.enclose(25, method="fast"), w.enclose(40, method="exact")
    for f, e in zip(fast.reshape(-1), exact.reshape(-1), strict=True):
        assert f.width < Fraction(1, 10**25)
        assert f.lower <= e.upper and e.lower <= f.upper  # both contain the true value
    for idx in np.ndindex(*w.shape):
        q = w.rational(idx)
        if q is not None:
            assert q in fast[idx]


def test_routed_weights_decimal_tie_is_decided_exactly() -> None:
    # eight equal scores: every weight is exactly 1/8 = 0.125, a tie for two decimals
    w = symattn.scaled_dot_product_attention(
        np.ones((2, 3)), np.ones((8, 3)), np.ones((8, 1))
    ).weights
    assert [str(x) for x in w.round(2, method="fast")[0]] == ["0.12"] * 8
    assert [str(x) for x in w.evalf(2, method="fast")[1]] == ["0.12"] * 8
    assert w.to_numpy(method="fast").tolist() == [[0.125] * 8] * 2


@pytest.mark.parametrize(("n", "routed"), [(8, False), (16, True)])
def test_auto_routes_large_weights_only(
    monkeypatch: pytest.MonkeyPatch, n: int, routed: bool
) -> None:
    from symattn.fast import kernels as fast

    calls: list[str] = []
    real_f64, real_cert = fast.spec_weights_float64, fast.spec_weights_certify
    monkeypatch.setattr(
        fast, "spec_weights_float64", lambda *a, **k: calls.append("f64") or real_f64(*a, **k)
    )
    monkeypatch.setattr(
        fast, "spec_weights_certify", lambda *a, **k: calls.append("cert") or real_cert(*a, **k)
    )
    rng = np.random.default_rng(n)
    q, k, v = (np.round(rng.uniform(-1, 1, (n, 2)), 2) for _ in range(3))
    w = symattn.scaled_dot_product_attention(q, k, v, is_causal=True).weights
    got = w.to_numpy()
    w.evalf(5)
    assert calls == (["f64", "cert"] if routed else [])
    assert np.array_equal(got, w.to_numpy(method="exact"))


def _multi_head_case(name: str) -> symattn.AttentionResult:
    rng = np.random.default_rng(sum(map(ord, name)))
    x = np.round(rng.uniform(-1, 1, (5, 4)), 2)
    wq, wk, wv, wo = (np.round(rng.uniform(-1, 1, (4, 4)), 2) for _ in range(4))
    if name == "zero_and_tie_columns":  # exact zeros, and column means at a rounding boundary
        wo[:, 0] = 0
        wq[:] = 0  # equal scores: every head output is the mean of its values
        wo[:, 1] = [0.5, 0.25, 0, 0]
    kw: dict = {"is_causal": True} if name == "causal" else {}
    return symattn.multi_head_attention(
        x, wq, wk, wv, wo if name != "no_wo" else None, num_heads=2, **kw
    )


@pytest.mark.parametrize("name", ["plain", "causal", "zero_and_tie_columns", "no_wo"])
def test_routed_multi_head_to_numpy_equals_per_entry(name: str) -> None:
    out = _multi_head_case(name).output
    fast, exact = out.to_numpy(method="fast"), out.to_numpy(method="exact")
    assert fast.dtype == exact.dtype == np.float64 and fast.shape == exact.shape
    assert np.array_equal(fast, exact) and np.array_equal(np.signbit(fast), np.signbit(exact))
    if name == "zero_and_tie_columns":
        assert not fast[:, 0].any()
    if name == "no_wo":  # the concatenated head outputs: decimals routed as a reshape too
        assert [str(x) for x in out.evalf(6, method="fast").reshape(-1)] == [
            str(x) for x in out.evalf(6, method="exact").reshape(-1)
        ]


def test_multi_head_output_is_routed(monkeypatch: pytest.MonkeyPatch) -> None:
    from symattn.fast import kernels as fast

    calls: list[int] = []
    real = fast.spec_projected_float64
    monkeypatch.setattr(
        fast, "spec_projected_float64", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    rng = np.random.default_rng(3)
    x = np.round(rng.uniform(-1, 1, (12, 4)), 2)
    wq, wk, wv, wo = (np.round(rng.uniform(-1, 1, (4, 4)), 2) for _ in range(4))
    out = symattn.multi_head_attention(x, wq, wk, wv, wo, num_heads=2).output
    got = out.to_numpy()
    assert calls == [1]
    assert np.array_equal(got, out.to_numpy(method="exact"))


def test_equal_score_ties_are_decided_exactly_by_the_fallback() -> None:
    args, kw = _routing_case("equal_scores_ties")
    out = symattn.scaled_dot_product_attention(*args, **kw).output
    assert [str(x) for x in out.round(2, method="fast")[0]] == ["0.12", "0.14", "0.50", "-0.12"]


@pytest.mark.parametrize(("n", "routed"), [(8, False), (16, True), (64, True)])
def test_auto_routes_large_outputs_only(
    monkeypatch: pytest.MonkeyPatch, n: int, routed: bool
) -> None:
    from symattn.fast import kernels as fast

    calls: list[str] = []
    real_f64, real_cert = fast.spec_float64, fast.spec_certify
    monkeypatch.setattr(
        fast, "spec_float64", lambda *a, **k: calls.append("f64") or real_f64(*a, **k)
    )
    monkeypatch.setattr(
        fast, "spec_certify", lambda *a, **k: calls.append("cert") or real_cert(*a, **k)
    )
    rng = np.random.default_rng(n)
    q, k, v = (np.round(rng.uniform(-1, 1, (n, 2)), 2) for _ in range(3))
    r = symattn.scaled_dot_product_attention(q, k, v, is_causal=True, read_floats="shortest")
    got = r.to_numpy()
    r.evalf(5)
    assert calls == (["f64", "cert"] if routed else [])
    assert np.array_equal(got, fast.attention_float64(q, k, v, is_causal=True, exact_float=False))


def test_unknown_method_is_refused() -> None:
    r = symattn.scaled_dot_product_attention(Q1, K1, V1)
    with pytest.raises(InputError, match="method"):
        r.output.to_numpy(method="quick")
    with pytest.raises(InputError, match="method"):
        r.weights.evalf(3, method="quick")


@pytest.mark.parametrize("seed", range(3))
def test_integer_products_are_exact(seed: int) -> None:
    from symattn.exact import int_matmul

    rng = np.random.default_rng(seed)
    big = [int(x) for x in rng.integers(-(2**62), 2**62, 12)]
    a = np.array([b * (1 << 40) + 3 for b in big[:6]], dtype=object).reshape(2, 3)
    b = np.array(big[6:], dtype=object).reshape(3, 2)
    small_a, small_b = rng.integers(-1000, 1000, (4, 5)), rng.integers(-(2**40), 2**40, (5, 3))
    for x, y in ((a, b), (small_a, small_b), (small_a[:, :2], small_b[:2] * 2**20)):
        want = [
            [sum(int(x[i, t]) * int(y[t, j]) for t in range(x.shape[1])) for j in range(y.shape[1])]
            for i in range(x.shape[0])
        ]
        assert [[int(v) for v in row] for row in int_matmul(x, y)] == want


def test_scores_are_stored_as_integers_with_fraction_values() -> None:
    from symattn.exact import LazyTensor, ScaledIntTensor

    r = symattn.scaled_dot_product_attention(
        [[0.5, Fraction(1, 3)]], [[0.25, 3], [1, 1]], [[1], [2]], scale=1
    )
    s = r.scores
    assert isinstance(s, LazyTensor) and "value" not in vars(s)  # built when first read
    assert isinstance(s.value, ScaledIntTensor)
    assert list(s.values[0]) == [Fraction(1, 8) + 1, Fraction(1, 2) + Fraction(1, 3)]
    assert list(s.exact()[0]) == [s.rational((0, 0)), s.rational((0, 1))]
    assert not s.values.flags.writeable


@pytest.mark.parametrize("q", [[[1e150, 2]], [[1e200, 2]]])
def test_astronomical_scores_give_limit_errors_only_where_digits_are_asked(q: list) -> None:
    from symattn.errors import LimitError

    r = symattn.scaled_dot_product_attention(q, [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    assert r.output.evalf(6).tolist() == [[Decimal("10.0000"), Decimal("20.0000")]]
    assert r.weights.to_numpy().tolist() == [[1.0, 0.0]]
    with pytest.raises(LimitError, match="beyond the range"):
        r.exp_scores.evalf(6)
