"""Tests of symattn.read.ownscores: the problem again from the author's own written scores."""

from __future__ import annotations

from symattn.read.audit import audit

#: Q and K whose true scores are [[0.03, 0.19, -0.21], …]; the author writes other scores,
#: takes the softmax of row 1 of them unscaled, and makes up rows 2 and 3
_TEXT = (
    "$$Q = \\begin{bmatrix} 0.1 & -0.3 \\\\ 0.7 & 0.2 \\\\ -0.5 & 0.4 \\end{bmatrix}, "
    "K = \\begin{bmatrix} 0.6 & 0.1 \\\\ -0.2 & -0.7 \\\\ 0.3 & 0.8 \\end{bmatrix}, "
    "V = \\begin{bmatrix} 0.5 & 1.0 \\\\ 2.1 & 0.3 \\\\ 0.7 & -0.9 \\end{bmatrix}$$\n\n"
    "$$S = QK^T = \\begin{bmatrix} 0.16 & -0.52 & 0.41 \\\\ 0.34 & -0.71 & 0.74 \\\\ "
    "-0.23 & 0.49 & -0.04 \\end{bmatrix}$$\n\n"
    "$$\\text{Attention Weights} = \\text{softmax}(S) = \\begin{bmatrix} 0.36 & 0.18 & 0.46 "
    "\\\\ 0.24 & 0.11 & 0.65 \\\\ 0.30 & 0.46 & 0.24 \\end{bmatrix}$$\n"
)


def test_a_row_the_authors_own_scores_give_is_carried_not_new() -> None:
    found = audit(_TEXT, path="t.md").findings
    weights = sorted((f for f in found if f.line == 5), key=lambda f: f.column)
    assert [(f.claimed, f.code, f.message.key) for f in weights[:3]] == [
        (c, "propagated-error", "own-scores") for c in ("0.36", "0.18", "0.46")
    ]
    # the made-up rows stay errors, and so do the scores, where the author's error is
    assert {f.code for f in weights[3:]} == {"wrong-value"} and len(weights) == 9
    assert {f.code for f in found if f.line == 3} == {"wrong-value"}


def test_scores_written_right_give_no_second_reading() -> None:
    right = _TEXT.replace("0.16 & -0.52 & 0.41", "0.03 & 0.19 & -0.21")
    found = audit(right, path="t.md").findings
    assert not [f for f in found if f.message.key.startswith("own-scores")]
