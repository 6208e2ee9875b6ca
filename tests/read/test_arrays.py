"""Tests of symattn.read.arrays: arrays in Python lists, numpy/torch printouts, braces, plain
rows and prose numbers, with exact positions (one pass over the text)."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.read.arrays import Grid, plain_rows, prose_numbers, scan_arrays

from .texts import read_text, understood


def scan(text: str, braces: bool = False) -> list[Grid]:
    return scan_arrays(text, 0, len(text), DEFAULT_LIMITS, braces=braces)


def values(g: Grid) -> list[str]:
    return [e.text for e in g.entries]


@pytest.mark.parametrize(
    ("text", "dims", "entries", "notation"),
    [
        ("Q = [[1, 0], [0, 1]]", (2, 2), ["1", "0", "0", "1"], "python-list"),
        ("[[0.1 0.2]\n [0.3 0.4]]", (2, 2), ["0.1", "0.2", "0.3", "0.4"], "printout"),
        ("tensor([[1.0000e+00, 2.5e-01]])", (1, 2), ["1.0000e+00", "2.5e-01"], "printout"),
        ("array([1., 0.])", (2,), ["1.", "0."], "printout"),
        ("[1, -2.5, .5]", (3,), ["1", "-2.5", ".5"], "python-list"),
    ],
)
def test_notations(text: str, dims: tuple[int, ...], entries: list[str], notation: str) -> None:
    (g,) = scan(text)
    assert (g.dims, values(g), g.notation) == (dims, entries, notation)
    for e in g.entries:
        assert text[e.at : e.at + len(e.text)] == e.text


def test_elision_and_ragged_rows() -> None:
    (g,) = scan("[[0.1, ..., 0.3], [0.4, ..., 0.6]]")
    assert g.elided and g.dims == (2, 3)
    (r,) = scan("[[1, 2], [3]]")
    assert r.dims is None


def test_index_is_no_list() -> None:
    assert scan("x[0] = B[0][1]") == []


def test_shape_is_no_values() -> None:
    assert scan("torch.Size([5, 4])") == []


@pytest.mark.parametrize("prompt", ["In [16]:", "Out[3]:", "In [ ]:"])
def test_notebook_prompt_is_no_array(prompt: str) -> None:
    # (held-out text en36: `In [16]:` above a printout was an array of one number)
    text = f"{prompt}\nscaled_scores\n\narray([[1.5, 0.5]])\n"
    (g,) = scan_arrays(text, 0, len(text), DEFAULT_LIMITS)
    assert [e.text for e in g.entries] == ["1.5", "0.5"]


def test_row_comments_are_notes() -> None:
    (g,) = scan("K = [\n  [1, 0],  # I\n  [0, 1],  # love\n]")
    assert g.notes == ("I", "love")


def test_label_is_the_text_before() -> None:
    (g,) = scan("Attention weights: [0.5, 0.5]")
    assert g.label == "Attention weights"


def test_braces_only_when_asked() -> None:
    assert scan("{1, 2}") == []
    (g,) = scan("{1, 2}", braces=True)
    assert g.notation == "braces"


def test_plain_rows() -> None:
    text = "0.1 0.2 0.3\n0.4 0.5 0.6\n\n7\n"
    got = [(g.dims, values(g)) for g in plain_rows(text, 0, len(text), DEFAULT_LIMITS)]
    assert got == [((2, 3), ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6"]), ((), ["7"])]


def test_prose_numbers() -> None:
    text = "看了一眼 banana（权重 0.17），a weight of 0.5, the weights [0.5, 0.5]"
    got = [(g.label, values(g)) for g in prose_numbers(text, 0, len(text), DEFAULT_LIMITS)]
    assert got == [("权重", ["0.17"]), ("weight", ["0.5"])]


def test_deep_nesting_is_refused_not_recursed() -> None:
    text = "[" * 5000 + "1" + "]" * 5000
    assert scan(text) == [] or all(g.dims is not None for g in scan(text))


def test_linear_time_on_unclosed_brackets() -> None:
    text = "[1, " * 50_000
    start = time.process_time()
    scan(text)
    assert time.process_time() - start < 2


def test_plain_rows_with_a_note_after_each_row() -> None:
    text = "K:\n\n```\n1 0   ← token 1\n0 1   ← token 2\n```\n"
    u = understood(text)
    assert [(f.role, f.dims, f.given) for f in u.facts] == [("k", (2, 2), True)]
    line = "0.1 0.9   # 平滑分布\n"
    grids = plain_rows(line, 0, len(line), DEFAULT_LIMITS)
    assert [[e.text for e in g.entries] for g in grids] == [["0.1", "0.9"]]


@pytest.mark.parametrize(
    "line",
    ["2024 年的文章", "3 个 token", "2 3 个 token", "1.2 Scaled attention", "1 0 the keys"],
)
def test_a_year_a_section_number_or_prose_is_no_row(line: str) -> None:
    assert plain_rows(line + "\n", 0, len(line), DEFAULT_LIMITS) == []


def test_the_label_above_a_fence_names_the_array_in_it() -> None:
    text = "查询矩阵 Q：\n\n```\n[1, 0]   ← token 1 的 query\n[0, 1]   ← token 2 的 query\n```\n"
    u = understood(text)
    assert [(f.role, f.dims, f.given) for f in u.facts] == [("q", (2, 2), True)]
    # (code above the fence is no label)
    code = "for x in xs:\n    print(x)\n\n```\n[1, 0]\n```\n"
    r = read_text(code)
    assert all(p.grid.label == "" for p in r.grids)


def test_entries_written_as_percentages() -> None:
    (g,) = scan("比如 [0.1%, 90%, 9.9%]")
    assert values(g) == ["0.1%", "90%", "9.9%"]
    assert [e.written.value for e in g.entries if e.written] == [
        Fraction(1, 1000),
        Fraction(9, 10),
        Fraction(99, 1000),
    ]
    text = "10%\n30%\n60%\n"
    (col,) = plain_rows(text, 0, len(text), DEFAULT_LIMITS)
    assert col.dims == (3, 1) and values(col) == ["10%", "30%", "60%"]
    assert col.entries[0].written is not None and col.entries[0].written.decimals == 2
