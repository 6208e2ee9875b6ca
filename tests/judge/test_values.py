"""Tests of symattn.judge.values: the graph's values under each policy, and the property that
claims computed from unrounded inputs are never errors once the printed roundings are said."""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

import flint
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from symattn.engine import scaled_dot_product_attention
from symattn.errors import PrecisionError
from symattn.judge.check import check
from symattn.judge.frames import stated_frame
from symattn.judge.graph import Graph, Node
from symattn.judge.programs import ARITHMETICS
from symattn.judge.values import (
    EXACT,
    INTERVAL,
    POINT,
    Policy,
    Values,
    between,
    lower,
    magnitude,
    plus_minus,
    ratio_bounds,
    upper,
)
from symattn.numbers.rounding import Rounding, round_decimals
from symattn.spec import loads_spec
from tests.judge.common import small

DB = DirectoryBasedExampleDatabase(Path(tempfile.gettempdir()) / "symattn-hypothesis-judge")


def _values(rows: str, policy: Policy, top: str = "d_k = 2") -> tuple[Graph, Values]:
    s = small(rows, top)
    f = stated_frame(s)
    g = Graph(s, f.result, f.scale)
    return g, Values(g, policy)


def test_helpers() -> None:
    b = between(Fraction(1), Fraction(3))  # a ball: its radius is rounded up (30 bits)
    assert lower(b) <= 1 and 3 <= upper(b) and upper(b) - lower(b) - 2 < Fraction(1, 10**8)
    assert between(Fraction(2), Fraction(2)) == Fraction(2)
    assert 5 <= magnitude(between(Fraction(-5), Fraction(3))) < Fraction(501, 100)
    assert plus_minus(Fraction(1), Fraction(0)) == 1
    w = plus_minus(Fraction(1), Fraction(1, 10))
    assert lower(w) <= Fraction(9, 10) and Fraction(11, 10) <= upper(w)


def test_ends_of_extreme_balls_are_bounded_not_written_out() -> None:
    # exp(-7.26e16) (a printed torch.empty value taken as a score): its ends would need
    # 10**17 bits; a tiny midpoint with a wider radius is bounded outward the same way
    tiny = flint.arb(-7.2621e16).exp()
    assert lower(tiny) < 0 < upper(tiny) < Fraction(1, 10**1000)
    wide = flint.arb(tiny, flint.arb(2) ** -10)
    assert lower(wide) <= -Fraction(1, 2**10) and Fraction(1, 2**10) <= upper(wide) < 1
    assert upper(wide) - Fraction(1, 2**10) < Fraction(1, 2**30)  # the radius rounded up
    with pytest.raises(PrecisionError, match="beyond"):
        lower(flint.arb(7.2621e16).exp())
    assert ratio_bounds([tiny, Fraction(1)], 1) != 0


def test_ratio_bounds_by_monotonicity() -> None:
    assert ratio_bounds([Fraction(1), Fraction(3)], 0) == Fraction(1, 4)
    iv = ratio_bounds([between(Fraction(1), Fraction(2)), Fraction(2)], 0)
    assert lower(iv) <= Fraction(1, 3) and Fraction(1, 2) <= upper(iv)
    assert upper(iv) - Fraction(1, 2) < Fraction(1, 10**9)  # not 2/3 as naive balls give
    assert ratio_bounds([Fraction(0), Fraction(0)], 0) == 0


def test_point_policy_uses_the_claims_as_written() -> None:
    g, v = _values("exp = [12.18, 2.71]\nsum = 14.89", POINT)
    with flint.ctx.workprec(64):
        assert v(Node("exp_sums", (0,))) == Fraction("14.89")  # the claim itself
        assert v.derive(Node("exp_sums", (0,))) == Fraction("14.89")  # 12.18 + 2.71
        assert v.derive(Node("weights", (0, 0))) == Fraction("12.18") / Fraction("14.89")
    assert v.uses_claim(Node("exp_scores", (0, 0)))
    base = Values(g, Policy("point", base=Fraction("2.718")))
    assert not base.uses_claim(Node("exp_scores", (0, 0)))  # recomputed with 2.718


