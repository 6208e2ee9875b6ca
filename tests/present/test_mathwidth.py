"""Tests of symattn.present.mathwidth: the estimated width of typeset math."""

from __future__ import annotations

import pytest

from symattn.present.mathwidth import text_width, width

#: (LaTeX, width in em measured with xelatex's \wd of \hbox{$\displaystyle ...$} at 10pt)
MEASURED = (
    (r"q_{1} \cdot k_{1} = 1 \times 1 + 2 \times 2 = 1 + 4 = 5", 14.98),
    (r"s_{1} = \frac{5}{\sqrt{2}} = \frac{5\sqrt{2}}{2} \approx 3.5355", 11.34),
    (r"e^{s_{1}} = e^{\frac{5\sqrt{2}}{2}} \approx 34.3133", 9.21),
    (r"X = \begin{bmatrix} -0.1234 & 0.5 & 12.25 \\ 3 & 4 & \frac{1}{3} \end{bmatrix}", 12.41),
    (r"\begin{array}{r} \text{Thinking} \\ \text{Machines} \end{array}", 5.06),
    (r"w_{1} = \frac{e^{s_{1}}}{Z} \approx \frac{34.3133}{38.4266} \approx 0.8930", 12.98),
    (r"\begin{aligned} a &= 1 + 2 + 3 \\ &\quad + 4 \end{aligned}", 5.81),
    (r"\text{注意力权重}", 5.00),
)


@pytest.mark.parametrize(("latex", "measured"), MEASURED)
def test_estimates_are_within_six_percent_of_xelatex(latex: str, measured: float) -> None:
    assert abs(width(latex) - measured) <= 0.06 * measured


def test_binary_minus_is_wider_than_a_sign() -> None:
    assert width("1 - 2") - width("1 2") > width("-2") - width("2")


def test_scripts_and_fractions_shrink() -> None:
    assert width("x^{123}") < width("x123")
    assert width(r"\frac{123}{4}", display=False) < width(r"\frac{123}{4}")


def test_wide_glyphs_count_one_em() -> None:
    assert text_width("它们") == 2.0
    assert text_width("ab") == 1.0


def test_unknown_commands_and_phantoms() -> None:
    assert width(r"\foo") == 1.0
    assert width(r"\vphantom{123456}x") == width("x")
    assert width(r"\hphantom{12}") == width("12")
