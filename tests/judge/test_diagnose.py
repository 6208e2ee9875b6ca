"""Tests of symattn.judge.diagnose: one claim's verdict and its most specific cause."""

from __future__ import annotations

import tempfile
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from symattn.config import DEFAULT_LIMITS
from symattn.engine import scaled_dot_product_attention
from symattn.judge.chain import Chain
from symattn.judge.check import check
from symattn.judge.diagnose import bound_text, diagnose, meets
from symattn.judge.frames import stated_frame
from symattn.judge.graph import Graph, Node
from symattn.judge.run import Run
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers import parse_number
from symattn.numbers.rounding import Rounding
from symattn.spec import loads_spec
from tests.judge.common import run, small


def _one(rows: str, node: Node, top: str = "") -> Run:
    s = small(rows, top)
    f = stated_frame(s)
    r = Run(s, DEFAULT_ACCEPTED, DEFAULT_LIMITS)
    diagnose(r, Chain(Graph(s, f.result, f.scale)), node)
    return r


def test_consistent_claims_record_nothing() -> None:
    assert _one("weights = [0.893, 0.107]", Node("weights", (0, 0))).findings == []
    r = _one("weights = [0.892, 0.107]", Node("weights", (0, 0)))
    (f,) = r.findings
    assert (f.code, f.exact_text, f.expected, f.step, f.position) == (
        "truncated",
        "0.892958…",
        "0.893",
        "weights",
        ("q", "a"),
    )


def test_own_numbers_come_before_truncation() -> None:
    # 14.89 is the truncation of e^(5/2) + e^1 = 14.9008 and the sum of the author's exps
    r = run("exp = [12.18, 2.71]\nsum = 14.89", "scale = 0.5")
    f = next(f for f in r.findings if f.claimed == "14.89")
    assert (f.code, f.message_key) == ("propagated-rounding", "propagated-exact")


def test_carried_error_names_the_first_wrong_number() -> None:
    # 12.80 is wrong (e^2.5 = 12.18); the sum and the weight follow from it exactly
    r = run("exp = [12.80, 2.72]\nsum = 15.52\nweights = [0.8247, 0.1753]", "scale = 0.5")
    got = {f.claimed: f for f in r.findings}
    assert got["12.80"].code == "wrong-value" and got["12.80"].severity == "error"
    s = got["15.52"]
    assert (s.code, s.severity, s.params["origin"]) == ("propagated-error", "warning", "12.80")
    assert s.params["origin_at"] == "exp_scores[q,a]" and s.params["origin_exact"] == "12.18249…"
    assert got["0.8247"].code == "propagated-error" and got["0.8247"].params["origin"] == "12.80"


def test_float_representation_is_info() -> None:
    # float32(0.8929581985...) = 0.89295822381973..., printed with 9 decimals
    r = run('weights = ["0.892958224", "0.1070418"]', "d_k = 2")
    (f,) = [f for f in r.findings if f.claimed == "0.892958224"]
    assert (f.code, f.severity, f.message_key, f.params["float"]) == (
        "float-representation",
        "info",
        "float-representation",
        "float32",
    )


def test_float_printout_inside_the_bound() -> None:
    # exact 0.89295819853...; a float32 program may land a few ulps away (6e-8 each)
    r = run('weights = ["0.89295834", "0.10704166"]', 'd_k = 2\nprecision = "float32"')
    (f, g) = r.findings
    assert (f.code, f.message_key, f.params["precision"]) == (
        "float-representation",
        "float-bound",
        "float32",
    )
    assert Fraction(f.params["low"]) < Fraction("0.89295834") < Fraction(f.params["high"])
    assert g.code == "float-representation"
    far = run('weights = ["0.89296834", "0.10703166"]', 'd_k = 2\nprecision = "float32"')
    assert {f.code for f in far.findings} == {"wrong-value"}


def test_inferred_printout_needs_six_digits() -> None:
    r = run('weights = ["0.8929583", "0.1070418"]', "d_k = 2")  # 7 digits: a printout
    assert [f.code for f in r.findings] == ["float-representation"]
    r = run("weights = [0.8931, 0.1070]", "d_k = 2")  # 4 digits: a rounding, one unit off
    assert [f.severity for f in r.findings] == ["error"]
    exact = run('weights = ["0.8929583", "0.1070418"]', 'd_k = 2\nprecision = "exact"')
    assert [f.code for f in exact.findings] == ["wrong-value"]


def test_rounded_inputs_are_consistent() -> None:
    # Q printed as [1, 2] but really [1.04, 2.03] (any value rounding to it): scores 5.0..
    spec = 'rounded_inputs = ["Q"]\nd_k = 2'
    r = run("scores = [5.2, 2.1]", spec)
    assert {f.code for f in r.findings} == {"rounded-inputs"}
    assert r.findings[0].params["inputs"] == "Q"
    r = run("scores = [7.9, 2.1]", spec)  # beyond every rounding of Q
    assert "wrong-value" in {f.code for f in r.findings}


