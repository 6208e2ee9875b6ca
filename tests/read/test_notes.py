"""Tests of symattn.read.notes: a value followed by a note, one rule for every reader."""

from __future__ import annotations

import pytest

from symattn.read import notes

from .texts import understood

#: three inputs, then the layout under test (Q), then scores the problem is judged by
_K = "$$K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
_V = "$$V = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}$$\n\n"
_S = "$$QK^T = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n"


def _q_given(q_line: str) -> list[tuple[tuple[int, ...], bool]]:
    u = understood(f"$d_k = 2$\n\n{q_line}\n\n{_K}{_V}{_S}")
    return [(f.dims, f.given) for f in u.facts if f.role == "q"]


@pytest.mark.parametrize(
    "rest",
    [
        "  ← token 1 的 query",
        "  shape: [3, 3]",
        "（“吃”的 Query）",
        "  # 平滑分布",
        " ✅",
        ".",
        "_{2× 2}",
        " \\quad \\text{(animal)}",
        " here",
    ],
)
def test_what_follows_a_value_is_a_note(rest: str) -> None:
    assert notes.is_note(rest)


@pytest.mark.parametrize("rest", [" + 0.5", " = 1", " x", "^2", " \\ln 2", " (1 - 0.5)", ""])
def test_what_goes_on_with_the_value_is_no_note(rest: str) -> None:
    assert not notes.is_note(rest)


def test_a_note_is_cut_after_the_whole_value() -> None:
    text = "[0.5, 0.3] ✅"
    assert list(notes.note_cuts(text)) == [10]
    # (a cut inside `\end{bmatrix}` or before its argument is no cut)
    m = "\\begin{bmatrix} 1 & 0 \\end{bmatrix}."
    assert list(notes.note_cuts(m)) == [len(m) - 1]


@pytest.mark.parametrize(
    ("name", "plain"),
    [
        ("Q (2 × 3)", "Q"),
        ("Q_{(2× 2)}", "Q"),
        ("2 × 3", "2 × 3"),
        ("K", "K"),
        ("S_{2,1}", "S_{2,1}"),
    ],
)
def test_without_shape(name: str, plain: str) -> None:
    assert notes.without_shape(name) == plain


@pytest.mark.parametrize(
    ("label", "plain"),
    [("**Q**（5×4）：", "Q"), ("`K` (2×2):", "K"), ("注意力权重：", "注意力权重"), ("Q", "Q")],
)
def test_plain_label(label: str, plain: str) -> None:
    assert notes.plain_label(label) == plain


@pytest.mark.parametrize(
    "q_line",
    [
        "$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}.$$",  # a sentence's period
        "$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}_{2\\times 2}$$",  # its shape
        "$$Q_{(2 \\times 2)} = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$",
        "Q (2 × 2) = [[1, 0], [0, 1]]",
        "**Q**（2×2）：[[1, 0], [0, 1]]",
        "**Q** (2×2): `[[1, 0], [0, 1]]`",
        "Q = [[1, 0], [0, 1]] ✅",
        "Q = [[1, 0], [0, 1]]  shape: [2, 2]",
        "Q = [[1, 0], [0, 1]]（“吃”的 Query）",
    ],
)
def test_an_input_with_a_note_or_a_shape_is_read(q_line: str) -> None:
    assert _q_given(q_line) == [((2, 2), True)]


def test_a_shape_is_no_array_of_its_numbers() -> None:
    u = understood("**Q**（2×3）：[[1, 0, 1], [0, 1, 0]]\n")
    assert [(f.role, f.dims) for f in u.facts] == [("q", (2, 3))]


def test_a_number_after_a_value_is_no_note() -> None:
    # `= 0.5 \ln 2`: the math goes on; it is not cut to 0.5
    u = understood("$$w = 0.5 \\ln 2$$\n")
    assert all(s.literals == () or s.first != "w" for s in u.level1.stated)
