"""Tests of symattn.spec.claims: the [claims] table, kept as written."""

from __future__ import annotations

import pytest

from symattn.errors import NumberError, SpecError
from symattn.spec import RowClaims
from tests.spec.common import BASE, QT, assert_bad, spec, texts


def test_per_key_table_form() -> None:
    s = spec(QT + BASE + "[claims.rows.a]\nweights = { b = 0.18 }\nscores = [5, 2]\n")
    row = s.claims.rows["a"]
    assert isinstance(row, RowClaims)
    assert texts(row.weights) == [None, "0.18"] and texts(row.scores) == ["5", "2"]
    assert row.output == (None, None)


# ----------------------------------------------------------------------------- bad claims

BAD = [
    # (id, text, error, words the message must contain)
    (
        "unknown-claim",
        QT + BASE + "[claims.rows.a]\nweight = [1, 2]\n",
        SpecError,
        ["claims.rows.a.weight", "did you mean 'weights'"],
    ),
    (
        "unknown-token-claim",
        QT + BASE + "[claims.tokens.a]\nkey = [1, 2]\n",
        SpecError,
        ["claims.tokens.a.key", "did you mean 'k'"],
    ),
    (
        "claims-row-unknown",
        QT + BASE + "[claims.rows.b]\nscores = [1, 2]\n",
        SpecError,
        ["claims.rows", "'b'", "query_tokens"],
    ),
    (
        "claims-token-unknown",
        QT + BASE + "[claims.tokens.z]\nk = [1, 2]\n",
        SpecError,
        ["claims.tokens", "'z'"],
    ),
    (
        "claims-q-of-key",
        QT + BASE + "[claims.tokens.b]\nq = [1, 2]\n",
        SpecError,
        ["claims.tokens.b.q", "not a query token"],
    ),
    (
        "claims-length",
        QT + BASE + "[claims.rows.a]\nweights = [0.5, 0.3, 0.2]\n",
        SpecError,
        ["claims.rows.a.weights", "3 entries, expected 2"],
    ),
    (
        "claims-output-length",
        QT + BASE + "[claims.rows.a]\noutput = [1]\n",
        SpecError,
        ["claims.rows.a.output", "1 entries, expected 2"],
    ),
    (
        "claims-k-length",
        QT + BASE + "[claims.tokens.a]\nk = [1]\n",
        SpecError,
        ["claims.tokens.a.k", "expected 2"],
    ),
    (
        "claims-table-key",
        QT + BASE + "[claims.rows.a]\nweights = { c = 1 }\n",
        SpecError,
        ["claims.rows.a.weights", "'c'"],
    ),
    (
        "claims-bool",
        QT + BASE + "[claims.rows.a]\nsum = true\n",
        SpecError,
        ["claims.rows.a.sum", "true"],
    ),
    (
        "claims-text",
        QT + BASE + '[claims.rows.a]\nsum = "lots"\n',
        NumberError,
        ["claims.rows.a.sum", "lots"],
    ),
    ("claims-d_k", QT + BASE + '[claims]\nd_k = "four"\n', NumberError, ["claims.d_k", "four"]),
]


