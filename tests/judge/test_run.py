"""Tests of symattn.judge.run: one check run, the findings it records, its report."""

from __future__ import annotations

from fractions import Fraction

from symattn.config import DEFAULT_LIMITS
from symattn.judge.findings import Message, SpecLocation
from symattn.judge.quantities import Const
from symattn.judge.run import Run
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers import parse_number
from tests.judge.common import small


def make_run() -> Run:
    return Run(small("scores = [5, 2]"), DEFAULT_ACCEPTED, DEFAULT_LIMITS)


def test_judging() -> None:
    r = make_run()
    assert r.holds(parse_number("0.12"), Const(Fraction(1, 8)))
    assert not r.holds(parse_number("0.100000001"), Const(Fraction(1, 10)))
    assert r.consistent(parse_number("0.100000001"), Const(Fraction(1, 10)))  # a float32 print


def test_add_records_self_contained_messages() -> None:
    r = make_run()
    where = SpecLocation("scores", ("q", "b"))
    r.add(
        "wrong-value", "wrong-value-slip", where, "-2", "2", "2", {"slip": "2"}, cause="wrong-sign"
    )
    (f,) = r.findings
    assert (f.code, f.severity, f.cause, f.message_key) == (
        "wrong-value",
        "error",
        "wrong-sign",
        "wrong-value-slip",
    )
    assert f.params["claimed"] == "-2" and f.params["expected"] == "2"
    assert f.params["cause"] == "2"
    assert f.params["cause_text"] == Message(
        "check",
        "cause.wrong-sign",
        {"slip": "2", "claimed": "-2", "exact": "2", "expected": "2", "cause": "2"},
    )


def test_inexact_values_and_frames() -> None:
    r = make_run()
    r.add(
        "truncated",
        "truncated",
        SpecLocation("exp_scores", ("q", "a")),
        "2.71",
        "2.71828",
        "2.72",
        inexact=True,
    )
    r.add("dk-mismatch", "dk-mismatch-width", SpecLocation("sqrt_d_k"), "2", "3", None)
    r.in_frame(0, "4", {"exp_scores"})
    assert r.findings[0].params["exact"] == "2.71828…" and r.findings[0].frame == "4"
    assert r.findings[1].params["expected"] == "" and r.findings[1].frame is None


def test_report() -> None:
    r = make_run()
    r.add(
        "precision-mixed", "precision-mixed", SpecLocation("weights", ("q", "a")), "0.1", "-", None
    )
    r.add("truncated", "truncated", SpecLocation("weights", ("q", "b")), "0.1", "0.19", "0.2")
    report = r.report(7)
    assert (report.path, report.checked, len(report.findings)) == ("s.toml", 7, 2)
    assert report.count("warning") == report.count("error") == 1 and report.has_errors
