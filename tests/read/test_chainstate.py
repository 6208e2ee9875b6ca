"""Tests of symattn.read.chainstate: what a Level 1 pass knows of the numbers it computes with."""

from __future__ import annotations

from symattn.config import DEFAULT_LIMITS
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers import parse_number
from symattn.read.audit import audit
from symattn.read.chainstate import Run, overrides, remember_rounding, value_key
from symattn.read.claims import Judging, Known
from symattn.read.definitions import Definitions
from symattn.read.evaluate import evaluate
from symattn.read.syntax import parse


def _run(known: dict[str, tuple[tuple[int, Known], ...]] | None = None) -> Run:
    judging = Judging(DEFAULT_ACCEPTED, DEFAULT_LIMITS)
    return Run(judging, Definitions(DEFAULT_ACCEPTED, DEFAULT_LIMITS), known or {})


def test_a_number_is_known_by_its_value_not_its_digits() -> None:
    assert value_key(parse_number("1.41")) == value_key(parse_number("1.410"))
    assert value_key(parse_number("1.41")) != value_key(parse_number("1.42"))


def test_the_known_value_is_the_one_stated_last_before_the_chain() -> None:
    quarter = Known(evaluate(parse("1/4")), "a", False)
    third = Known(evaluate(parse("1/3")), "b", False)
    run = _run({"1/4": ((10, quarter), (50, third)), "1/2": ((50, quarter),)})
    got = []
    for at in (0, 20, 60):
        run.at = at
        got.append((run.known_at("1/4"), run.known_at("1/2")))
    # (before both: neither is the one; a number stated once is that one wherever it is used)
    assert got == [(None, quarter), (quarter, quarter), (third, quarter)]


def test_a_number_written_as_a_rounding_stands_for_what_it_rounds() -> None:
    run = _run()
    root = evaluate(parse("\\sqrt{2}"))
    remember_rounding(run, parse_number("1.41"), root, "\\sqrt{2}")
    over, constant = overrides(run, parse("10 / 1.41"))
    assert over == {5: root}  # (by the number's offset in the expression)
    assert constant is not None and constant.constant and constant.value == root
    assert overrides(run, parse("10 / 1.42")) == ({}, None)


def test_a_short_or_exact_number_is_no_rounding() -> None:
    run = _run()
    remember_rounding(run, parse_number("0.7"), evaluate(parse("\\sqrt{1/2}")), "1/√2")
    remember_rounding(run, parse_number("0.25"), evaluate(parse("1/4")), "1/4")
    assert run.rounded == {}
    assert overrides(run, parse("0.7 + 0.25")) == ({}, None)


def test_a_rounded_root_used_again_is_judged_both_ways() -> None:
    """``√2 ≈ 1.41`` then ``10 / 1.41``: 7.07 is 10/√2, 7.09 is right only as written."""
    right = audit("$\\sqrt{2} \\approx 1.41$\n\n$10 / 1.41 \\approx 7.07$\n")
    assert (right.findings, right.checked) == ((), 2)
    (f,) = audit("$\\sqrt{2} \\approx 1.41$\n\n$10 / 1.41 \\approx 7.09$\n").findings
    assert (f.code, f.claimed) == ("approximate-constant", "7.09")