def test_exact_policy_is_the_exact_value() -> None:
    g, v = _values("", EXACT)
    with flint.ctx.workprec(128):
        w = v(Node("weights", (0, 0)))
    assert abs(lower(w) - Fraction("0.89295819853483")) < Fraction(1, 10**13)
    assert upper(w) - lower(w) < Fraction(1, 10**30)
    assert v(Node("scores", (0, 1))) == 2  # rational stages stay exact


def test_interval_policy_unrounds() -> None:
    _, v = _values("scaled = [3.54, 1.41]", INTERVAL)
    with flint.ctx.workprec(128):
        e = v(Node("exp_scores", (0, 0)))  # e^[3.535, 3.545]
    assert lower(e) < Fraction("34.30") and Fraction("34.63") < upper(e)  # 34.2946 .. 34.6393


def test_program_policy_bounds_a_float32_run() -> None:
    g, v = _values("", Policy(arithmetic=ARITHMETICS["float32"]))
    with flint.ctx.workprec(160):
        w = v(Node("weights", (0, 0)))
        o = v(Node("output", (0, 0)))
    assert lower(w) < Fraction("0.8929582") < upper(w) and upper(w) - lower(w) < Fraction(1, 10**5)
    assert lower(o) < Fraction("12.1408360") < upper(o)


def test_boxes_take_the_written_half_units() -> None:
    s = loads_spec(
        'tokens = ["a", "b"]\nquery_tokens = ["q"]\nrounded_inputs = ["Q"]\n'
        '[inputs]\nQ = [["1.0", "2"]]\nK = [[1, 2], [0, 1]]\nV = [[1], [2]]\n',
        name="b.toml",
    )
    f = stated_frame(s)
    g = Graph(s, f.result, f.scale)
    v = Values(g, Policy(boxes=True))
    with flint.ctx.workprec(64):
        sc = v(Node("scores", (0, 0)))  # [0.95, 1.05] + 2 [1.5, 2.5]
    assert lower(sc) <= Fraction("3.95") and Fraction("6.05") <= upper(sc)
    assert upper(sc) - lower(sc) - Fraction("2.1") < Fraction(1, 10**6)


# -- the property: claims from unrounded inputs -------------------------------------------

exact6 = st.integers(-2_000_000, 2_000_000).map(lambda n: Fraction(n, 10**6))


@settings(max_examples=40, deadline=None, database=DB, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    e=st.integers(1, 3),
    n=st.integers(2, 4),
    k=st.integers(1, 3),
    places=st.integers(1, 4),
)
def test_claims_from_unrounded_inputs_are_never_errors(
    data: st.DataObject, e: int, n: int, k: int, places: int
) -> None:
    """Inputs with 6 decimals are printed rounded to ``k`` decimals; every claim is the exact
    value from the unrounded inputs, correctly rounded: with ``rounded_inputs`` no error."""
    q = [data.draw(st.lists(exact6, min_size=e, max_size=e))]
    keys = [data.draw(st.lists(exact6, min_size=e, max_size=e)) for _ in range(n)]
    vals = [data.draw(st.lists(exact6, min_size=2, max_size=2)) for _ in range(n)]
    r = scaled_dot_product_attention(q, keys, vals)

    def claims(t: object, count: int, row: bool = True) -> str:
        rounded = t.round(places, mode=Rounding.HALF_UP)  # type: ignore[attr-defined]
        return ", ".join(f'"{format(rounded[(0, j)], "f")}"' for j in range(count))

    def printed(m: list[list[Fraction]]) -> str:
        return (
            "["
            + ", ".join(
                "["
                + ", ".join(
                    f'"{format(round_decimals(x, k, Rounding.HALF_EVEN), "f")}"' for x in row
                )
                + "]"
                for row in m
            )
            + "]"
        )

    tokens = ", ".join(f'"t{j}"' for j in range(n))
    text = (
        f'tokens = [{tokens}]\nquery_tokens = ["q"]\nrounded_inputs = ["Q", "K", "V"]\n'
        f"[inputs]\nQ = {printed(q)}\nK = {printed(keys)}\nV = {printed(vals)}\n"
        f"[claims.rows.q]\nscores = [{claims(r.scores, n)}]\n"
        f"weights = [{claims(r.weights, n)}]\noutput = [{claims(r.output, 2)}]\n"
    )
    report = check(loads_spec(text, name="r.toml"))
    assert [f for f in report.findings if f.severity == "error"] == [], text
