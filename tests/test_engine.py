from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symattn
from symattn import InputError, LimitError, NumberError, ShapeError
from symattn.exact import inv_sqrt

from .conftest import require_module

Q1, K1, V1 = [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]]
X001 = [[0.55, 0.20, -0.11, 0.44], [0.62, -0.10, 0.24, -0.31], [0.19, -0.37, 0.28, 0.06]]
WQ = [[1, 0], [0, 1], [1, 1], [0, -1]]
WK = [[0.5, 0], [0, 0.5], [0.5, 0.5], [0, -0.5]]
WV = [[0.1, 0.2], [0.2, 0.1], [-0.1, 0.3], [0.3, -0.2]]


def prefix(x: Decimal, n: int) -> str:
    return str(x)[:n]


@pytest.mark.parametrize(
    ("scale", "expected"),
    [
        (None, ["12.140836", "22.140836"]),  # default 1/sqrt(E) = 1/sqrt(2): the stated d_k = 2
        (inv_sqrt(2), ["12.140836", "22.140836"]),
        (Fraction(1, 2), ["13.648510", "23.648510"]),  # the author's divisor 2
        (0.5, ["13.648510", "23.648510"]),
    ],
)
def test_seed_000(scale: object, expected: list[str]) -> None:
    r = symattn.scaled_dot_product_attention(Q1, K1, V1, scale=scale)
    assert [str(x) for x in r.output.evalf(8)[0]] == expected


def test_seed_000_stages_exact() -> None:
    r = symattn.scaled_dot_product_attention(Q1, K1, V1)
    assert r.scores.exact().tolist() == [[5, 2]]
    assert [str(x) for x in r.scaled_scores.exact()[0]] == ["5*sqrt(2)/2", "sqrt(2)"]
    assert r.d_k == 2 and r.key_width == 2
    assert str(r.scale) == "sqrt(2)/2"
    assert [str(x) for x in r.weights.round(4)[0]] == ["0.8930", "0.1070"]


def test_seed_001_from_embeddings() -> None:
    r = symattn.self_attention(X001, WQ, WK, WV, labels=["动物", "马路", "它"])
    assert [prefix(x, 7) for x in r.weights.evalf(10)[2]] == ["0.33089", "0.34007", "0.32903"]
    assert [prefix(x, 9) for x in r.output.evalf(12)[2]] == ["0.0318594", "0.1113354"]
    assert r.query.exact()[2].tolist() == [Fraction(47, 100), Fraction(-3, 20)]
    assert r.scores.exact()[2].tolist() == [
        Fraction("0.12965"),
        Fraction("0.16835"),
        Fraction("0.1217"),
    ]
    assert r.query_labels == ("动物", "马路", "它")


def test_exact_float_opt_in() -> None:
    a = symattn.scaled_dot_product_attention([[0.1]], [[1]], [[1]])
    b = symattn.scaled_dot_product_attention([[0.1]], [[1]], [[1]], exact_float=True)
    assert a.query.exact()[0, 0] == Fraction(1, 10)
    assert b.query.exact()[0, 0] == Fraction(0.1)


# ---------------------------------------------------------------- property tests

decimals2 = st.integers(-300, 300).map(lambda n: n / 100)


def arrays(draw: st.DrawFn, shape: tuple[int, ...]) -> np.ndarray:
    return np.array(
        [draw(decimals2) for _ in range(int(np.prod(shape)))], dtype=np.float64
    ).reshape(shape)


def np_attention(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None, scale: float
) -> np.ndarray:
    s = q @ np.swapaxes(k, -1, -2) * scale
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = np.max(s, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m)
    tot = e.sum(axis=-1, keepdims=True)
    w = np.divide(e, tot, out=np.zeros_like(e), where=tot > 0)
    return w @ v


@st.composite
def problems(draw: st.DrawFn) -> dict:
    batch = tuple(draw(st.lists(st.integers(1, 2), max_size=2)))
    L, S, E, Ev = (draw(st.integers(1, 3)) for _ in range(4))
    q = arrays(draw, batch + (L, E))
    k = arrays(draw, batch + (S, E))
    v = arrays(draw, batch + (S, Ev))
    kind = draw(st.sampled_from(["none", "bool", "additive", "causal"]))
    mask = None
    if kind == "bool":
        mask = np.array(draw(st.lists(st.booleans(), min_size=L * S, max_size=L * S))).reshape(L, S)
    elif kind == "additive":
        vals = draw(
            st.lists(st.sampled_from([0.0, -1.5, 2.25, -np.inf]), min_size=L * S, max_size=L * S)
        )
        mask = np.array(vals).reshape(L, S)
    scale = draw(st.sampled_from([None, 0.5, 1.25, 3.0]))
    return {"q": q, "k": k, "v": v, "kind": kind, "mask": mask, "scale": scale}


