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
