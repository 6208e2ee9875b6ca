"""Tests of symattn.judge.chain: the graph evaluated with the author's own numbers."""

from __future__ import annotations

from fractions import Fraction

from symattn.judge.chain import Chain
from symattn.judge.check import check
from symattn.judge.frames import stated_frame
from symattn.judge.graph import Graph, Node
from symattn.judge.programs import ARITHMETICS
from symattn.judge.values import lower, upper
from symattn.spec import loads_spec
from tests.judge.common import run, seed, small

ROWS = (
    "scores = [5, 2]\nscaled = [2.5, 1.0]\nexp = [12.18, 2.71]\nsum = 14.89\n"
    "weights = [0.82, 0.18]\noutput = [13.6, 23.6]"
)


def chain(rows: str = ROWS, top: str = "d_k = 4") -> Chain:
    s = small(rows, top)
    f = stated_frame(s)
    return Chain(Graph(s, f.result, f.scale))


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


def test_point_values_are_exact_when_rational() -> None:
    c = chain()
    for node, value in [
        (Node("scaled_scores", (0, 0)), Fraction(5, 2)),
        (Node("exp_sums", (0,)), Fraction(1489, 100)),
        (Node("output", (0, 0)), Fraction(68, 5)),  # 0.82*10 + 0.18*30
    ]:
        q = c.point(node)
        assert q is not None and q.rational() == value
    e = chain("scores = [5, 2]").point(Node("exp_scores", (0, 0)))
    assert e is not None and e.rational() is None  # e^2.5
    assert chain("").point(Node("weights", (0, 0))) is None  # nothing of the author's
    assert c.point(Node("scores", (0, 0))) is None  # computed from inputs only


def test_exact_claims_stay_points() -> None:
    c = chain("scores = [5, 2]\nscaled = [2.5, 1.1]\nweights = [0.8, 0.2]")
    assert c.exact_claim(Node("scores", (0, 0)))  # the exact value
    assert c.exact_claim(Node("scaled_scores", (0, 0)))  # 5/2 exactly from the author's 5
    assert not c.exact_claim(Node("scaled_scores", (0, 1)))  # 1.1 rounds 1.0? no: a rounding
    assert not c.exact_claim(Node("weights", (0, 0)))
    iv = c.interval(Node("exp_scores", (0, 0)))
    assert iv is not None and abs(lower(iv) - Fraction("12.18249396070347")) < Fraction(1, 10**13)
    assert upper(iv) - lower(iv) < Fraction(1, 10**20)  # e^2.5: the author's 2.5 is exact


def test_interval_softmax_is_tight() -> None:
    # exps 12.18 and 2.71 stand for [12.175, 12.185] and [2.705, 2.715]: by monotonicity
    # w_0 lies in [12.175/(12.175+2.715), 12.185/(12.185+2.705)]
    c = chain("exp = [12.18, 2.71]")
    iv = c.interval(Node("weights", (0, 0)))
    assert iv is not None
    lo, hi = Fraction("12.175") / Fraction("14.89"), Fraction("12.185") / Fraction("14.89")
    assert lower(iv) <= lo and hi <= upper(iv)
    # tight up to the radius arithmetic of the balls (30-bit radii)
    assert lo - lower(iv) < Fraction(1, 10**9) and upper(iv) - hi < Fraction(1, 10**9)


def test_envelope_contains_the_exact_value() -> None:
    c = chain("", "d_k = 2")
    node = Node("weights", (0, 0))
    exact = Fraction("0.8929581985")
    env = c.envelope(node, ARITHMETICS["float32"], boxes=False)
    assert lower(env) < exact < upper(env)
    assert upper(env) - lower(env) < Fraction(2, 10**6)
    exact_env = c.envelope(node, None, boxes=False)
    assert upper(exact_env) - lower(exact_env) < Fraction(1, 10**30)


def test_origin_follows_carried_numbers() -> None:
    c = chain("exp = [12.80, 2.72]\nsum = 15.52\nweights = [0.8247, 0.1753]")
    e, s, w = Node("exp_scores", (0, 0)), Node("exp_sums", (0,)), Node("weights", (0, 0))
    assert c.origin(s) is None
    c.status[e] = "error"
    assert c.origin(s) == e
    c.status[s] = "carried"
    assert c.origin(w) == e  # through the carried sum


def test_tight_unrounding_finds_a_plain_slip() -> None:
    # exps "1.0", "1.0" stand for [0.95, 1.05] each. Ball arithmetic that counts e_0 in the
    # numerator and in the sum gives w_0 in [0.95/2.1, 1.05/1.9] = [0.452, 0.553], which
    # would excuse 0.54; by monotonicity w_0 is in [0.475, 0.525]: 0.54 is a plain error.
    text = (
        'tokens = ["a", "b"]\nquery_tokens = ["q"]\n[inputs]\nscaled = [[0.01, -0.01]]\n'
        'V = [[1], [2]]\n[claims.rows.q]\nexp = ["1.0", "1.0"]\nweights = ["0.54", "0.46"]\n'
    )
    r = check(loads_spec(text, name="t.toml"))
    got = {f.claimed: f.code for f in r.findings}
    assert got == {"0.54": "wrong-value", "0.46": "wrong-value"}
    near = check(loads_spec(text.replace('"0.54", "0.46"', '"0.52", "0.48"'), name="t.toml"))
    assert {f.code for f in near.findings} == {"propagated-rounding"}  # 0.52 is reachable
