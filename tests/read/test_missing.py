"""Tests of symattn.read.missing: what a text states without the inputs to check it."""

from __future__ import annotations

from symattn.config import DEFAULT_LIMITS
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.read.extract import chains
from symattn.read.level1 import judge_chains
from symattn.read.missing import missing_inputs
from symattn.read.scan import scan


def _missing(text: str) -> list[tuple[str, str, int]]:
    found, _ = chains(text)
    level1 = judge_chains(found, accepted=DEFAULT_ACCEPTED, limits=DEFAULT_LIMITS)
    return [
        (f.code, f.claimed, f.line)
        for f in missing_inputs(level1.stated, scan(text, DEFAULT_LIMITS))
    ]


def test_stated_weights_without_inputs_are_not_checked() -> None:
    assert _missing("intro\n注意力权重： [0.5, 0.5]\n") == [("missing-input", "0.5", 2)]


def test_stated_weights_that_do_not_sum_to_one() -> None:
    assert _missing("注意力权重： [0.50, 0.60]\n") == [
        ("missing-input", "0.50", 1),
        ("not-normalized", "0.50 + 0.60", 1),
    ]


def test_nothing_stated_nothing_reported() -> None:
    assert _missing("$1 + 1 = 2$\n") == []
