"""Tests of symattn.read.census: every number of a text, and what became of it."""

from __future__ import annotations

from symattn.read.census import Census
from symattn.read.source import Source


def test_numbers_not_names() -> None:
    c = Census.of(Source.of("x_2 = 1.5, W1, 3D, 2nd, 4e-3 and .5"))
    assert list(c.numbers.values()) == ["1.5", "4e-3", ".5"]


def test_statuses_and_reasons() -> None:
    src = Source.of("a 1 b -2 c 3\n")
    c = Census.of(src)
    c.read(src.text.index("1"))
    c.judged(src.text.index("-"))  # a sign counts as its number
    c.read(src.text.index("2"))  # judged stays judged
    c.why_not(src.text.index("3"), len(src.text), "code not read")
    assert [(r.text, r.status, r.reason) for r in c.records()] == [
        ("1", "read", ""),
        ("2", "judged", ""),
        ("3", "not read", "code not read"),
    ]


def test_unread_number_defaults_to_prose() -> None:
    (r,) = Census.of(Source.of("about 7 things")).records()
    assert (r.line, r.column, r.status, r.reason) == (1, 7, "not read", "prose")
