"""Tests of symattn.judge.claims: where each claim of a spec is."""

from __future__ import annotations

from symattn.judge.claims import FRAME_STEPS, all_claims, col_label, row_claims, row_index
from symattn.stages import ROW_STAGES
from tests.judge.common import small

ROWS = "scores = [5, 2]\nsum = 14.89\noutput = [13.6, 23.6]\nweights = { b = 0.18 }"


def test_all_claims_in_spec_order() -> None:
    s = small(ROWS, "d_k = 2\n[claims]\nd_k = 4\nsqrt_d_k = 2\n[claims.tokens.b]\nv = [30, 40]")
    got = [(c.step, c.position, c.claim.text) for c in all_claims(s)]
    assert got == [
        ("d_k", (), "4"),
        ("sqrt_d_k", (), "2"),
        ("V", ("b", "0"), "30"),
        ("V", ("b", "1"), "40"),
        ("scores", ("q", "a"), "5"),
        ("scores", ("q", "b"), "2"),
        ("exp_sums", ("q",), "14.89"),
        ("weights", ("q", "b"), "0.18"),
        ("output", ("q", "0"), "13.6"),
        ("output", ("q", "1"), "23.6"),
    ]


def test_row_claims() -> None:
    rc = small(ROWS).claims.rows["q"]
    got = [(c.field, c.step, c.column, c.index(3)) for c in row_claims(rc, ROW_STAGES[3:5])]
    assert got == [("sum", "exp_sums", None, (3,)), ("weights", "weights", 1, (3, 1))]


def test_labels() -> None:
    s = small(ROWS)
    assert col_label(s, "weights", 1) == "b" and col_label(s, "output", 1) == "1"
    assert col_label(s, "weights", 5) == "5"
    assert row_index(("a", "b"), "b") == 1
    assert row_index(("a", "b"), "c") is None and row_index(None, "a") is None


def test_frame_steps() -> None:
    assert FRAME_STEPS == {
        "scaled_scores",
        "exp_scores",
        "exp_sums",
        "weights",
        "output",
        "head_outputs",
        "concat",
    }
