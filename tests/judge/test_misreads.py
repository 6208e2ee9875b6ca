"""Tests of symattn.judge.misreads: misread inputs of a dot product."""

from __future__ import annotations

from fractions import Fraction

from symattn.judge.misreads import (
    digit_misreadings,
    dot_quantity,
    misread_text,
    misreadings,
    operands,
)
from tests.judge.common import run, small

F = Fraction


def test_digit_misreadings() -> None:
    assert list(digit_misreadings(F("0.225"))) == [
        ("misread-dropped-digit", F("0.25")),
        ("misread-doubled-digit", F("0.2225")),
        ("misread-dropped-digit", F("0.22")),
        ("misread-doubled-digit", F("0.2255")),
    ]
    assert list(digit_misreadings(F(1, 3))) == []  # no finite decimal to misread
    assert list(digit_misreadings(F(1, 2**50))) == []  # too many decimals


def test_operands_and_misreadings() -> None:
    res = small("").run()
    plan = operands("output", (0, 1), res)
    assert plan is not None
    w, v = plan
    assert v.labels == ("V[a,1]", "V[b,1]") and v.entries == (F(20), F(40))
    assert w.entries == (None, None)  # the weights are irrational
    assert operands("weights", (0, 1), res) is None
    got = {(m.cause, m.k, m.entries) for m in misreadings(v)}
    assert ("misread-dropped-digit", 0, (F(2), F(40))) in got
    assert ("misread-swapped", 0, (F(40), F(20))) in got
    assert ("misread-neighbour", 0, (F(10), F(40))) in got  # V[a,0]
    assert list(misreadings(w)) == []


def test_dot_quantity_and_text() -> None:
    res = small("").run()
    plan = operands("scores", (0, 1), res)
    assert plan is not None
    q, k = plan
    assert dot_quantity(q, (F(1), F(1))).rational() == 3
    m = next(m for m in misreadings(k) if m.cause == "misread-sign")
    assert misread_text(k, m) == "K[b,1] = 1 → -1"


def test_misread_in_check() -> None:
    (f,) = [f for f in run("output = [9.2507, 22.1408]", "d_k = 2").findings]
    assert f.cause == "misread-dropped-digit" and f.params["slip"] == "V[b,0] = 30 → 3"
