"""Tests of symattn.read.census: every number of a text, and what became of it."""

from __future__ import annotations

import time

from symattn.read.census import PROSE, STATUSES, Census, NumberStatus
from symattn.read.messages import not_checked
from symattn.read.source import Source


def test_numbers_not_names() -> None:
    c = Census.of(Source.of("x_2 = 1.5, W1, 3D, 2nd, 4e-3 and .5"))
    assert [c.text(k) for k in range(len(c))] == ["1.5", "4e-3", ".5"]


def test_statuses_and_reasons() -> None:
    src = Source.of("a 1 b -2 c 3\n")
    c = Census.of(src)
    c.read(src.text.index("1"))
    c.judged(src.text.index("-"))  # a sign counts as its number
    c.read(src.text.index("2"))  # judged stays judged
    c.why_not(src.text.index("3"), len(src.text), not_checked("code-no-stage"))
    assert [(r.text, r.status, r.reason) for r in c.records()] == [
        ("1", "read", None),
        ("2", "judged", None),
        ("3", "not read", not_checked("code-no-stage")),
    ]


def test_unread_number_defaults_to_prose() -> None:
    (r,) = Census.of(Source.of("about 7 things")).records()
    assert (r.line, r.column, r.status, r.reason) == (1, 7, "not read", PROSE)
    assert r.reason is not None and r.reason.key == "prose"


def test_coverage_counts_and_reasons() -> None:
    src = Source.of("1 2 3 4")
    c = Census.of(src)
    c.read(0)
    c.judged(2)
    code = not_checked("code-no-stage")
    c.why_not(4, 7, code)
    cov = c.coverage()
    assert (cov.numbers, cov.read, cov.judged, cov.not_read) == (4, 2, 1, ((code, 2),))


def test_coverage_adds_up_one_reason_given_twice() -> None:
    src = Source.of("1 2 3 4")
    c = Census.of(src)
    c.why_not(0, 3, not_checked("line-too-long", limit=5))
    c.why_not(4, 7, not_checked("line-too-long", limit=5))
    assert c.coverage().not_read == ((not_checked("line-too-long", limit=5), 4),)


def test_records_are_capped_but_counts_are_not() -> None:
    c = Census.of(Source.of("1 " * 1000))
    assert len(c.records(limit=10)) == 10 and c.coverage().numbers == 1000


def test_a_million_numbers_are_compact_and_fast() -> None:
    start = time.process_time()
    c = Census.of(Source.of("1+" * 1_000_000))
    cov = c.coverage()
    records = c.records()
    assert cov.numbers == 1_000_000 and len(records) == 100_000
    assert time.process_time() - start < 5


def test_statuses_by_their_byte() -> None:
    assert STATUSES == (NumberStatus.NOT_READ, NumberStatus.READ, NumberStatus.JUDGED)
    src = Source.of("a 1 b 2 c 3\n")
    c = Census.of(src)
    c.read(src.text.index("1"))
    c.judged(src.text.index("2"))
    assert [r.status for r in c.records()] == [
        NumberStatus.READ,
        NumberStatus.JUDGED,
        NumberStatus.NOT_READ,
    ]
