"""Tests of symattn.judge.findings: the one finding model and its typed message."""

from __future__ import annotations

import pickle

from symattn.judge.findings import Finding, Join, Message, SpecLocation, TextLocation


def finding(location: SpecLocation | TextLocation, exact: str, inexact: bool) -> Finding:
    msg = Message("check", "truncated", {"claimed": "2.71"})
    return Finding("truncated", "error", location, "2.71", exact, "2.72", msg, inexact=inexact)


def test_spec_and_text_locations() -> None:
    f = finding(SpecLocation("exp_scores", ("T", "M")), "2.71828", True)
    assert (f.step, f.position, f.line, f.column) == ("exp_scores", ("T", "M"), 0, 0)
    g = finding(TextLocation(3, 7), "2.71828", True)
    assert (g.step, g.position, g.line, g.column) == ("", (), 3, 7)


def test_exact_text_marks_roundings() -> None:
    assert finding(SpecLocation("x"), "2.71828", True).exact_text == "2.71828…"
    assert finding(SpecLocation("x"), "2", False).exact_text == "2"
    assert finding(SpecLocation("x"), "?", True).exact_text == "?"


def test_message_is_read_only_and_pickles() -> None:
    m = Message("check", "wrong-value-slip", {"slip": Join(("a", "b"))})
    f = finding(SpecLocation("x"), "1", False)
    assert f.message_key == "truncated" and f.params["claimed"] == "2.71"
    assert pickle.loads(pickle.dumps(m)) == m
    assert pickle.loads(pickle.dumps(f)) == f
