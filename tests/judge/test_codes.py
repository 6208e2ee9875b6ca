"""Tests of symattn.judge.codes: the table of finding codes, one test per row."""

from __future__ import annotations

import re

import pytest

from symattn.judge.codes import CODES, FLAGGING, SEVERITIES, SEVERITY, Code, FindingCode, Severity
from tests.conftest import ROOT

#: the codes table of docs/check.md: code -> severity
DOCUMENTED = dict(
    re.findall(
        r"^\| `([a-z-]+)` \| (error|warning|info) \|",
        (ROOT / "docs" / "check.md").read_text(encoding="utf-8"),
        re.M,
    )
)


def test_severity_table() -> None:
    assert SEVERITY["wrong-value"] == "error"
    assert SEVERITY["propagated-rounding"] == "warning"
    assert SEVERITY["missing-input"] == "info"
    assert set(SEVERITY.values()) == {"error", "warning", "info"}
    assert len({c.code for c in CODES}) == len(CODES)


@pytest.mark.parametrize("row", CODES, ids=[c.code for c in CODES])
def test_row(row: Code) -> None:
    assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", row.code)
    assert row.severity in SEVERITIES and SEVERITY[row.code] == row.severity
    assert row.meaning and row.meaning == row.meaning.strip()
    assert DOCUMENTED[row.code] == row.severity  # docs/check.md lists it with this severity


def test_most_severe_first() -> None:
    ranks = [SEVERITIES.index(c.severity) for c in CODES]
    assert ranks == sorted(ranks)


def test_every_documented_code_is_in_the_table() -> None:
    assert set(DOCUMENTED) <= set(SEVERITY)


def test_every_finding_code_has_one_row() -> None:
    assert [c.code for c in CODES] == list(FindingCode)
    assert all(isinstance(c.code, FindingCode) and isinstance(c.severity, Severity) for c in CODES)


def test_the_flagging_severities_are_errors_and_warnings() -> None:
    assert FLAGGING == {Severity.ERROR, Severity.WARNING}
    assert SEVERITIES == (Severity.ERROR, Severity.WARNING, Severity.INFO)
