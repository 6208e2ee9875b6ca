"""Tests of symattn.read.rescue: numbers right as another stage of their row, or as their stage
in another frame, are not accused."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.exact import Surd, inv_sqrt
from symattn.read.audit import audit
from symattn.read.rescue import other_frames
from symattn.spec.build import build_spec

#: Q, K, V of three tokens; scaled by sqrt(2), the weights are the rows of ``_SCALED``
_QKV = (
    "Q = [[1, 0], [0, 1], [1, 1]]\n\nK = [[1, 1], [0, 1], [1, 2]]\n\n"
    "V = [[2, 0], [0, 1], [2, 1]]\n\nWe divide the scores by √d_k with d_k = 2.\n\n"
)
_SCALED = (
    "Weights: [[0.4011, 0.1978, 0.4011], [0.2483, 0.2483, 0.5035], [0.2840, 0.1400, 0.5760]]\n\n"
)


def _codes(text: str) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in audit(text, path="t.md").findings]


@pytest.mark.parametrize(
    "row",
    [
        "softmax([1, 0, 1]) = [0.4223, 0.1554, 0.4223]",  # unscaled (frame 1)
        "softmax([1, 0, 1] / 2) = [0.3837, 0.2327, 0.3837]",  # divided by d_k (frame 1/n)
    ],
)
def test_a_row_shown_in_another_frame_on_purpose_is_not_wrong(row: str) -> None:
    """The softmax of the first row, shown for comparison in another frame beside the scaled
    weights: right in that frame."""
    text = _QKV + _SCALED + f"For comparison, the first row in another frame:\n\n{row}\n"
    assert _codes(text) == []


def test_a_row_right_in_no_frame_is_still_wrong() -> None:
    text = (
        _QKV + _SCALED + "For comparison, without the scaling:\n\n"
        "softmax([1, 0, 1]) = [0.4223, 0.1600, 0.4223]\n"
    )
    assert ("wrong-value", "0.1600") in _codes(text)


def test_one_wrong_number_among_right_ones_in_the_stated_frame_is_accused() -> None:
    """A row that holds in the stated frame but one entry: no other frame holds it whole."""
    text = _QKV + _SCALED.replace("0.5035", "0.5135")
    assert ("wrong-value", "0.5135") in _codes(text)


def test_the_other_frames_are_unscaled_sqrt_n_n_and_the_claimed_divisor() -> None:
    data: dict[str, object] = {
        "schema": 1,
        "tokens": ["a", "b"],
        "d_k": 4,
        "inputs": {
            "Q": [["1", "0"], ["0", "1"]],
            "K": [["1", "0"], ["0", "1"]],
            "V": [["1"], ["2"]],
        },
        "claims": {"sqrt_d_k": "1.9"},
    }
    spec = build_spec(data, "t.toml", DEFAULT_LIMITS)
    scales = [r.scale for r in other_frames(spec, spec.run())]
    # unscaled; 1/sqrt(2) for the width of K (1/2 is the spec's own frame, left out); 1/4
    # for the stated d_k; the divisor as written
    assert scales == [
        Surd(Fraction(1)),
        inv_sqrt(2),
        Surd(Fraction(1, 4)),
        Surd(1 / Fraction("1.9")),
    ]


#: Q = K = [[1, 0], [0, 1], [1, 1]], d_k = 2: scaled weights rows [0.40, 0.20, 0.40],
#: [0.20, 0.40, 0.40], [0.25, 0.25, 0.50]; row 1 unscaled is [0.42, 0.16, 0.42]
THREE = (
    "Let $d_k = 2$.\n\nQ = [[1, 0], [0, 1], [1, 1]]\n\nK = [[1, 0], [0, 1], [1, 1]]\n\n"
    "V = [[1, 0], [0, 2], [1, 1]]\n\nThe attention weights, row by row:\n\n"
)


def test_one_row_in_another_frame_among_rows_right_in_the_problems_is_a_slip() -> None:
    text = THREE + (
        "$w_1 = [0.42, 0.16, 0.42]$\n\n$w_2 = [0.20, 0.40, 0.40]$\n\n$w_3 = [0.25, 0.25, 0.50]$\n"
    )
    wrong = {f.claimed for f in audit(text, path="t.md").findings if f.code == "wrong-value"}
    assert {"0.42", "0.16"} <= wrong


def test_a_row_shown_in_both_frames_is_a_comparison() -> None:
    text = THREE + (
        "$w_1 = [0.42, 0.16, 0.42]$\n\n$w_1 = [0.40, 0.20, 0.40]$\n\n$w_2 = [0.20, 0.40, 0.40]$\n"
    )
    assert not [f for f in audit(text, path="t.md").findings if f.severity == "error"]


#: row 1 in the stated frame, then again without the scaling: exponentials that write their
#: exponents (the unscaled scores), two weights and a two-entry output
UNSCALED_ROW = (
    "$Q = K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$, "
    "$V = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}$, $d_k = 2$.\n\n"
    "Scaled scores of row 1: $[0.7071, 0]$; weights $[0.6698, 0.3302]$.\n\n"
    "Without the scaling, row 1 gives $e^1 = 2.718$, $e^0 = 1$, weights $[0.731, 0.269]$ "
    "and the output $[OUT]$.\n"
)


def test_exponents_written_confirm_a_row_s_frame_for_its_smaller_working() -> None:
    report = audit(UNSCALED_ROW.replace("OUT", "1.538, 2.538"), path="t.md")
    assert [f.claimed for f in report.findings if f.severity == "error"] == []


def test_a_slip_in_that_row_s_working_is_still_accused() -> None:
    # (the output does not hold in the row's frame as a whole: it is judged in the problem's)
    report = audit(UNSCALED_ROW.replace("OUT", "1.638, 2.538"), path="t.md")
    assert "1.638" in [f.claimed for f in report.findings if f.severity == "error"]
