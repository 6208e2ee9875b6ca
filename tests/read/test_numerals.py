"""Tests of symattn.read.numerals: the one number scanner."""

from __future__ import annotations

import pytest

from symattn.numbers import parse_number
from symattn.read import numerals
from symattn.read.census import Census
from symattn.read.source import Source


def _in_text(text: str) -> list[str]:
    return [m.group() for m in numerals.numbers_in(text)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("q = [0.5, 2., .25, 1e-3]", ["0.5", "2.", ".25", "1e-3"]),
        ("x_2 W1 3D 2nd v1.2 are names", []),
        ("权重为0.79，总和 1", ["0.79", "1"]),
        ("-0.5 and −1", ["0.5", "1"]),  # (the sign is the text's)
    ],
)
def test_numbers_of_running_text(text: str, found: list[str]) -> None:
    assert _in_text(text) == found


def test_the_census_counts_what_the_scanner_finds() -> None:
    text = "Scores: [2.0, -1.5] for x_1 in 2024; 权重 0.79。"
    census = Census.of(Source.of(text))
    assert [census.text(k) for k in range(len(census))] == _in_text(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [("0.5", ["0.5"]), ("−0.25", ["−0.25"]), ("3个", []), ("1.2.3", []), ("a 7 b", ["7"])],
)
def test_numbers_that_are_words(text: str, found: list[str]) -> None:
    assert [m.group() for m in numerals.words_in(text)] == found


def test_number_at_an_offset_with_its_sign() -> None:
    text = "[-0.5, +2e3, x]"
    assert (m := numerals.number_at(text, 1, len(text))) is not None and m.group() == "-0.5"
    assert (m := numerals.number_at(text, 7, len(text))) is not None and m.group() == "+2e3"
    assert numerals.number_at(text, 13, len(text)) is None
    assert (m := numerals.number_at(text, 1, 4)) is not None and m.group() == "-0."


def test_a_percentage_is_the_number_in_units() -> None:
    w = numerals.percent(parse_number("25.84"))
    assert (w.value, w.text, w.decimals) == (parse_number("0.2584").value, "25.84%", 4)
    assert "％" in numerals.PERCENT and "%" in numerals.PERCENT
