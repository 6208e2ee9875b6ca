"""Tests of symattn.present.reports: check and audit reports as text, JSON and Markdown."""

from __future__ import annotations

import json

import pytest

from symattn.errors import InputError
from symattn.judge.check import CheckReport, check
from symattn.present.reports import (
    audit_json,
    audit_markdown,
    audit_text,
    check_json,
    check_markdown,
    check_summary,
    check_text,
    message,
    position_text,
    recognised_json,
    recognised_text,
)
from symattn.read.audit import AuditReport, Recognised, audit
from symattn.spec import load_spec

from ..conftest import EXAMPLES, ROOT

SEED_000 = ROOT / "tests" / "fixtures" / "seeds" / "000_089920b9c8cb4dc4.txt"


def _checked(seed: str = "thinking_machines") -> CheckReport:
    return check(load_spec(EXAMPLES / f"{seed}.toml"))


def _audited() -> AuditReport:
    return audit(SEED_000.read_text(encoding="utf-8"), path="seed.txt")


def test_position_text() -> None:
    report = _checked()
    assert {position_text(f) for f in report.findings} >= {"d_k", "exp_scores[Thinking,Machines]"}


def test_position_text_counts_columns_from_one() -> None:
    report = _checked("animal_street")
    where = {position_text(f) for f in report.findings}
    assert "output[它,1]" in where  # the first output component (the judge counts from 0)
    assert not any(w.endswith(",0]") for w in where)


@pytest.mark.parametrize(("lang", "words"), [("en", "Claims checked"), ("zh", "共核对")])
def test_check_summary_in_each_language(lang: str, words: str) -> None:
    report = _checked()
    summary = check_summary(report, lang)
    assert words in summary and str(report.checked) in summary


def test_check_text_is_one_line_per_finding_and_a_summary() -> None:
    report = _checked()
    lines = check_text(report).splitlines()
    assert len(lines) == len(report.findings) + 1
    first = report.findings[0]
    assert lines[0].startswith(f"{report.path}:{position_text(first)}: {first.code} claimed")
    assert lines[0].endswith(message(first))
    zh = check_text(report, "zh").splitlines()
    assert f"{first.code} 原文 " in zh[0] and "精确值" in zh[0] and zh[-1].startswith("共核对")


def test_check_json_is_plain_data() -> None:
    report = _checked()
    data = check_json(report, "zh")
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert data["checked"] == report.checked and len(data["findings"]) == len(report.findings)
    assert data["findings"][0]["message"] == message(report.findings[0], "zh")


def test_check_markdown_escapes_and_labels_columns() -> None:
    md = check_markdown(_checked(), "en", "A *title*")
    assert md.startswith(r"# Errata: A \*title\*")
    hostile = check_markdown(_checked(), "en", r"\(\href{javascript:alert(1)}{x}\)")
    assert hostile.startswith(r"# Errata: `\`(`\`href\{javascript:alert(1)\}\{x\}`\`)")
    assert "| Where | Finding | Claimed | Exact | Correct | Why |" in md


def test_check_markdown_of_a_clean_report() -> None:
    clean = CheckReport("clean.toml", (), 3)
    md = check_markdown(clean, "en")
    assert "No wrong or doubtful numbers found." in md and "Claims checked: 3." in md


def test_a_note_is_counted_as_a_note_not_as_a_problem() -> None:
    r = audit("The weights are 0.79, 0.17 and 0.04; the output is [9.68, 42.98].\n", path="w.md")
    assert [f.code for f in r.findings] == ["missing-input"]
    line = audit_text([r]).splitlines()[-1]
    assert "Errors: 0. Warnings: 0. Notes: 1." in line


def test_audit_reports() -> None:
    r = _audited()
    text = audit_text([r])
    errors = sum(1 for f in r.findings if f.severity == "error")
    assert errors > 0
    assert f"Claims checked: {r.checked}. Errors: {errors}. " in text.splitlines()[-1]
    zh = audit_text([r], "zh").splitlines()
    assert zh[-1].startswith(f"seed.txt: 共核对 {r.checked} 个数：错误 {errors} 处")
    assert all(": not checked:" not in line for line in zh)
    data = audit_json([r], "zh")
    files = data["files"]
    assert isinstance(files, list) and files[0]["path"] == "seed.txt"
    md = audit_markdown([r], "en")
    assert md.startswith("# Errata") and "| Line | Col | Code |" in md
    assert "## seed.txt" in md


@pytest.mark.parametrize(
    ("source", "words"),
    [("vectors", "vectors"), ("table", "table"), ("embeddings", "embeddings and weight")],
)
def test_recognised_text_names_each_source(source: str, words: str) -> None:
    r = Recognised(source, ("a",), ("a", "b"), ("a", "b"), d_k=2, d_k_stated=True, claims=3)
    text = recognised_text(r)
    assert text.startswith(words) and "d_k = 2 (as stated)" in text
    assert recognised_json(r)["d_k_from"] == "stated"


def test_recognised_text_of_an_unlisted_source_is_an_error() -> None:
    r = Recognised("telepathy", ("a",), ("a",), ("a",))
    with pytest.raises(InputError, match="no message for audit source 'telepathy'"):
        recognised_text(r)


@pytest.mark.parametrize("brk", ["\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])
def test_audit_text_lines_never_break(brk: str) -> None:
    """Issue 15 row 27: every line of the text report starts with the file name."""
    text = f"$$ 1 + 1 = 3 $$\n\n\\(=\\]&\\frac{{1}}{{2}}1{brk}$=\\)\n"
    path = f"a{brk}b.md"
    out = audit_text([audit(text, path=path)])
    assert all(line.startswith("a b.md:") for line in out.splitlines()), out


def test_check_json_carries_the_alternatives() -> None:
    data = check_json(_checked())
    assert all(isinstance(f["alternatives"], list) for f in data["findings"])
