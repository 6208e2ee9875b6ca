"""Tests of symattn.read.locate: a claim is placed where its numbers reproduce (another stage,
another key, another frame), when the numbers around it hold there too."""

from __future__ import annotations

from symattn.read.audit import audit
from symattn.read.locate import STAGE_WORDS, Located
from symattn.stages import StepName

from ..conftest import english

#: one query, three keys 2 wide; the text says "unscaled" only in an exercise, yet its worked
#: numbers are all in the frame 1/√2 (the width of K)
_GIVEN = (
    "Take $q = [1, 1]$; $k_1 = [1, 0]$, $k_2 = [1, 2]$, $k_3 = [0, 1]$; "
    "$v_1 = [1, 0]$, $v_2 = [0, 1]$, $v_3 = [1, 1]$.\n\n"
)
_WORKED = (
    "Dot each key with the query and divide by $\\sqrt{2}$:\n\n"
    "$$ s_1 = \\frac{1}{\\sqrt{2}} \\approx 0.7071, \\qquad s_2 = \\frac{3}{\\sqrt{2}} "
    "\\approx 2.1213, \\qquad s_3 = \\frac{1}{\\sqrt{2}} \\approx 0.7071 $$\n\n"
    "Then $e^{0.7071} \\approx 2.0281$ and $e^{2.1213} \\approx 8.3421$.\n\n"
    "$$ \\alpha_1 = 0.1636, \\qquad \\alpha_2 = 0.6728, \\qquad \\alpha_3 = 0.1636 $$\n\n"
    "The output is $o = [0.3272, 0.8364]$.\n\n"
)
_EXERCISE = "Exercise: what are the three unscaled dot products? Answer: 1, 3 and 1.\n"


def _findings(text: str) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in audit(text, path="t.md").findings]


def _notes(text: str) -> list[str]:
    return [english(u.reason) for u in audit(text, path="t.md").unparsed]


def test_scores_named_raw_but_scaled_are_placed_at_the_scaled_scores() -> None:
    """``s_i`` holds the scaled scores; the words say "unscaled" (an exercise's): the numbers
    place them, and everything after them, in the frame 1/√2; nothing is accused."""
    text = _GIVEN + _WORKED + _EXERCISE
    assert [c for c, _ in _findings(text) if c != "precision-mixed"] == []
    notes = _notes(text)
    assert any("scaled scores in the frame 1/√2" in n for n in notes)
    assert any("weights in the frame 1/√2" in n for n in notes)


def test_a_wrong_number_among_numbers_placed_in_another_frame_is_not_placed() -> None:
    """One weight off by a unit of its second decimal reproduces at no place: it is not
    moved to the frame its neighbours hold in (its own numbers do not hold there)."""
    text = _GIVEN + _WORKED.replace("0.6728", "0.6828") + _EXERCISE
    report = audit(text, path="t.md")
    moved = [u.text for u in report.unparsed if english(u.reason).startswith("its numbers are")]
    assert "alpha_2" not in moved and "alpha_1" in moved


def test_a_sum_after_the_weights_is_the_sum_of_the_weights() -> None:
    """``Sum = 1`` written after the weights is their sum, not a wrong denominator."""
    text = (
        "Q = [[1, 0], [0, 1]]\n\nK = [[1, 0], [0, 1]]\n\nV = [[1, 2], [3, 4]]\n\n"
        "We divide the scores by √d_k with d_k = 2.\n\n"
        "Scores: [[1, 0], [0, 1]]\n\n"
        "Weights: [[0.6698, 0.3302], [0.3302, 0.6698]]. Sum = 1\n"
    )
    assert [c for c, _ in _findings(text)] == []


def test_a_wrong_sum_in_a_confirmed_row_is_still_accused() -> None:
    text = (
        "Q = [[1, 0], [0, 1]]\n\nK = [[1, 0], [0, 1]]\n\nV = [[1, 2], [3, 4]]\n\n"
        "Scores: [[1, 0], [0, 1]] (no scaling)\n\n"
        "Row 1: $e^{1} = 2.7183$, $e^{0} = 1$. Sum = 3.9183\n\n"
        "Weights: [[0.7311, 0.2689], [0.2689, 0.7311]]\n"
    )
    assert ("wrong-value", "3.9183") in _findings(text)


def test_weights_of_another_example_are_not_checked_against_this_one() -> None:
    """An exercise gives its own scores in a notation not read; its weights reproduce no
    place of the worked problem, and nothing around them confirms one: not accused."""
    text = (
        _GIVEN
        + "The weights are $[0.1636, 0.6728, 0.1636]$ and the output is $[0.3272, 0.8364]$.\n\n"
        "Exercise: scores $[0, 0, \\ln 3]$ meet the same values. The weights are "
        "$[0.2, 0.2, 0.6]$.\n"
    )
    found = _findings(text)
    assert not any(claimed in {"0.2", "0.6"} for _, claimed in found)
    assert any("0 of 0" in n or "do not reproduce the place" in n for n in _notes(text))


def test_the_report_names_the_place() -> None:
    assert (
        english(Located(3, StepName.SCALED, "1/√3").reason)
        == "its numbers are the scaled scores in the frame 1/√3, where the numbers around it "
        "hold too"
    )
    assert "at another key" in english(Located(3, StepName.EXP, "1", moved=True).reason)
    assert Located(3, StepName.EXP, "1", moved=True).reason.key == "located-moved"
    assert set(STAGE_WORDS) >= {StepName.SCORES, StepName.SCALED, StepName.EXP, StepName.WEIGHTS}