@pytest.mark.parametrize(("text", "error", "words"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_specs(text: str, error: type[Exception], words: list[str]) -> None:
    assert_bad(text, error, words)


# ----------------------------------------------------------------------------- heads

MH = """
tokens = ["a", "b"]
num_heads = 2
[inputs]
X = [[1, 0], [0, 1]]
W_Q = [[1, 0], [0, 1]]
W_K = [[1, 0], [0, 1]]
W_V = [[1, 0], [0, 1]]
W_O = [[1], [1]]
"""


def test_head_claims_numbered_from_one() -> None:
    s = spec(
        MH + '[claims.heads.2.rows.a]\nweights = [0.5, 0.5]\noutput = [0.5]\nattends_most = "a"\n'
        "[claims.heads.1.tokens.b]\nk = [0]\nv = [0]\n"
        "[claims.rows.a]\nconcat = [0.73, 0.5]\noutput = [1.23]\n"
    )
    assert list(s.claims.heads) == [0, 1]
    head2 = s.claims.heads[1].rows["a"]
    assert texts(head2.weights) == ["0.5", "0.5"] and texts(head2.output) == ["0.5"]
    assert head2.concat == () and s.claims.heads[0].rows == {}
    assert texts(s.claims.heads[0].tokens["b"].k or ()) == ["0"]
    row = s.claims.rows["a"]
    assert texts(row.concat) == ["0.73", "0.5"] and texts(row.output) == ["1.23"]
    assert head2.attends_most == ("a",) and row.attends_most == ()


def test_single_head_with_w_o_keeps_its_row_fields() -> None:
    s = spec(
        MH.replace("num_heads = 2", "num_heads = 1")
        + "[claims.rows.a]\nweights = [0.7, 0.3]\nconcat = [0.73, 0.5]\n"
    )
    assert texts(s.claims.rows["a"].weights) == ["0.7", "0.3"]
    assert texts(s.claims.rows["a"].concat) == ["0.73", "0.5"]


def test_attends_most_list_and_single_head_rows() -> None:
    s = spec(QT + BASE + '[claims.rows.a]\nattends_most = ["b", "a", "b"]\n')
    assert s.claims.rows["a"].attends_most == ("b", "a") and s.claims.rows["a"].concat == ()
    assert s.claims.heads == {}


BAD_HEADS = [
    (MH + "[claims.heads.3.rows.a]\nweights = [0.5, 0.5]\n", ["claims.heads.3", "1 to 2"]),
    (MH + "[claims.heads.x]\n", ["claims.heads.x", "1 to 2"]),
    (MH + "[claims.heads.1]\nrow = 1\n", ["claims.heads.1.row", "did you mean 'rows'"]),
    (MH + "[claims.heads.1.rows.a]\nweights = [0.5, 0.5, 0]\n", ["3 entries, expected 2"]),
    (MH + "[claims.heads.1.rows.a]\noutput = [0.5, 0.5]\n", ["output", "2 entries, expected 1"]),
    (MH + "[claims.heads.1.tokens.a]\nq = [1, 0]\n", ["tokens.a.q", "2 entries, expected 1"]),
    (MH + "[claims.rows.a]\nweights = [0.5, 0.5]\n", ["claims.rows.a.weights", "heads.<h>.rows.a"]),
    (MH + "[claims.rows.a]\nconcat = [0.5]\n", ["claims.rows.a.concat", "1 entries, expected 2"]),
    (QT + BASE + "[claims.heads.1.rows.a]\nweights = [0.5, 0.5]\n", ["claims.heads", "need heads"]),
    (QT + BASE + "[claims.rows.a]\nconcat = [0.5, 0.5]\n", ["claims.rows.a.concat", "multi-head"]),
    (QT + BASE + "[claims]\nheads = 3\n", ["claims.heads", "table keyed by head"]),
    (QT + BASE + '[claims.rows.a]\nattends_most = "z"\n', ["attends_most", "'z'", "tokens"]),
    (QT + BASE + "[claims.rows.a]\nattends_most = 1\n", ["attends_most", "a key token"]),
    (QT + BASE + "[claims.rows.a]\nattends_most = []\n", ["attends_most", "a key token"]),
]


@pytest.mark.parametrize(("text", "words"), BAD_HEADS)
def test_bad_head_claims(text: str, words: list[str]) -> None:
    assert_bad(text, SpecError, words)


def test_scores_start_has_no_q_or_k_claims() -> None:
    text = 'tokens = ["a", "b"]\n' + QT + "d_k = 2\n[inputs]\nscores = [[1, 2]]\nV = [[1], [2]]\n"
    s = spec(text + "[claims.tokens.b]\nv = [2]\n")
    assert texts(s.claims.tokens["b"].v or ()) == ["2"]
    assert_bad(
        text + "[claims.tokens.a]\nq = [1, 2]\n", SpecError, ["claims.tokens.a.q", "no Q or K"]
    )
