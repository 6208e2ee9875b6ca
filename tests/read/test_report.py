"""Tests of symattn.read.report: the records an audit returns."""

from __future__ import annotations

from symattn.judge.findings import TextLocation
from symattn.read.messages import say
from symattn.read.report import AuditReport, Recognised, text_finding


def test_text_finding_takes_the_severity_of_its_code() -> None:
    f = text_finding("propagated-rounding", 3, 7, "14.89", "14.90078", "14.90", say("and"), "x")
    assert (f.severity, f.location, f.line, f.column) == ("warning", TextLocation(3, 7), 3, 7)


def test_has_errors() -> None:
    info = text_finding("missing-input", 1, 1, "0.5", "?", None, say("and"), "missing-input")
    error = text_finding("wrong-value", 1, 1, "3", "2", "2", say("and"), "wrong-value")
    assert not AuditReport("t", (info,), 0, ()).has_errors
    assert AuditReport("t", (info, error), 1, ()).has_errors


def test_recognised_is_the_first_problem() -> None:
    one = Recognised("vectors", ("a",), ("a", "b"), ("a", "b"), d_k=2, claims=3)
    two = Recognised("table", ("c",), ("c",), ("c",), d_k=1, claims=1)
    assert AuditReport("t", (), 0, (), (one, two)).recognised == one
    assert AuditReport("t", (), 0, ()).recognised is None
