"""Tests of symattn.read.ruler: ordered lists of reading rules."""

from __future__ import annotations

import pytest

from symattn.read.ruler import Rule, Ruler


def _rule(name: str, log: list[str], *, stop: bool = False, kinds: str = "") -> Rule[list[str]]:
    def run(state: list[str]) -> bool:
        state.append(name)
        log.append(name)
        return stop

    return Rule(name, run, frozenset(kinds.split()) if kinds else frozenset())


def test_rules_run_in_order_until_one_reads_the_block() -> None:
    log: list[str] = []
    ruler = Ruler.of((_rule("a", log), _rule("b", log, stop=True), _rule("c", log)))
    state: list[str] = []
    ruler.run(state, "prose")
    assert state == ["a", "b"] and log == ["a", "b"]


def test_only_the_rules_of_a_kind_run() -> None:
    log: list[str] = []
    ruler = Ruler.of((_rule("p", log, kinds="prose"), _rule("m", log, kinds="math")))
    ruler.run([], "math")
    assert log == ["m"]


def test_before_after_replace_and_without_give_new_lists() -> None:
    log: list[str] = []
    base = Ruler.of((_rule("a", log), _rule("c", log)))
    added = base.after("a", _rule("b", log)).before("a", _rule("first", log))
    assert added.names() == ("first", "a", "b", "c")
    assert base.names() == ("a", "c")  # (a ruler is a value: the base list is unchanged)
    assert added.replace("b", _rule("b2", log)).names() == ("first", "a", "b2", "c")
    assert added.without("first").names() == ("a", "b", "c")
    assert base.push(_rule("z", log)).names() == ("a", "c", "z")


def test_names_are_unique_and_anchors_must_exist() -> None:
    log: list[str] = []
    base = Ruler.of((_rule("a", log),))
    with pytest.raises(ValueError, match="already"):
        base.push(_rule("a", log))
    with pytest.raises(KeyError, match="no reading rule"):
        base.after("nope", _rule("b", log))
