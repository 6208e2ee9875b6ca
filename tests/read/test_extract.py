"""Tests of symattn.extract: finding math and cutting it into chains."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.config import Limits
from symattn.errors import SymattnError
from symattn.read.extract import chains

SEEDS = Path(__file__).parents[1] / "fixtures" / "seeds"


def link_texts(text: str) -> list[list[str]]:
    found, _ = chains(text)
    return [[ln.text for ln in c.links] for c in found]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$$1 \\times 1 = 1$$", [["1 × 1", "1"]]),
        ("a $x = 2$ b", [["x", "2"]]),
        ("\\(y = 3\\)", [["y", "3"]]),
        ("\\[\nz \\approx 2.5\n\\]", [["z", "2.5"]]),
        ("\\begin{align}a &= 1 \\\\ b &= 2\\end{align}", [["a", "1"], ["b", "2"]]),
        ("$k_1$ (Thinking) $= [1, 2]$", [["k_1", "[1, 2]"]]),
        ("($v_1=[10, 20], v_2=[30, 40]$)", [["v_1", "[10, 20]"], ["v_2", "[30, 40]"]]),
        ("score(它，动物)=0.47*0.22=0.1034", [["score(它,动物)", "0.47*0.22", "0.1034"]]),
        ("• e^1 约等于 2.718", [["e^1", "2.718"]]),
        ("```\nx = 1 + 2\n```", []),
        ("feature_dim = query_matrix.size(-1)", []),
        ("just prose without numbers = none", []),
        ("$Q$ is the query", []),
    ],
)
def test_chains(text: str, expected: list[list[str]]) -> None:
    assert link_texts(text) == expected


def test_positions_are_lines_and_columns() -> None:
    found, _ = chains("title\n\n  • $e^{1.0} \\approx 2.71$\n")
    (c,) = found
    assert (c.line, c.column) == (3, 6)
    last = c.links[-1]
    assert last.at(0) == (3, 22)


def test_prose_word_before_a_continued_chain() -> None:
    found, _ = chains("3. 总和 $= 12.18 + 2.71 = 14.89$")
    (c,) = found
    assert c.before == "总和"
    assert [ln.text for ln in c.links] == ["", "12.18 + 2.71", "14.89"]


def test_seed_001_chains() -> None:
    found, _ = chains((SEEDS / "001_b0b3fceff32b9228.txt").read_text(encoding="utf-8"))
    lasts = [c.links[-1].text for c in found]
    for claim in ("0.12965", "0.16835", "0.1217", "3.3125069954097492", "[0.031,0.111]"):
        assert claim in lasts


def test_long_lines_are_skipped_and_reported() -> None:
    found, skipped = chains("x = " + "1+" * 100 + "1", limits=Limits(max_line_length=50))
    assert found == [] and skipped and "max_line_length" in skipped[0].reason


_ALPHABET = "$\\[]()=≈0123456789.+-×÷^{}_,，（）a e\n总和abcfrac sqrt`|&约等于"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=120))
def test_fuzz_extractor_never_crashes_or_hangs(text: str) -> None:
    start = time.monotonic()
    try:
        found, _ = chains(text)
    except SymattnError:
        return
    for c in found:
        assert len(c.links) >= 2
        assert all(ln.at(0)[0] >= 1 for ln in c.links)
    assert time.monotonic() - start < 2


@pytest.mark.parametrize(
    ("text", "first", "line", "column"),
    [
        (
            "x\n[0.55, 0.20]*[[1, 0], [0, 1]]\n\n乘积结果=[0.55, 0.20]\n",
            "[0.55, 0.20]*[[1, 0], [0, 1]]",
            2,
            1,
        ),
        ("  [1, 2] × [[1], [1]]\nresult = 3\n", "[1, 2] × [[1], [1]]", 1, 3),
        ("[1, 2]*[[1],[1]]\nThe result = 3\n", "[1, 2]*[[1],[1]]", 1, 1),
    ],
)
def test_result_line_claims_the_expression_line_before(
    text: str, first: str, line: int, column: int
) -> None:
    (chain,), _ = chains(text)
    assert chain.links[0].text == first
    assert chain.links[0].at(0) == (line, column)
    assert chain.links[1].relation == "="


@pytest.mark.parametrize(
    "text",
    [
        "some prose here\nresult = 3\n",  # the line before is prose
        "[1, 2]*[[1],[1]]\ntotal = 3\n",  # not a result label
        "[1, 2] + [3]\n\n\n\n\nresult = 3\n",  # too far away
    ],
)
def test_result_line_without_expression_line_stays_a_definition(text: str) -> None:
    (chain,), _ = chains(text)
    assert chain.links[0].text in ("result", "total")
