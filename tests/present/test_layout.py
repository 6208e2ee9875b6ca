"""Tests of symattn.present.layout: lines broken and matrices split to fit the page."""

from __future__ import annotations

import re

from symattn.present.layout import (
    HEAD,
    LINE_EM,
    MATRIX_EM,
    MAX_BLOCK_ROWS,
    MAX_COLS,
    MAX_ROWS,
    MAX_TERMS,
    TAIL,
    Equation,
    block,
    chain,
    chain_eq,
    fits_together,
    matrix,
    positions,
    shown,
    side,
    vector,
    vector_eq,
    vector_line,
)
from symattn.present.mathwidth import width


def _lines(tex: str) -> list[str]:
    body = tex.removeprefix("\\begin{aligned}\n").removesuffix("\n\\end{aligned}")
    body = body.replace(" \\\\[1ex]\n", " \\\\\n")
    return body.split(" \\\\\n") if tex.startswith("\\begin{aligned}") else [tex]


def test_a_short_chain_stays_on_one_line() -> None:
    tex = chain("x", [side("=", "1", "2"), side("=", "3")])
    assert tex == "x = 1 + 2 = 3"


def test_a_negative_term_is_subtracted_and_repeats_are_dropped() -> None:
    assert chain("x", [side("=", "1", "-2"), side("=", "-1")]) == "x = 1 - 2 = -1"
    assert chain("s", [side("=", "0.5"), side("=", "0.5")]) == "s = 0.5"


def test_a_long_chain_breaks_into_aligned_lines_that_fit() -> None:
    terms = [f"0.{k}5 \\times (-1.25)" for k in range(9)]
    tex = chain("q_{1} \\cdot k_{1}", [side("=", *terms), side("=", "5")])
    lines = _lines(tex)
    assert tex.startswith("\\begin{aligned}") and len(lines) >= 3
    assert lines[0].startswith("q_{1} \\cdot k_{1} &= ")
    assert all(line.startswith("&\\quad + ") for line in lines[1:-1])
    for line in lines:
        assert width(line.replace("&", "")) <= LINE_EM + width("q_{1} \\cdot k_{1}")


def test_every_term_appears_once_in_order_after_breaking() -> None:
    terms = [f"{k}.{k}" for k in range(100, 100 + MAX_TERMS)]
    tex = chain("z", [side("=", *terms)], budget=20)
    flat = tex.replace("&\\quad", "").replace("\\\\", "")
    assert tex.startswith("\\begin{aligned}")
    assert [t for t in flat.split() if t[0].isdigit()] == terms


def test_a_long_sum_shows_its_first_and_last_terms() -> None:
    terms = [str(k) for k in range(100, 160)]
    tex = chain("z", [side("=", *terms), side("=", "1")])
    kept = [t for t in tex.replace("&\\quad", "").split() if t.isdigit()]
    assert kept == terms[:HEAD] + terms[-TAIL:] + ["1"] and r"+ \cdots +" in tex


def test_positions_keep_the_first_and_last() -> None:
    assert positions(5, 12) == [0, 1, 2, 3, 4]
    assert positions(20, 12) == [0, 1, 2, 3, None, 18, 19]
    assert shown((20, 3)) == ([0, 1, 2, 3, 18, 19], [0, 1, 2])


def test_a_small_matrix_with_labels() -> None:
    tex = matrix("X", "=", (2, 2), lambda r, c: f"{r}{c}", [r"\text{a}", r"\text{b}"])
    assert tex == (
        r"X = \begin{array}{r}\text{a} \\ \text{b}\end{array} "
        r"\begin{bmatrix} 00 & 01 \\ 10 & 11 \end{bmatrix}"
    )


