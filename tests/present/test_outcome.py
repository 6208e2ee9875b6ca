"""Tests of symattn.present.outcome: selection, inline suppression and the counts."""

from __future__ import annotations

import pytest

from symattn.errors import InputError
from symattn.judge.findings import Finding, Message, TextLocation
from symattn.present.outcome import (
    SELECTORS,
    Placed,
    judged_share,
    not_checked_of,
    outcome,
    parse_selectors,
    selected,
    suppressions,
)


def _f(code: str, severity: str, line: int = 1) -> Finding:
    return Finding(code, severity, TextLocation(line, 1), "1", "2", None, Message("audit", code))


@pytest.mark.parametrize(
    ("select", "ignore", "code", "severity", "kept"),
    [
        ((), (), "truncated", "error", True),
        (("error",), (), "truncated", "error", True),
        (("warning",), (), "truncated", "error", False),
        (("truncated",), (), "truncated", "error", True),
        ((), ("truncated",), "truncated", "error", False),
        ((), ("info",), "missing-input", "info", False),
        (("error",), ("truncated",), "truncated", "error", False),
    ],
)
def test_selection_by_code_or_severity(
    select: tuple[str, ...], ignore: tuple[str, ...], code: str, severity: str, kept: bool
) -> None:
    f = _f(code, severity)
    assert selected(f, frozenset(select), frozenset(ignore)) is kept


def test_selectors_are_comma_separated_and_checked() -> None:
    assert parse_selectors(["error,truncated", " info "], "--select") == {
        "error",
        "truncated",
        "info",
    }
    assert {"error", "warning", "info", "wrong-value"} <= SELECTORS
    with pytest.raises(InputError, match="--ignore nonsense: not a code or severity"):
        parse_selectors(["nonsense"], "--ignore")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$1+1=3$ <!-- symattn: ignore[truncated] -->\n", {1: {"truncated"}}),
        (
            "<!-- symattn: ignore[truncated, wrong-value] -->\n\n$1+1=3$\n",
            {3: {"truncated", "wrong-value"}},
        ),
        ("% symattn: ignore\n\\(1+1=3\\)\n", {2: "all"}),
        ("x = 3  # symattn: ignore[truncated]\n", {1: {"truncated"}}),
        ("# symattn:ignore[truncated]\ny = 1\nz = 2\n", {2: {"truncated"}}),
        ("no comment here\n", {}),
        ("<!-- symattn: ignore[no-such-code] -->\nx\n", {2: set()}),
    ],
)
def test_suppression_scope(text: str, expected: dict[int, object]) -> None:
    got = suppressions(text)
    assert set(got) == set(expected)
    for line, codes in expected.items():
        if codes == "all":
            assert "truncated" in got[line] and "wrong-value" in got[line]
        else:
            assert got[line] == codes


def test_suppressed_findings_are_kept_not_lost() -> None:
    placed = [
        Placed(_f("truncated", "error", 1), 1, 1),
        Placed(_f("wrong-value", "error", 2), 2, 1),
    ]
    o = outcome(
        "t.md",
        placed,
        claims=2,
        judged=2,
        not_checked={},
        silenced={1: frozenset({"truncated"})},
        ignore=frozenset({"wrong-value"}),
    )
    assert [p.finding.code for p in o.suppressed] == ["truncated"]
    assert o.reported == () and o.deselected == 1 and not o.has_errors


def test_counts_and_the_judged_share() -> None:
    findings = [_f("missing-input", "info"), _f("missing-input", "info"), _f("undecided", "info")]
    assert not_checked_of(findings) == {"missing-input": 2, "undecided": 1}
    a = outcome("a", [], claims=4, judged=1, not_checked={"missing-input": 3}, silenced={})
    b = outcome("b", [], claims=0, judged=0, not_checked={}, silenced={})
    assert judged_share([a, b]) == 25.0 and judged_share([b]) == 100.0
    assert a.not_checked_total == 3
