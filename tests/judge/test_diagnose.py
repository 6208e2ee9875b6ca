"""Tests of symattn.judge.diagnose: one claim's verdict and its most specific cause."""

from __future__ import annotations

from symattn.config import DEFAULT_LIMITS
from symattn.judge.diagnose import Site, diagnose
from symattn.judge.run import Run
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers import parse_number
from tests.judge.common import run, small


def test_consistent_claims_record_nothing() -> None:
    s = small("")
    res = s.run()
    r = Run(s, DEFAULT_ACCEPTED, DEFAULT_LIMITS)
    diagnose(r, Site("weights", ("q", "a"), parse_number("0.893"), res.weights, (0, 0), res))
    assert r.findings == []
    diagnose(r, Site("weights", ("q", "a"), parse_number("0.892"), res.weights, (0, 0), res))
    (f,) = r.findings
    assert (f.code, f.exact_text, f.expected, f.step, f.position) == (
        "truncated",
        "0.892958…",
        "0.893",
        "weights",
        ("q", "a"),
    )


def test_own_numbers_come_before_truncation() -> None:
    # 14.89 is the truncation of e^(5/2) + e^1 = 14.9008 and the sum of the author's exps
    r = run("exp = [12.18, 2.71]\nsum = 14.89", "scale = 0.5")
    f = next(f for f in r.findings if f.claimed == "14.89")
    assert (f.code, f.message_key) == ("propagated-rounding", "propagated-exact")


def test_float_representation_is_info() -> None:
    # float32(0.8929581985...) = 0.89295822381973..., printed with 9 decimals
    r = run('weights = ["0.892958224", "0.1070418"]', "d_k = 2")
    (f,) = [f for f in r.findings if f.claimed == "0.892958224"]
    assert (f.code, f.severity, f.message_key, f.params["float"]) == (
        "float-representation",
        "info",
        "float-representation",
        "float32",
    )
