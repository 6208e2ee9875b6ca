"""Specs the judge tests share: the seed examples and one small spec with claims to fill in."""

from __future__ import annotations

from symattn.judge.check import CheckReport, check
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.numbers.rounding import Rounding
from symattn.spec import Spec, load_spec, loads_spec
from tests.conftest import EXAMPLES

BASE = """
title = "t"
tokens = ["a", "b"]
query_tokens = ["q"]
{top}
[inputs]
Q = [[1, 2]]
K = [[1, 2], [0, 1]]
V = [[10, 20], [30, 40]]
[claims.rows.q]
{rows}
"""


def seed(name: str) -> CheckReport:
    """The check report of a seed example in docs/examples."""
    return check(load_spec(EXAMPLES / f"{name}.toml"))


def small(rows: str, top: str = "") -> Spec:
    """:data:`BASE` with claims ``rows`` for query ``q`` and top-level fields ``top``."""
    return loads_spec(BASE.format(top=top, rows=rows), name="s.toml")


def run(
    rows: str, top: str = "", *, accepted: frozenset[Rounding] = DEFAULT_ACCEPTED
) -> CheckReport:
    """The check report of :func:`small`."""
    return check(small(rows, top), accepted=accepted)


def codes(r: CheckReport, severity: str | None = None) -> list[tuple[str, str]]:
    """(code, claimed) of the findings (of ``severity``), in order."""
    return [(f.code, f.claimed) for f in r.findings if severity is None or f.severity == severity]