def test_a_large_matrix_is_summarised_and_asks_only_for_shown_cells() -> None:
    asked: list[tuple[int, int]] = []

    def cell(r: int, c: int) -> str:
        asked.append((r, c))
        return "1"

    tex = matrix("A", "=", (100, 50), cell)
    assert r"\cdots" in tex and r"\vdots" in tex and r"\ddots" in tex
    assert len(asked) == (MAX_ROWS // 2) * (MAX_COLS // 2)


def test_a_wide_matrix_is_split_into_even_blocks_that_fit() -> None:
    tex = matrix("W", r"\approx", (2, 10), lambda r, c: "-0.1234")
    lines = _lines(tex)
    assert len(lines) >= 2
    assert lines[0] == "&W"
    assert lines[1].startswith(r"&\quad \approx ") and r"\right." in lines[1]
    assert lines[-1].startswith(r"&\quad \hphantom{{}\approx{}}") and lines[-1].endswith(r"\right]")
    lines = lines[1:]
    # each block is headed by the numbers of its columns
    heads = [re.findall(r"\\scriptstyle (\d+)", line) for line in lines]
    assert [int(c) for h in heads for c in h] == list(range(1, 11))
    counts = [line.count("-0.1234") // 2 for line in lines]
    assert sum(counts) == 10 and max(counts) - min(counts) <= 1
    for line in lines:
        assert width(line.replace("&", "")) <= MATRIX_EM + 1


def test_vectors_summarise_and_wrap() -> None:
    assert vector(["1", "2"]) == r"\left[1,\ 2\right]"
    assert r"\ldots" in vector([str(k) for k in range(40)])
    tex = vector_line("o_{1}", r"\approx", ["-12.3456"] * 14)
    assert tex.startswith("\\begin{aligned}") and tex.count("-12.3456") == 14


def test_an_eight_by_eight_matrix_fits_the_measure_unsplit() -> None:
    labels = [rf"\text{{{w}}}" for w in ("I", "love", "reading", "old", "books", "on", "x", "y")]
    tex = matrix(r"\frac{Q K^{T}}{\sqrt{d_k}}", r"\approx", (8, 8), lambda r, c: "-0.5197", labels)
    assert "aligned" not in tex and tex.count("bmatrix") == 2


def test_a_long_left_side_goes_on_a_line_of_its_own_before_splitting() -> None:
    lhs = r"A = \mathrm{softmax}\left(\frac{Q K^{T}}{\sqrt{d_k}}\right)"
    tex = matrix(lhs, r"\approx", (8, 8), lambda r, c: "-0.5197")
    assert _lines(tex) == [f"&{lhs}", _lines(tex)[1]] and "bmatrix" in _lines(tex)[1]


def test_split_blocks_are_headed_by_the_column_labels() -> None:
    names = [rf"\text{{k{c}}}" for c in range(12)]
    tex = matrix("W", "=", (2, 12), lambda r, c: "-0.123456", col_labels=names)
    assert all(rf"\scriptstyle \text{{k{c}}}" in tex for c in range(12))


def test_an_equation_is_the_chain_it_lays_out() -> None:
    short = [side("=", "1", "2"), side("=", "3")]
    assert chain_eq("x", short) == Equation("x", ("&= 1 + 2 = 3",))
    assert chain_eq("x", short).latex == chain("x", short)
    terms = [f"{k}.123456" for k in range(15)]
    long = chain_eq("y", [side("=", *terms), side(r"\approx", "1.5")])
    assert len(long.rows) > 1 and all(r.startswith("&") for r in long.rows)
    assert long.latex == chain("y", [side("=", *terms), side(r"\approx", "1.5")])
    items = [f"{k}.1234" for k in range(14)]
    assert vector_eq("w", r"\approx", items).latex == vector_line("w", r"\approx", items)
    assert len(vector_eq("w", r"\approx", items).rows) > 1


def test_equations_set_together_align_their_relations() -> None:
    a = chain_eq("o_{1,1}", [side("=", "1", "2"), side("=", "3")])
    b = chain_eq("o_{1,2}", [side("=", "4", "5"), side("=", "9")])
    assert block([a]) == a.latex
    assert block([a, b]) == (
        "\\begin{aligned}\no_{1,1} &= 1 + 2 = 3 \\\\\no_{1,2} &= 4 + 5 = 9\n\\end{aligned}"
    )
    assert fits_together([a, b])


def test_equations_too_wide_or_too_many_together_do_not_share_a_block() -> None:
    wide_lhs = chain_eq("x_{" + "1," * 20 + "1}", [side("=", "1")])
    wide_rest = chain_eq("y", [side("=", *["1.2345"] * 8)])
    assert wide_lhs.lhs_em + wide_lhs.rest_em <= LINE_EM
    assert wide_rest.lhs_em + wide_rest.rest_em <= LINE_EM
    assert not fits_together([wide_lhs, wide_rest])  # each fits alone, not together
    one = chain_eq("z", [side("=", "1")])
    assert fits_together([one] * MAX_BLOCK_ROWS)
    assert not fits_together([one] * (MAX_BLOCK_ROWS + 1))
