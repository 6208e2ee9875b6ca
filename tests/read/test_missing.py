"""Tests of symattn.read.missing: what a text states without the inputs to check it, and
weights that do not sum to one."""

from __future__ import annotations

from symattn.read.missing import missing_inputs, unnormalized

from .texts import understood


def _missing(text: str) -> list[tuple[str, str, int]]:
    u = understood(text)
    return [(f.code, f.claimed, f.line) for f in missing_inputs(u.facts)]


def test_stated_weights_without_inputs_are_not_checked() -> None:
    assert _missing("intro\n\n注意力权重： $[0.5, 0.5]$\n") == [("missing-input", "0.5", 3)]


def test_nothing_stated_nothing_reported() -> None:
    assert _missing("$1 + 1 = 2$\n") == []


def test_named_weights_that_do_not_sum_to_one() -> None:
    u = understood("$$weights = [0.50, 0.60]$$\n")
    got = [(f.code, f.claimed) for f in unnormalized(u.facts, frozenset())]
    assert got == [("not-normalized", "0.50 + 0.60"), ("not-normalized", "0.60")]


def test_weights_that_sum_to_one_are_fine() -> None:
    u = understood("$$weights = [0.5, 0.5]$$\n")
    assert unnormalized(u.facts, frozenset()) == []
