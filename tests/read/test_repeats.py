"""Tests of symattn.read.repeats: a wrong number used again carries its finding."""

from __future__ import annotations

from symattn.read.audit import audit


def test_a_propagated_number_used_again_is_flagged_again() -> None:
    text = (
        "$e^{2.5} \\approx 12.18$ and $e \\approx 2.718$\n\n"
        "$12.18 + 2.718 = 14.898$\n\n$12.18 / 14.898 \\approx 0.818$\n"
    )
    r = audit(text)
    repeats = [f for f in r.findings if f.cause == "repeat"]
    assert all(f.claimed == "14.898" for f in repeats)
    assert all(f.severity == "warning" for f in repeats)


def test_short_numbers_are_not_tracked() -> None:
    """A repeat of ``2`` is no evidence: only numbers of three or more significant digits."""
    r = audit("$1 + 1 = 2$\n\n$2 \\times 2 = 4$\n")
    assert [f for f in r.findings if f.cause == "repeat"] == []
