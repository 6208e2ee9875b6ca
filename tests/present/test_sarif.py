"""Tests of symattn.present.sarif: SARIF 2.1.0, validated against the official schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from symattn.judge.check import check
from symattn.judge.codes import CODES
from symattn.present.outcome import FileOutcome, Placed, outcome, text_outcome
from symattn.present.reports import position_text
from symattn.present.sarif import artifact_uri, sarif
from symattn.read.audit import audit
from symattn.spec import load_spec

from ..conftest import EXAMPLES, ROOT

SCHEMA = json.loads(
    (ROOT / "tests" / "fixtures" / "sarif" / "sarif-schema-2.1.0.json").read_text("utf-8")
)


def _outcome(name: str, silenced: dict[int, frozenset[str]] | None = None) -> FileOutcome:
    report = check(load_spec(EXAMPLES / f"{name}.toml"))
    placed = [Placed(f, i + 1, 3, position_text(f)) for i, f in enumerate(report.findings)]
    return outcome(
        report.path,
        placed,
        claims=report.checked,
        judged=report.checked,
        not_checked={},
        silenced=silenced or {},
    )


def _validate(log: dict[str, object]) -> None:
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(log), key=str)
    assert not errors, errors[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_log_is_valid_sarif_2_1_0(lang: str) -> None:
    log = sarif([_outcome("thinking_machines"), _outcome("animal_street")], lang)
    _validate(log)
    assert log["version"] == "2.1.0"


def test_rules_are_the_code_table_with_meaning_and_help() -> None:
    rules = sarif([_outcome("thinking_machines")])["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [c.code for c in CODES]
    for rule, code in zip(rules, CODES, strict=True):
        assert rule["shortDescription"]["text"] == code.meaning
        assert (
            rule["help"]["text"].startswith(code.meaning)
            and "docs/check.md" in rule["help"]["text"]
        )


def test_results_have_locations_and_the_exact_value() -> None:
    o = _outcome("thinking_machines")
    results = sarif([o])["runs"][0]["results"]
    assert len(results) == len(o.reported)
    truncated = next(r for r in results if r["ruleId"] == "truncated")
    assert "exact 2.71828…" in truncated["message"]["text"]
    region = truncated["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] >= 1 and region["startColumn"] == 3
    assert truncated["level"] == "error"


def test_suppressed_findings_are_results_with_a_suppression() -> None:
    o = _outcome("thinking_machines", silenced={1: frozenset({"conflicting-definition"})})
    assert len(o.suppressed) == 1
    log = sarif([o])
    _validate(log)
    marked = [r for r in log["runs"][0]["results"] if "suppressions" in r]
    assert len(marked) == 1 and marked[0]["suppressions"][0]["kind"] == "inSource"


def test_artifact_uri_is_relative_inside_the_folder(tmp_path: Path) -> None:
    inside = tmp_path / "a b" / "x.md"
    assert artifact_uri(str(inside), str(tmp_path)) == "a%20b/x.md"
    assert artifact_uri("/elsewhere/y.md", str(tmp_path)).startswith("file:///")
    assert artifact_uri("-") == "stdin"


def test_a_result_says_which_problem_of_the_text_it_is_of() -> None:
    """Issue 21: a text of several problems (tests/corpus/dev/en20: three) — each result of a
    numbered finding carries the number in ``properties.problem`` and in its message, as the
    text report says it; a spec's results carry none."""
    text = (ROOT / "tests" / "corpus" / "dev" / "en20_amanailab-sdpa-test-cases.md").read_text(
        encoding="utf-8"
    )
    o = text_outcome(audit(text, path="t.md"))
    log = sarif([o, _outcome("thinking_machines")])
    _validate(log)
    results = log["runs"][0]["results"]
    numbered = [
        r
        for r in results
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "t.md"
    ]
    assert [r["properties"]["problem"] for r in numbered] == [p.finding.problem for p in o.reported]
    assert {r["properties"]["problem"] for r in numbered} == {1, 2, 3}
    last = numbered[-1]
    assert "(problem 3 of the text) — " in last["message"]["text"]
    assert all("problem" not in r["properties"] for r in results if r not in numbered)
