"""Tests of symattn.judge.rows: the claims of tokens and rows, in the author's frame."""

from __future__ import annotations

from symattn.judge.check import check
from symattn.spec import loads_spec
from tests.judge.common import codes, run

X_SPEC = """
tokens = ["a", "b"]
query_tokens = ["a"]
d_k = 2
[inputs]
X = [[1, 0], [0, 1]]
W_Q = [[1, 2], [3, 4]]
W_K = [[1, 0], [0, 1]]
W_V = [[1, 0], [0, 1]]
[claims.tokens.a]
q = [1, 2]
k = [1, 0]
[claims.tokens.b]
q = [3, 5]
"""


def test_token_claims() -> None:
    r = check(loads_spec(X_SPEC, name="x.toml"))
    assert codes(r) == [("wrong-value", "5")]
    (f,) = r.findings
    assert (f.step, f.position) == ("Q", ("b", "1"))


def test_rows_without_inputs() -> None:
    missing = loads_spec(
        'tokens = ["a", "b"]\nmissing = ["Q", "K", "V"]\n'
        "[claims.rows.a]\nweights = [0.70, 0.40]\nexp = [1.5, 2.25]\n",
        name="m.toml",
    )
    assert codes(check(missing)) == [
        ("not-normalized", "0.70 + 0.40"),
        ("precision-mixed", "1.5"),
        ("missing-input", "1.5"),
        ("missing-input", "2.25"),
        ("missing-input", "0.70"),
        ("missing-input", "0.40"),
    ]


def test_precision_mixed_names_the_column() -> None:
    (f,) = [f for f in run("weights = [0.893, 0.11]", "d_k = 2").findings]
    assert (f.code, f.step, f.position, f.params["common"]) == (
        "precision-mixed",
        "weights",
        ("q", "b"),
        3,
    )


def test_frame_is_marked_on_later_steps_only() -> None:
    r = run("scores = [5, 3]\nscaled = [2.5, 1.0]\nexp = [12.18, 2.71]", "d_k = 2")
    frames = {f.claimed: f.frame for f in r.findings}
    assert frames["3"] is None and frames["2.71"] == "4"
