"""Tests of symattn.judge.chain: a row recomputed from the author's own numbers."""

from __future__ import annotations

from fractions import Fraction

import flint

from symattn.exact import Ball
from symattn.judge.chain import E_FIELDS, Chain
from symattn.judge.frames import stated_frame
from tests.judge.common import run, seed, small

ROWS = (
    "scores = [5, 2]\nscaled = [2.5, 1.0]\nexp = [12.18, 2.71]\nsum = 14.89\n"
    "weights = [0.82, 0.18]\noutput = [13.6, 23.6]"
)


def chain(rows: str = ROWS) -> Chain:
    s = small(rows, "d_k = 4")
    f = stated_frame(s)
    return Chain(s, "q", 0, f.result, f.scale)


def test_seed_000_sum_follows_from_own_numbers() -> None:
    r = seed("thinking_machines")
    f = next(f for f in r.findings if f.claimed == "14.89")
    assert (f.code, f.severity, f.message_key) == (
        "propagated-rounding",
        "warning",
        "propagated-exact",
    )
    assert f.params["formula"] == "12.18 + 2.71"


def test_propagated_interval() -> None:
    # exps to 1 decimal stand for [34.25, 34.35] + [4.05, 4.15]; exact sum 38.4266 -> 38.43
    r = run("exp = [34.3, 4.1]\nsum = 38.41", "d_k = 2")
    f = next(f for f in r.findings if f.claimed == "38.41")
    assert (f.code, f.message_key) == ("propagated-rounding", "propagated-interval")


def test_formulas() -> None:
    c = chain()
    assert c.formula("scaled", 0) == "5 * 1/2"
    assert c.formula("sum", None) == "12.18 + 2.71"
    assert c.formula("sum", None, base="2.718") == "2.718^2.5 + 2.718^1.0"
    assert c.formula("weights", 0) == "12.18 / 14.89"
    assert c.formula("output", 1) == "0.82×V[0,1] + 0.18×V[1,1]"


def test_point_values_are_exact_when_rational() -> None:
    c = chain()
    assert c.rational("scaled", 0, None) == Fraction(5, 2)
    assert c.rational("sum", None, None) == Fraction(1489, 100)
    assert c.rational("output", 0, None) == Fraction(68, 5)  # 0.82*10 + 0.18*30
    assert chain("scores = [5, 2]").rational("exp", 0, None) is None  # e^2.5


def test_interval_carries_the_rounding() -> None:
    c = chain("exp = [34.3, 4.1]")
    fn = c.derive("sum", None, point=False)
    assert fn is not None and c.derive("scores", 0, point=False) is None
    with flint.ctx.workprec(128):
        b = Ball.from_arb(fn())
    assert b.lower <= Fraction("38.3") and Fraction("38.5") <= b.upper


def test_float64_as_a_program_computes() -> None:
    c = chain()
    assert c.float_value("sum", None, 2.718) == 2.718**2.5 + 2.718**1.0
    assert c.float_formula("sum", None, "2.718") == "2.718**2.5 + 2.718**1.0"
    assert c.float_value("exp", 1, 2.718) == 2.718**1.0


def test_e_fields_follow_exp_in_the_stage_table() -> None:
    assert E_FIELDS == ("exp", "sum", "weights", "output")
