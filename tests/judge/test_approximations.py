"""Tests of symattn.judge.approximations: rounded constants as causes."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.judge.approximations import (
    Approximation,
    approximate_e,
    approximate_e_consistent,
    approximate_root,
    contradicted,
)
from symattn.judge.chain import Chain
from symattn.judge.check import check
from symattn.judge.constants import APPROX_E
from symattn.judge.frames import stated_frame
from symattn.judge.graph import Graph, Node
from symattn.judge.run import Run
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers import parse_number
from symattn.present.reports import message
from symattn.spec import loads_spec
from tests.judge.common import run, seed, small


def setup(rows: str, top: str = "d_k = 2") -> tuple[Run, Chain]:
    s = small(rows, top)
    f = stated_frame(s)
    return Run(s, DEFAULT_ACCEPTED, DEFAULT_LIMITS), Chain(Graph(s, f.result, f.scale))


@pytest.mark.parametrize(
    ("scaled", "constant"),
    [("[3.546, 1.418]", "√2 ≈ 1.41"), ("[3.5361, 1.4144]", "√2 ≈ 1.414"), ("[3.5, 1.4]", None)],
)
def test_rounded_root_is_named(scaled: str, constant: str | None) -> None:
    r = run(f"scaled = {scaled}", "d_k = 2")
    found = [f.params["constant"] for f in r.findings if f.code == "approximate-constant"]
    assert found == ([constant] * 2 if constant else []), r.findings


def test_seed_001_float64_sum() -> None:
    ac = next(f for f in seed("animal_street").findings if f.code == "approximate-constant")
    assert ac.params["precision"] == "float64"


def test_approximate_root() -> None:
    r, c = setup("scaled = [3.546, 1.418]")
    hit = approximate_root(r, parse_number("1.418"), c, Node("scaled_scores", (0, 1)))
    assert hit == Approximation("√2 ≈ 1.41", "2 / 1.41 = 1.41844", "exact", "1.414214")
    assert approximate_root(r, parse_number("1.418"), c, Node("exp_scores", (0, 1))) is None


def test_approximate_e_short_claim() -> None:
    # e^(5/sqrt(2)) = 34.313...; 2.7^(5/sqrt(2)) = 33.504...
    r, c = setup("scores = [5, 2]")
    node = Node("exp_scores", (0, 0))
    hit = approximate_e(r, parse_number("33.5"), c, node, long=False)
    assert hit is not None and hit.constant == "e ≈ 2.7" and hit.precision == "exact"
    assert hit.computation == "2.7^x[q,a]" and hit.own == "34.3133"  # 5/sqrt(2): no number
    assert approximate_e(r, parse_number("33.5"), c, node, long=True) is None
    scaled = Node("scaled_scores", (0, 0))
    assert approximate_e(r, parse_number("3.5"), c, scaled, long=False) is None


SCALED = """
tokens = ["a", "b"]
query_tokens = ["q"]
[inputs]
scaled = [[0.5, 1.5]]
V = [[1], [2]]
[claims.rows.q]
"""


def _scaled(rows: str) -> tuple[Run, Chain]:
    s = loads_spec(SCALED + rows, name="s.toml")
    f = stated_frame(s)
    return Run(s, DEFAULT_ACCEPTED, DEFAULT_LIMITS), Chain(Graph(s, f.result, f.scale))


def test_a_constant_the_other_numbers_rule_out() -> None:
    # e^0.5 = 1.6487: 1.64 is its truncation, and 2.7^0.5 = 1.6432 -> 1.64 too; but
    # e^1.5 = 4.4817 -> 4.48 while 2.7^1.5 = 4.4366 -> 4.44: the 4.48 rules 2.7 out
    r = check(loads_spec(SCALED + "exp = [1.64, 4.48]", name="s.toml"))
    (f,) = r.findings
    assert (f.claimed, f.code, f.message_key, f.alternatives) == (
        "1.64",
        "truncated",
        "truncated",
        (),
    )
    rr, c = _scaled("exp = [1.64, 4.48]")
    e27 = next(x for x in APPROX_E if x.text == "2.7")
    assert contradicted(rr, c, e27) == Node("exp_scores", (0, 1))
    # without the 4.48 both causes stay possible: both are reported
    (g,) = check(loads_spec(SCALED + "exp = { a = 1.64 }", name="s.toml")).findings
    assert (g.code, g.message_key, g.alternatives) == (
        "truncated",
        "ambiguous",
        ("approximate-constant",),
    )
    assert "e ≈ 2.7: 2.7^0.5" in message(g, "en") and "drops digits" in message(g, "en")
    rr2, c2 = _scaled("exp = { a = 1.64 }")
    got = approximate_e_consistent(rr2, parse_number("1.64"), c2, Node("exp_scores", (0, 0)))
    assert got is not None and got[0].constant == "e ≈ 2.7" and got[1] is True


@pytest.mark.parametrize("long", [True, False])
def test_params(long: bool) -> None:
    a = Approximation("e ≈ 2.718", "2.718**1", "float64" if long else "exact", "2.718282")
    assert list(a.params()) == ["constant", "computation", "precision", "own"]
