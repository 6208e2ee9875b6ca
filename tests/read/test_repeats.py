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


def test_a_repeat_shows_a_rounded_exact_value_as_rounded() -> None:
    """The exact value of 12.18 + 2.718 is no terminating decimal of the shown length: the
    finding and each repeat of it show it with its "…" (issue 21: "…" wherever rounded)."""
    text = (
        "$e^{2.5} \\approx 12.18$ and $e \\approx 2.718$\n\n"
        "$12.18 + 2.718 = 14.898$\n\n$12.18 / 14.898 \\approx 0.818$\n"
    )
    r = audit(text)
    first = [f for f in r.findings if f.claimed == "14.898" and f.cause != "repeat"]
    repeats = [f for f in r.findings if f.cause == "repeat"]
    assert first and repeats, r.findings
    assert {f.inexact for f in first + repeats} == {True}
    assert all(f.exact_text.endswith("…") for f in repeats)


def test_short_numbers_are_not_tracked() -> None:
    """A repeat of ``2`` is no evidence: only numbers of three or more significant digits."""
    r = audit("$1 + 1 = 2$\n\n$2 \\times 2 = 4$\n")
    assert [f for f in r.findings if f.cause == "repeat"] == []


#: weights written with mixed decimals, then used again as the coefficients of the values
_MIXED = (
    "q_1 = [1, 0]\nk_1 = [1, 0]\nk_2 = [0, 1]\nk_3 = [1, 1]\n"
    "v_1 = [1, 0]\nv_2 = [0, 1]\nv_3 = [1, 1]\n\n"
    "$$ weights = [0.398, 0.2, 0.398] $$\n\n"
    "$$ o = 0.398 \\times [1, 0] + 0.2 \\times [0, 1] + 0.398 \\times [1, 1] $$\n"
)


def test_a_short_number_written_again_with_its_whole_vector_carries_its_warning() -> None:
    r = audit(_MIXED)
    mixed = [(f.line, f.claimed, f.cause) for f in r.findings if f.code == "precision-mixed"]
    assert len(mixed) == 2 and mixed[1] == (11, "0.2", "repeat"), r.findings
    assert mixed[0][0] == 9 and mixed[0][2] != "repeat"


def test_a_short_number_written_again_alone_is_no_evidence() -> None:
    text = _MIXED.replace("0.2 \\times [0, 1] + 0.398 \\times [1, 1]", "0.2 \\times [0, 1]")
    r = audit(text)
    assert [f.line for f in r.findings if f.code == "precision-mixed"] == [9], r.findings
