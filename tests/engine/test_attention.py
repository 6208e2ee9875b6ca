"""The public entry points of the engine: seeds, agreement with numpy and torch, errors."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symattn
from symattn import InputError, LimitError, NumberError, ShapeError
from symattn.engine import (
    attention_from_scores,
    cross_attention,
    multi_head_attention,
    scaled_dot_product_attention,
    self_attention,
)
from symattn.exact import inv_sqrt
from tests.conftest import require_module

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
    # a tensor is read as its binary values by default: what the kernel computed on
    assert r.query.exact().tolist() == [
        [Fraction(*np.float32(x).as_integer_ratio()) for x in (0.1, 0.2)]
    ]
    assert r.key.exact()[1].tolist() == [Fraction(1, 2), Fraction(-1)]
    assert r.output.exact().tolist() == [[Fraction(10), Fraction(20)]]
    short = symattn.scaled_dot_product_attention(q, k, v, attn_mask=mask, read_floats="shortest")
    assert short.query.exact().tolist() == [[Fraction(1, 10), Fraction(1, 5)]]  # float32 repr


# --------------------------------------------------------------------------- other starts


Q = [[1, 2], [0, 1]]
K = [[1, 2], [0, 1], [1, 1]]
V = [[10, 20], [30, 40], [50, 60]]


def _scores() -> list[list[Fraction]]:
    return [[sum(Fraction(a) * b for a, b in zip(q, k, strict=True)) for k in K] for q in Q]


def test_scores_with_d_k_give_the_same_weights_and_output_as_q_and_k() -> None:
    want = scaled_dot_product_attention(Q, K, V)
    got = attention_from_scores(_scores(), V, d_k=2)
    assert (got.weights.evalf(30) == want.weights.evalf(30)).all()
    assert (got.output.evalf(30) == want.output.evalf(30)).all()
    assert got.d_k == 2 and got.scale == want.scale
    assert got.start == "scores" and want.start == "qkv"


def test_scores_with_a_scale_multiply() -> None:
    want = scaled_dot_product_attention(Q, K, V, scale="0.5")
    got = attention_from_scores(_scores(), V, scale="0.5")
    assert (got.output.evalf(25) == want.output.evalf(25)).all()


def test_scale_one_means_plain_softmax_of_the_scores() -> None:
    got = attention_from_scores([[2, 1, 0]], [[1], [0], [0]], scale=1)
    e = np.exp([2.0, 1.0, 0.0])
    assert float(got.weights.to_numpy()[0, 0]) == pytest.approx(e[0] / e.sum(), rel=1e-15)


def test_given_scaled_scores_are_the_exponents() -> None:
    scaled = [[2.5, 1.0]]
    got = attention_from_scores(scaled, [[10, 20], [30, 40]], scaled=True)
    want = scaled_dot_product_attention(
        [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]], scale="0.5"
    )
    assert (got.weights.evalf(30) == want.weights.evalf(30)).all()
    assert got.start == "scaled" and got.scale.p == 1 and got.scale.is_rational and got.d_k is None


def test_masks_apply_to_given_scores() -> None:
    got = attention_from_scores([[1, 2, 0], [0, 1, 1]], [[1], [2], [3]], is_causal=True, scale=1)
    assert got.weights.exact()[0].tolist() == [1, 0, 0]
    assert got.weights.rational((1, 2)) == 0
    boolean = attention_from_scores(
        [[1, 2, 0]], [[1], [2], [3]], attn_mask=[[True, False, True]], scale=1
    )
    assert boolean.weights.rational((0, 1)) == 0


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({}, InputError),
        ({"d_k": 2, "scale": 1}, InputError),
        ({"scaled": True, "d_k": 2}, InputError),
        ({"d_k": 0}, InputError),
        ({"d_k": -3}, InputError),
    ],
)
def test_scores_need_exactly_one_way_of_scaling(kw: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        attention_from_scores(_scores(), V, **kw)  # type: ignore[arg-type]


def test_scores_and_values_must_fit() -> None:
    with pytest.raises(ShapeError, match="3 columns"):
        attention_from_scores(_scores(), [[1], [2]], d_k=2)


def test_labels_are_checked_against_the_score_matrix() -> None:
    r = attention_from_scores(_scores(), V, d_k=2, query_labels=["a", "b"], key_labels="xyz")
    assert r.query_labels == ("a", "b") and r.key_labels == ("x", "y", "z")
    with pytest.raises(ShapeError):
        attention_from_scores(_scores(), V, d_k=2, query_labels=["a"])


X_Q = [[1, 0], [Fraction(1, 2), 1]]
X = [[1, 2], [0, 1], [2, 0]]
W_Q = [[1, 0], [1, 1]]
W_K = [[0, 1], [1, 0]]
W_V = [[2, 0], [0, 3]]


def _matmul(a: list[list[object]], b: list[list[object]]) -> list[list[Fraction]]:
    return [
        [
            sum((Fraction(x) * Fraction(y) for x, y in zip(row, col, strict=True)), Fraction(0))
            for col in zip(*b, strict=True)
        ]
        for row in a
    ]


def test_cross_attention_projects_queries_from_their_own_sequence() -> None:
    got = cross_attention(X_Q, X, W_Q, W_K, W_V, query_labels=["p", "q"], key_labels="abc")
    want = scaled_dot_product_attention(_matmul(X_Q, W_Q), _matmul(X, W_K), _matmul(X, W_V))
    assert (got.output.evalf(30) == want.output.evalf(30)).all()
    assert got.query.shape == (2, 2) and got.key.shape == (3, 2)
    assert got.start == "x" and got.query_labels == ("p", "q")
    names = [s.name for s in got.trace if s.op == "input"]
    assert names[:2] == ["X", "X_q"]


def test_self_attention_is_cross_attention_of_a_sequence_with_itself() -> None:
    a = self_attention(X, W_Q, W_K, W_V)
    b = cross_attention(X, X, W_Q, W_K, W_V)
    assert (a.output.evalf(30) == b.output.evalf(30)).all()


def test_multi_head_cross_attention() -> None:
    wq = [[1, 0, 1, 0], [0, 1, 0, 1]]
    wk = [[1, 1, 0, 0], [0, 0, 1, 1]]
    wv = [[1, 2, 3, 4], [4, 3, 2, 1]]
    got = multi_head_attention(X, wq, wk, wv, num_heads=2, x_q=X_Q, scale=inv_sqrt(2))
    heads = []
    for h in range(2):
        cols = slice(2 * h, 2 * h + 2)
        q = [row[cols] for row in _matmul(X_Q, wq)]
        k = [row[cols] for row in _matmul(X, wk)]
        v = [row[cols] for row in _matmul(X, wv)]
        heads.append(scaled_dot_product_attention(q, k, v).output.evalf(30))
    want = np.concatenate(heads, axis=-1)
    assert (got.output.evalf(30) == want).all()


def test_cross_attention_shape_errors_name_the_sequence() -> None:
    with pytest.raises(ShapeError, match="X_q has width 3"):
        cross_attention([[1, 2, 3]], X, W_Q, W_K, W_V)


# --------------------------------------------------------------------------- reading floats


def _f32(x: float) -> Fraction:
    return Fraction(*np.float32(x).as_integer_ratio())


def test_numpy_floats_are_read_binary_and_lists_by_shortest_repr_per_argument() -> None:
    q32 = np.array([[0.1, 0.2]], dtype=np.float32)
    r = symattn.scaled_dot_product_attention(q32, [[0.1, 0.2], [1, 2]], [[0.5], [0.25]])
    assert r.query.exact().tolist() == [[_f32(0.1), _f32(0.2)]]  # what the kernel holds
    assert r.key.exact()[0].tolist() == [Fraction(1, 10), Fraction(1, 5)]  # a worked example
    assert r.float_readings == {"Q": "binary", "K": "shortest", "V": "shortest"}
    assert (
        repr(r).splitlines()[-1] == "inputs read: Q as exact binary floats; K, V by shortest repr"
    )


def test_inputs_without_floats_are_said_exact() -> None:
    r = symattn.scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [["0.5"], ["1/4"]])
    assert r.float_readings == {}
    assert repr(r).splitlines()[-1] == "inputs read: exact (no floats given)"


@pytest.mark.parametrize("kw", [{"read_floats": "binary"}, {"exact_float": True}])
def test_binary_for_every_argument(kw: dict[str, object]) -> None:
    r = symattn.scaled_dot_product_attention([[0.1]], [[1]], [[1]], **kw)  # type: ignore[arg-type]
    assert r.query.exact()[0, 0] == Fraction(0.1)
    assert r.float_readings == {"Q": "binary"}


@pytest.mark.parametrize("kw", [{"read_floats": "shortest"}, {"exact_float": False}])
def test_shortest_for_every_argument(kw: dict[str, object]) -> None:
    q = np.array([[0.1]], dtype=np.float32)
    r = symattn.scaled_dot_product_attention(q, [[1]], [[1]], **kw)  # type: ignore[arg-type]
    assert r.query.exact()[0, 0] == Fraction(1, 10)


def test_scale_and_masks_are_read_per_argument() -> None:
    r = symattn.scaled_dot_product_attention(
        [[1, 0]], [[1, 0], [0, 1]], [[1], [2]], attn_mask=np.array([[0.1, 0.0]]), scale=0.1
    )
    assert r.scale == symattn.Surd(Fraction(1, 10))  # a Python float: its shortest repr
    assert r.float_readings == {"attn_mask": "binary"}
    mask = r.trace.get("attn_mask").value.exact()
    assert mask[0, 0] == Fraction(0.1)


def test_attention_from_scores_reads_floats_per_argument() -> None:
    r = symattn.attention_from_scores(np.array([[0.1, 0.0]]), [[0.1], [0.2]], scale=1)
    assert r.scores.exact()[0, 0] == Fraction(0.1)
    assert r.value.exact()[0, 0] == Fraction(1, 10)


def test_conflicting_reading_keywords_are_refused() -> None:
    with pytest.raises(InputError, match="disagree"):
        symattn.scaled_dot_product_attention(
            [[1]], [[1]], [[1]], read_floats="binary", exact_float=False
        )
    with pytest.raises(InputError, match="read_floats must be one of"):
        symattn.self_attention([[1]], [[1]], [[1]], [[1]], read_floats="exact")