def _symattn(p: dict) -> np.ndarray:
    return symattn.scaled_dot_product_attention(
        p["q"],
        p["k"],
        p["v"],
        attn_mask=p["mask"],
        is_causal=p["kind"] == "causal",
        scale=p["scale"],
    ).to_numpy()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_agrees_with_numpy_float64(p: dict) -> None:
    q, k, v = p["q"], p["k"], p["v"]
    L, S = q.shape[-2], k.shape[-2]
    scale = p["scale"] if p["scale"] is not None else 1 / np.sqrt(q.shape[-1])
    if p["kind"] == "bool":
        bmask = p["mask"]
        ref = np_attention(q, k, v, bmask, scale)
    elif p["kind"] == "causal":
        ref = np_attention(q, k, v, np.tril(np.ones((L, S), dtype=bool)), scale)
    elif p["kind"] == "additive":
        m = p["mask"]
        s = q @ np.swapaxes(k, -1, -2) * scale + m
        mx = np.max(s, axis=-1, keepdims=True)
        mx = np.where(np.isfinite(mx), mx, 0)
        e = np.exp(s - mx)
        tot = e.sum(axis=-1, keepdims=True)
        ref = np.divide(e, tot, out=np.zeros_like(e), where=tot > 0) @ v
    else:
        ref = np_attention(q, k, v, None, scale)
    np.testing.assert_allclose(_symattn(p), ref, rtol=1e-12, atol=1e-12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_agrees_with_torch_float64(p: dict) -> None:
    torch = require_module("torch")
    F = torch.nn.functional
    mask = None if p["mask"] is None else torch.from_numpy(p["mask"])
    ref = F.scaled_dot_product_attention(
        torch.from_numpy(p["q"]),
        torch.from_numpy(p["k"]),
        torch.from_numpy(p["v"]),
        attn_mask=mask,
        is_causal=p["kind"] == "causal",
        scale=p["scale"],
    ).numpy()
    np.testing.assert_allclose(_symattn(p), ref, rtol=1e-12, atol=1e-12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 2), st.integers(1, 3), st.integers(1, 3), st.data())
def test_gqa_agrees_with_torch(hk: int, groups: int, L: int, data: st.DataObject) -> None:
    torch = require_module("torch")
    hq, S, E = hk * groups, data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    q = arrays(data.draw, (1, hq, L, E))
    k = arrays(data.draw, (1, hk, S, E))
    v = arrays(data.draw, (1, hk, S, 2))
    ref = torch.nn.functional.scaled_dot_product_attention(
        torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(v), enable_gqa=True
    ).numpy()
    got = symattn.scaled_dot_product_attention(q, k, v, enable_gqa=True).to_numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.data())
def test_permuting_keys_with_values_leaves_output_unchanged(S: int, data: st.DataObject) -> None:
    q, k, v = arrays(data.draw, (2, 3)), arrays(data.draw, (S, 3)), arrays(data.draw, (S, 2))
    perm = np.array(data.draw(st.permutations(range(S))))
    a = symattn.scaled_dot_product_attention(q, k, v).output.evalf(30)
    b = symattn.scaled_dot_product_attention(q, k[perm], v[perm]).output.evalf(30)
    assert a.tolist() == b.tolist()


def test_fully_masked_row_gives_zeros_and_is_recorded() -> None:
    r = symattn.scaled_dot_product_attention(
        [[1.0], [2.0]], [[1.0], [3.0]], [[5.0], [7.0]], attn_mask=[[True, False], [False, False]]
    )
    assert r.output.exact().tolist() == [[Fraction(5)], [Fraction(0)]]
    assert r.fully_masked_rows == ((1,),)
    assert r.trace.get("weights").attrs["fully_masked_rows"] == ((1,),)


