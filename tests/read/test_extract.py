"""Tests of symattn.read.extract: formulas cut into chains, one per formula."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.config import Limits
from symattn.read.extract import _formulas

from ..conftest import english
from .texts import SEED_001, SEEDS, chain_texts, read_text


def links(text: str, fmt: str = "markdown") -> list[list[str]]:
    return [[ln.text for ln in c.links] for c in read_text(text, fmt).chains]


@pytest.mark.parametrize(
    ("text", "fmt", "expected"),
    [
        ("$$1 \\times 1 = 1$$", "markdown", [["1 × 1", "1"]]),
        ("a $x = 2$ b", "markdown", [["x", "2"]]),
        ("\\(y = 3\\)", "latex", [["y", "3"]]),
        ("\\[\nz \\approx 2.5\n\\]", "latex", [["z", "2.5"]]),
        ("\\begin{align}a &= 1 \\\\ b &= 2\\end{align}", "latex", [["a", "1"], ["b", "2"]]),
        ("$k_1$ (Thinking) $= [1, 2]$", "markdown", [["k_1 (Thinking)", "[1, 2]"]]),
        ("($v_1=[10, 20], v_2=[30, 40]$)", "markdown", [["v_1", "[10, 20]"], ["v_2", "[30, 40]"]]),
        ("score(它，动物)=0.47*0.22=0.1034", "text", [["score(它,动物)", "0.47*0.22", "0.1034"]]),
        ("• e^1 约等于 2.718", "text", [["e^1", "2.718"]]),
        (
            "$$Q = [[1,0],[0,1]] V = [[1,2],[3,4]] d_k = 2$$",
            "markdown",
            [["Q", "[[1,0],[0,1]]"], ["V", "[[1,2],[3,4]]"], ["d_k", "2"]],
        ),
        ("$x = 1$; $y = 2$", "markdown", [["x", "1"], ["y", "2"]]),
        ("a = 1; b = 2。c = 3", "text", [["a", "1"], ["b", "2"], ["c", "3"]]),
        ("1.15/1.414≈0.813", "text", [["1.15/1.414", "0.813"]]),
        # a case, then its formula: two formulas at the colon
        (
            'j=1 ("I"): (0.3 + 0.4) / 2 = 0.35',
            "text",
            [["j", '1 ("I")'], ["(0.3 + 0.4) / 2", "0.35"]],
        ),
        ("i = 1：q_1 = [1, 0]", "text", [["i", "1"], ["q_1", "[1, 0]"]]),
        ("Step 1: x = 3", "text", [["Step 1: x", "3"]]),  # (no formula before the colon)
        ("t = 12:30 = x", "text", [["t", "12:30", "x"]]),  # (no space after it: no case)
        # a number times a name, a term of a sum: no new formula at the name
        ("$z = 0.5 v_1 + 0.25 v_3 \\approx 1$", "markdown", [["z", "0.5 v_1 + 0.25 v_3", "1"]]),
        ("$a = 2 b = 3$", "markdown", [["a", "2"], ["b", "3"]]),
        ("$a = -2 b = 3$", "markdown", [["a", "-2"], ["b", "3"]]),
        ("```\nx = 1 + 2\n```", "markdown", []),
        ("just prose without numbers = none", "text", []),
        ("$Q$ is the query", "markdown", []),
    ],
)
def test_chains(text: str, fmt: str, expected: list[list[str]]) -> None:
    assert links(text, fmt) == expected


def test_positions_are_lines_and_columns() -> None:
    (c,) = read_text("title\n\n  • $e^{1.0} \\approx 2.71$\n").chains
    assert (c.line, c.column) == (3, 6)
    assert c.links[-1].at(0) == (3, 22)


def test_prose_word_before_a_continued_chain() -> None:
    (c,) = read_text("3. 总和 $= 12.18 + 2.71 = 14.89$").chains
    assert c.before == "总和"
    assert [ln.text for ln in c.links] == ["", "12.18 + 2.71", "14.89"]


def test_a_step_arrow_is_a_link() -> None:
    (c,) = read_text("$$S = [2, 1] \\rightarrow [1, 0.5]$$").chains
    assert [(ln.relation, ln.text) for ln in c.links] == [
        ("", "S"),
        ("=", "[2, 1]"),
        ("→", "[1, 0.5]"),
    ]


def test_seed_001_chains() -> None:
    text = (SEEDS / SEED_001).read_text(encoding="utf-8")
    lasts = [c.links[-1].text for c in read_text(text, "text").chains]
    for claim in ("0.12965", "0.16835", "0.1217", "3.3125069954097492"):
        assert claim in lasts


def test_long_math_is_skipped_and_said() -> None:
    r = read_text("$$x = " + "1+" * 100 + "1$$", "markdown", Limits(max_line_length=50))
    assert r.chains == [] and r.skipped and "max_line_length" in english(r.skipped[0].reason)


@pytest.mark.parametrize(
    ("text", "first", "line", "column"),
    [
        (
            "x\n\n[0.55, 0.20]*[[1, 0], [0, 1]]\n\n乘积结果=[0.55, 0.20]\n",
            "[0.55, 0.20]*[[1, 0], [0, 1]]",
            3,
            1,
        ),
        ("  [1, 2] × [[1], [1]]\n\nresult = 3\n", "[1, 2] × [[1], [1]]", 1, 3),
        ("[1, 2]*[[1],[1]]\n\nThe result = 3\n", "[1, 2]*[[1],[1]]", 1, 1),
    ],
)
def test_result_line_claims_the_expression_line_before(
    text: str, first: str, line: int, column: int
) -> None:
    (chain,) = read_text(text, "text").chains
    assert chain.links[0].text == first
    assert chain.links[0].at(0) == (line, column)
    assert chain.links[1].relation == "="


@pytest.mark.parametrize(
    "text",
    [
        "some prose here\n\nresult = 3\n",
        "[1, 2]*[[1],[1]]\n\ntotal = 3\n",
        "[1, 2]\n\nresult = 3\n",
    ],
)
def test_result_line_without_expression_line_stays_a_definition(text: str) -> None:
    (chain,) = read_text(text, "text").chains
    assert chain.links[0].text in ("result", "total")


_ALPHABET = "$\\[]()=≈0123456789.+-×÷^{}_,，（）a e\n总和abcfrac sqrt`|&约等于"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=120), st.sampled_from(["markdown", "latex", "text"]))
def test_fuzz_reading_never_crashes_or_hangs(text: str, fmt: str) -> None:
    start = time.monotonic()
    for c in read_text(text, fmt).chains:
        assert len(c.links) >= 2
        assert all(ln.at(0)[0] >= 1 for ln in c.links)
    assert time.monotonic() - start < 2


def test_a_link_of_an_array_laid_out_over_lines_ends_the_formula() -> None:
    text = "```\n  [[1,0],    [[1,0,1],\n   [0,1],  ×  [0,1,1]]  =   [0, 1, 1],\n```\n"
    assert chain_texts(text) == []
    # (a formula before such a link is kept)
    assert chain_texts("除以 √2 ≈ 1.414: = [[0.71, 0,\n") == ["除以 √2 ≈ 1.414:"]


def test_a_result_line_under_arithmetic_that_names_its_vectors_claims_its_value() -> None:
    """``= [0.845, 0.580]`` on the line under ``0.665 * v0 + 0.245 * v1`` (no relation on that
    line) is the value of that arithmetic, in a code block as in text; a result line under
    prose stays a chain of its own."""
    text = "```text\n0.665 * v0 + 0.245 * v1\n= [0.845, 0.580]\n```\n"
    assert chain_texts(text) == ["0.665 * v0 + 0.245 * v1 = [0.845, 0.580]"]
    text = "```text\nsome words here\n= [0.845, 0.580]\n```\n"
    assert all(not c.startswith("some") for c in chain_texts(text))


def test_parameters_listed_after_words_are_one_formula_each() -> None:
    norm = "Shapes and the invariant, B = 2, T = 5, d = 8:"
    assert [norm[a:b].strip() for a, b in _formulas(norm)] == ["B = 2", "T = 5", "d = 8:"]
    # (a piece with a number and no relation keeps the whole as one formula)
    norm = "x = 1, 2, 3"
    assert [norm[a:b].strip() for a, b in _formulas(norm)] == [norm]


def _named(text: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.text, c.row_names) for c in read_text(text).chains]


def test_a_column_of_row_labels_before_a_matrix_names_its_rows() -> None:
    text = (
        "$$X = \\begin{array}{r}\\text{I} \\\\ \\text{am}\\end{array} "
        "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n"
    )
    assert _named(text) == [("X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}", ("I", "am"))]


def test_a_column_of_arrows_and_words_after_a_matrix_names_its_rows() -> None:
    # (en86: the labels of Q's rows, then K on the same line)
    text = (
        "$$Q = \\begin{bmatrix} 1.0 & 0.0 \\\\ 0.0 & 2.0 \\end{bmatrix} \\begin{matrix} "
        '\\leftarrow \\text{"The"} \\\\ \\leftarrow \\text{"river"} \\end{matrix}, \\quad '
        "K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n"
    )
    (q, k) = _named(text)
    assert q == ("Q = \\begin{bmatrix} 1.0 & 0.0 \\\\ 0.0 & 2.0 \\end{bmatrix}", ("The", "river"))
    assert k == ("K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}", ())


def test_a_column_of_words_beside_a_matrix_of_other_rows_is_blanked_but_names_none() -> None:
    text = (
        "$$X = \\begin{array}{r}\\text{I} \\\\ \\text{am} \\\\ \\text{x}\\end{array} "
        "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n"
    )
    assert _named(text) == [("X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}", ())]


@pytest.mark.parametrize(
    "body",
    [
        # words beside no matrix: no row labels, kept as written
        "A = \\begin{matrix} \\text{cat} \\\\ \\text{dog} \\end{matrix}",
        "A = \\begin{matrix} \\text{cat} \\\\ \\text{dog} \\end{matrix} + 1",
        # a matrix of symbols or numbers is a value, even beside another
        "A = \\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix} \\begin{matrix} q_1 \\\\ q_2 \\end{matrix}",
        "A = \\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix} \\begin{matrix} 3 \\\\ 4 \\end{matrix}",
    ],
)
def test_what_is_no_column_of_row_labels_is_kept(body: str) -> None:
    ((text, names),) = _named(f"$${body}$$\n")
    assert "\\begin{matrix}" in text and names == ()


@pytest.mark.parametrize(
    ("norm", "formulas"),
    [
        # a sentence ends after a value, before a capital letter
        ("d = 2 . Use exp(0) = 1.0000", ["d = 2 .", "Use exp(0) = 1.0000"]),
        ("d = 2. Use exp(0) = 1.0000", ["d = 2.", "Use exp(0) = 1.0000"]),
        # a float printout's points are no sentence end
        ("x = [1. 2.] = [1, 2]", ["x = [1. 2.] = [1, 2]"]),
        ("y = 2. + 3", ["y = 2. + 3"]),
    ],
)
def test_a_period_before_a_capital_ends_a_formula(norm: str, formulas: list[str]) -> None:
    assert [norm[a:b].strip() for a, b in _formulas(norm)] == formulas


def test_a_dot_between_blanks_is_a_product_not_part_of_a_number() -> None:
    text = "`q1 . k1 = [1, 0] . [1, 1] = 1`\n"
    assert chain_texts(text) == ["q1 · k1 = [1, 0] · [1, 1] = 1"]
