"""Tests of symattn.read.queryrow: a query row printed on its own numbers the claims after it."""

from __future__ import annotations

from symattn.read.audit import audit

#: a run's printout: Q, K, V, then a decode step for the last token (its scores made up)
_RUN = (
    "```\nQ:\n tensor([[ 1.0000,  0.0000],\n        [ 0.0000,  1.0000],\n"
    "        [ 1.0000,  1.0000]])\n"
    "K:\n tensor([[ 1.0000,  0.0000],\n        [ 0.0000,  1.0000],\n"
    "        [ 1.0000,  1.0000]])\n"
    "V:\n tensor([[ 1.0000,  0.0000],\n        [ 0.0000,  1.0000],\n"
    "        [ 1.0000,  1.0000]])\n"
    "[Decode] Q for last token: tensor([[ 1.0000,  1.0000]])\n"
    "[Decode] Attention scores: tensor([[ 1.0000,  1.0000,  2.5000]])\n```\n"
)


def test_the_claims_after_a_printed_query_row_are_that_rows() -> None:
    found = [(f.claimed, f.code) for f in audit(_RUN, path="t.md").findings]
    # row 3 of Q (the printed query) against K: [1, 1, 2]; only the made-up 2.5 is wrong
    assert found == [("2.5000", "wrong-value")]


def test_a_query_row_that_restates_no_row_is_a_query_of_its_own() -> None:
    # q = [2, 1] is no row of Q: the scores after it are its own, [2, 1, 3], all right
    other = _RUN.replace(
        "[[ 1.0000,  1.0000]])\n[Decode] Attention", "[[ 2.0000,  1.0000]])\n[Decode] Attention"
    ).replace("[[ 1.0000,  1.0000,  2.5000]]", "[[ 2.0000,  1.0000,  3.0000]]")
    assert not [f for f in audit(other, path="t.md").findings if f.severity == "error"]