def test_multi_head_matches_per_head_computation() -> None:
    rng = np.random.default_rng(0)
    x = np.round(rng.uniform(-1, 1, (3, 4)), 2)
    wq, wk, wv, wo = (np.round(rng.uniform(-1, 1, (4, 4)), 2) for _ in range(4))
    r = symattn.multi_head_attention(x, wq, wk, wv, wo, num_heads=2)
    heads = []
    for h in range(2):
        sl = slice(2 * h, 2 * h + 2)
        heads.append(
            np_attention(x @ wq[:, sl], x @ wk[:, sl], x @ wv[:, sl], None, 1 / np.sqrt(2))
        )
    ref = np.concatenate(heads, axis=-1) @ wo
    np.testing.assert_allclose(r.to_numpy(), ref, rtol=1e-12, atol=1e-12)
    names = [s.name for s in r.trace]
    assert (
        names.index("Q_heads")
        < names.index("scores")
        < names.index("concat")
        < names.index("output")
    )


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"query": [[1, 2]], "key": [[1, 2, 3]], "value": [[1]]}, ShapeError, "width"),
        ({"query": [[1, 2]], "key": [[1, 2]], "value": [[1], [2]]}, ShapeError, "rows"),
        ({"query": [[1, "x"]], "key": [[1, 2]], "value": [[1]]}, NumberError, "'x'"),
        ({"query": [[1, float("nan")]], "key": [[1, 2]], "value": [[1]]}, NumberError, "NaN"),
        ({"query": [["1e999999999", 1]], "key": [[1, 2]], "value": [[1]]}, LimitError, "exponent"),
        ({"query": [1, 2], "key": [[1, 2]], "value": [[1]]}, ShapeError, "at least 2"),
        (
            {
                "query": [[1, 2]],
                "key": [[1, 2]],
                "value": [[1]],
                "attn_mask": [[True, False, True]],
            },
            ShapeError,
            "attn_mask",
        ),
        (
            {
                "query": [[1, 2]],
                "key": [[1, 2]],
                "value": [[1]],
                "attn_mask": [[True]],
                "is_causal": True,
            },
            InputError,
            "is_causal",
        ),
        (
            {"query": [[1, 2]], "key": [[1, 2]], "value": [[1]], "dropout_p": 0.1},
            InputError,
            "dropout",
        ),
        (
            {
                "query": [[[[1]]] * 3],
                "key": [[[[1]]] * 2],
                "value": [[[[1]]] * 2],
                "enable_gqa": True,
            },
            ShapeError,
            "divisible",
        ),
        (
            {"query": [[1]], "key": [[1]], "value": [[1]], "attn_mask": [[float("inf")]]},
            NumberError,
            "inf",
        ),
    ],
)
def test_bad_input_is_a_clear_error(kwargs: dict, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        symattn.scaled_dot_product_attention(**kwargs)


@pytest.mark.parametrize("heads", [0, -1, 1.5, True])
def test_bad_num_heads(heads: object) -> None:
    with pytest.raises(InputError, match="num_heads"):
        symattn.multi_head_attention(
            [[1, 2]], [[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]], num_heads=heads
        )


def test_projection_shape_error_names_the_matrix() -> None:
    with pytest.raises(ShapeError, match="W_K"):
        symattn.self_attention([[1, 2]], [[1], [2]], [[1], [2], [3]], [[1], [2]])


def test_size_limit() -> None:
    with pytest.raises(LimitError, match="max_elements"):
        symattn.scaled_dot_product_attention(
            [[1]] * 50, [[1]] * 50, [[1]] * 50, limits=symattn.Limits(max_elements=100)
        )


def test_accepts_torch_tensors_exactly() -> None:
    torch = require_module("torch")
    q = torch.tensor([[0.1, 0.2]], dtype=torch.float32)
    k = torch.tensor([[1.0, 2.0], [0.5, -1.0]], dtype=torch.bfloat16)
    v = torch.tensor([[10, 20], [30, 40]], dtype=torch.int64)
    mask = torch.tensor([[True, False]])
    r = symattn.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert r.query.exact().tolist() == [[Fraction(1, 10), Fraction(1, 5)]]  # float32 shortest repr
    assert r.key.exact()[1].tolist() == [Fraction(1, 2), Fraction(-1)]
    assert r.output.exact().tolist() == [[Fraction(10), Fraction(20)]]


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
    for f, e in zip(fast.reshape(-1), exact.reshape(-1)):
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
    for f, e in zip(fast.reshape(-1), exact.reshape(-1)):
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
    r = symattn.scaled_dot_product_attention(q, k, v, is_causal=True)
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
    from symattn.exact import ScaledIntTensor

    r = symattn.scaled_dot_product_attention(
        [[0.5, Fraction(1, 3)]], [[0.25, 3], [1, 1]], [[1], [2]], scale=1
    )
    s = r.scores
    assert isinstance(s, ScaledIntTensor)
    assert list(s.values[0]) == [Fraction(1, 8) + 1, Fraction(1, 2) + Fraction(1, 3)]
    assert list(s.exact()[0]) == [s.rational((0, 0)), s.rational((0, 1))]
    assert not s.values.flags.writeable