def test_meets_and_bounds() -> None:
    w = parse_number("0.34")
    assert meets(w, Fraction("0.3451"), Fraction(0)) is False
    assert meets(w, Fraction("0.3451"), Fraction("0.0002")) is True
    assert bound_text(Fraction("0.123456"), w, up=False) == "0.12345"
    assert bound_text(Fraction("0.123456"), w, up=True) == "0.12346"
    assert bound_text(Fraction(1, 3), parse_number("1/3"), up=True) == "0.333333333333"


# -- the property: one unit off is always found -------------------------------------------

DB = DirectoryBasedExampleDatabase(Path(tempfile.gettempdir()) / "symattn-hypothesis-judge")


@settings(max_examples=40, deadline=None, database=DB, suppress_health_check=[HealthCheck.too_slow])
@given(
    q=st.lists(st.integers(-9, 9), min_size=2, max_size=2),
    k=st.lists(st.lists(st.integers(-9, 9), min_size=2, max_size=2), min_size=2, max_size=4),
    step=st.sampled_from(["weights", "output", "exp"]),
    places=st.integers(1, 5),
    sign=st.sampled_from([-1, 1]),
    col=st.integers(0, 1),
)
def test_one_unit_off_is_always_found(
    q: list[int], k: list[list[int]], step: str, places: int, sign: int, col: int
) -> None:
    """A claim one unit in its last place away from the correct rounding, with no other claim
    and exact arithmetic stated (no frame explains it), is always an error."""
    n = len(k)
    v = [[3 * i + 1, 2 - i] for i in range(n)]
    r = scaled_dot_product_attention([q], k, v, scale=Fraction(1, 2))
    tensor = {"weights": r.weights, "output": r.output, "exp": r.exp_scores}[step]
    exact = tensor.rational((0, col))
    assume(exact is None or (exact * 10**places * 2).denominator != 1)  # not a tie
    right = tensor.round(places, mode=Rounding.HALF_UP)[0, col]
    with localcontext() as ctx:
        ctx.prec = 200
        claim = right + sign * Decimal(1).scaleb(-places)
    cells = ", ".join(f'{"t" + str(c)} = "{claim}"' for c in [col])
    field = f"output = [{', '.join(repr(str(claim)) if c == col else repr(str(right)) for c in range(2))}]"
    if step != "output":
        field = f"{step} = {{ {cells} }}"
    tokens = ", ".join(f'"t{j}"' for j in range(n))
    text = (
        f'tokens = [{tokens}]\nquery_tokens = ["q"]\nscale = "1/2"\nprecision = "exact"\n'
        f"[inputs]\nQ = [{q}]\nK = {k}\nV = {v}\n[claims.rows.q]\n{field}\n".replace("'", '"')
    )
    report = check(loads_spec(text, name="u.toml"))
    hits = [f for f in report.findings if f.claimed == str(claim) and f.severity == "error"]
    assert hits, text


def test_values_past_the_range_are_not_checked() -> None:
    text = (
        'tokens = ["a", "b"]\nquery_tokens = ["q"]\nscale = 1\n[inputs]\nQ = [[511]]\n'
        "K = [[511], [0]]\nV = [[1], [2]]\n[claims.rows.q]\nscores = [261121, 0]\n"
        'exp = ["3", "1"]\nweights = ["1.0", "0.0"]\noutput = ["1.0"]\n'
    )
    report = check(loads_spec(text, name="big.toml"))
    (f,) = report.findings  # e^261121 is past 2^262144: that claim alone is not checked
    assert (f.code, f.severity, f.message_key, f.claimed) == (
        "undecided",
        "info",
        "undecided-limit",
        "3",
    )
    assert "beyond the range" in str(f.params["reason"]) and not report.has_errors


def test_a_weight_completed_from_its_row_carries_the_others_error() -> None:
    # (the weights are [0.892958…, 0.107042…]: 0.108 = 1 − 0.892, the truncated weight)
    report = run("weights = [0.892, 0.108]")
    assert [(f.code, f.claimed) for f in report.findings] == [
        ("truncated", "0.892"),
        ("propagated-rounding", "0.108"),
    ]
    # (1 − a wrong weight: no telling a completion from a row made up to sum to 1)
    report = run("weights = [0.850, 0.150]")
    assert [(f.code, f.claimed) for f in report.findings][:2] == [
        ("wrong-value", "0.850"),
        ("wrong-value", "0.150"),
    ]
    # (the first weight is no complement of the last, however wrong the last is)
    report = run("weights = [0.893, 0.150]")
    assert ("wrong-value", "0.150") in [(f.code, f.claimed) for f in report.findings]
