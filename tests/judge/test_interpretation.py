"""Tests of symattn.judge.interpretation: "attends most to X" against the exact weights."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.engine import attention_from_scores, multi_head_attention, scaled_dot_product_attention
from symattn.errors import InputError
from symattn.exact import Surd
from symattn.judge.findings import TextLocation
from symattn.judge.interpretation import compare, judge_interpretation, weight_order
from tests.judge.common import codes, run


def _res(scores: list[list[int | str]], **kw: object):  # type: ignore[no-untyped-def]
    return attention_from_scores(
        scores,
        [[1], [2], [3]],
        scale=1,
        query_labels=["q", "r"][: len(scores)],
        key_labels=["a", "b", "c"],
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("a", "b", "sign"),
    [
        (Surd(Fraction(1)), Surd(Fraction(2)), -1),
        (Surd(Fraction(0), Fraction(1), 2), Surd(Fraction(7, 5)), 1),  # sqrt(2) > 1.4
        (Surd(Fraction(0), Fraction(1), 2), Surd(Fraction(3, 2)), -1),  # sqrt(2) < 1.5
        (Surd(Fraction(3), Fraction(-2), 2), Surd(Fraction(0)), 1),  # 3 - 2 sqrt 2 > 0
        (Surd(Fraction(-3), Fraction(2), 2), Surd(Fraction(0)), -1),
        (Surd(Fraction(1), Fraction(1), 3), Surd(Fraction(1), Fraction(1), 3), 0),
        (None, Surd(Fraction(-100)), -1),
        (None, None, 0),
        (Surd(Fraction(5)), None, 1),
    ],
)
def test_compare_is_exact(a: Surd | None, b: Surd | None, sign: int) -> None:
    assert compare(a, b) == sign and compare(b, a) == -sign


def test_holds_when_the_named_key_weighs_most() -> None:
    res = _res([[1, 3, 2]])
    assert judge_interpretation(res, "q", "b") is None
    assert judge_interpretation(res, 0, 1) is None
    assert judge_interpretation(res, "q", ["a", "b"]) is None  # one of the named is the top
    assert weight_order(res, 0) == [1, 2, 0]


def test_contradicted_names_the_heavier_key() -> None:
    res = _res([[1, 3, 2]])
    f = judge_interpretation(res, "q", "c", location=TextLocation(3, 7))
    assert f is not None and f.code == "interpretation" and f.severity == "warning"
    assert f.location == TextLocation(3, 7) and f.claimed == "c" and f.exact == "b"
    p = f.params
    assert p["top"] == "b" and p["claimed"] == "c" and p["query"] == "q"
    assert p["top_weight"] == "0.6652" and p["claimed_weight"] == "0.2447"


def test_ties_never_contradict() -> None:
    res = _res([[2, 2, 1]])
    assert judge_interpretation(res, "q", "a") is None
    assert judge_interpretation(res, "q", "b") is None
    f = judge_interpretation(res, "q", "c")
    assert f is not None and f.params["top"] in ("a", "b")


def test_masked_keys_and_surd_scores() -> None:
    res = attention_from_scores(
        [[5, 7]], [[1], [2]], attn_mask=[[True, False]], d_k=2, key_labels=["a", "b"]
    )
    assert judge_interpretation(res, 0, "a") is None
    assert judge_interpretation(res, 0, "b") is not None
    sdpa = scaled_dot_product_attention(
        [[1, 2]], [[1, 2], [0, 1]], [[10], [30]], key_labels=["x", "y"]
    )
    assert judge_interpretation(sdpa, 0, "x") is None
    found = judge_interpretation(sdpa, 0, "y")
    assert found is not None and found.params["top_weight"] == "0.8930"


def test_per_head() -> None:
    x = [[1, 0], [0, 1]]
    res = multi_head_attention(
        x, [[1, 0], [0, 1]], [[1, 0], [0, -1]], x, num_heads=2, labels=["a", "b"]
    )
    # head 1 (0-based 0): q_a . k = [1, 0] -> a; head 2: q_a = [0], k = [0, -1] -> equal
    assert judge_interpretation(res, "a", "a", head=0) is None
    assert judge_interpretation(res, "a", "b", head=0) is not None
    assert judge_interpretation(res, "b", "b", head=1) is not None  # q_b . k_b = -1 < 0 = q_b . k_a
    with pytest.raises(InputError, match="head"):
        judge_interpretation(res, "a", "a")


@pytest.mark.parametrize(
    ("query", "claimed", "match"),
    [
        ("z", "a", "query tokens"),
        ("q", "z", "key tokens"),
        ("q", 5, "out of range"),
        ("q", [], "at least"),
    ],
)
def test_bad_arguments(query: str, claimed: object, match: str) -> None:
    with pytest.raises(InputError, match=match):
        judge_interpretation(_res([[1, 2, 3]]), query, claimed)  # type: ignore[arg-type]


def test_check_judges_attends_most() -> None:
    r = run('attends_most = "b"')  # scores [5, 2]: a weighs most
    assert codes(r) == [("interpretation", "b")]
    assert run('attends_most = ["a"]').findings == ()
