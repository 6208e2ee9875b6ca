"""Tests of symattn.read.claims: one written number against the value of its expression, as
written and with its exact ingredients."""

from __future__ import annotations

from symattn.present.reports import message
from symattn.read.audit import audit


def found(text: str) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in audit(text).findings]


def test_right_both_ways_says_nothing() -> None:
    assert found("$1/4 = 0.25$\n") == []


def test_computed_more_precisely_than_written_is_no_error() -> None:
    """√2 ≈ 1.41, then 5/1.41 ≈ 3.54 (5/√2 = 3.5355…, 5/1.41 = 3.546…): 3.54 is right for √2."""
    assert found("$\\sqrt{2} \\approx 1.41$\n\n$5 / 1.41 \\approx 3.54$\n") == []


def test_right_as_written_wrong_exactly_is_propagated() -> None:
    got = found("$s = e^{2.5} \\approx 12.18$\n\n$1000 \\times s = 12180$\n")
    assert got == [("propagated-rounding", "12180")]


def test_a_rounded_root_is_an_approximate_constant() -> None:
    (f,) = audit("$\\sqrt{2} \\approx 1.41$\n\n$10 / 1.41 \\approx 7.09$\n").findings
    assert f.code == "approximate-constant" and f.cause.startswith("approximate-root")


def test_wrong_both_ways_is_the_verdict() -> None:
    assert found("$e^{1} \\approx 2.71$\n") == [("truncated", "2.71")]


def test_e_rounded_by_the_author() -> None:
    (f,) = audit("$e^{0.5} \\approx 1.6486$\n").findings
    assert (f.code, f.cause) == ("approximate-constant", "approximate-e:2.718")


def test_propagated_message_names_the_expression() -> None:
    r = audit("$s = e^{2.5} \\approx 12.18$\n\n$1000 \\times s = 12180$\n")
    (f,) = r.findings
    assert "= 1000 × s" in message(f)
