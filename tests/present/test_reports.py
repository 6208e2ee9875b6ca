"""Tests of symattn.present.reports: check and audit reports as text, JSON and Markdown."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from symattn.errors import InputError
from symattn.judge.check import CheckReport, check
from symattn.present.outcome import FileOutcome, Placed, not_checked_of, outcome
from symattn.present.reports import (
    audit_json,
    audit_markdown,
    audit_text,
    check_json,
    check_markdown,
    check_text,
    message,
    position_text,
    recognised_json,
    recognised_text,
    summary_text,
    total_text,
)
from symattn.read.audit import AuditReport, Recognised, audit
from symattn.spec import load_spec

from ..conftest import EXAMPLES, ROOT

SEED_000 = ROOT / "tests" / "fixtures" / "seeds" / "000_089920b9c8cb4dc4.txt"
#: a text of three attention problems (the formula, case 1 and case 2), each with wrong outputs
THREE_PROBLEMS = ROOT / "tests" / "corpus" / "dev" / "en20_amanailab-sdpa-test-cases.md"


def _checked(seed: str = "thinking_machines") -> CheckReport:
    return check(load_spec(EXAMPLES / f"{seed}.toml"))


def _audited() -> AuditReport:
    return audit(SEED_000.read_text(encoding="utf-8"), path="seed.txt")


def _outcome(report: CheckReport) -> FileOutcome:
    """A check report as the command line reports it (no positions: line 0)."""
    missing = not_checked_of(report.findings)
    return outcome(
        report.path,
        [Placed(f, 0, 0, position_text(f)) for f in report.findings],
        claims=report.checked,
        judged=report.checked - sum(missing.values()),
        not_checked=missing,
        silenced={},
    )


def _text(r: AuditReport) -> tuple[AuditReport, FileOutcome]:
    return r, outcome(
        r.path,
        [Placed(f, f.line, f.column) for f in r.findings],
        claims=r.checked + len(not_checked_of(r.findings)),
        judged=r.checked,
        not_checked=not_checked_of(r.findings),
        silenced={},
    )


def test_position_text() -> None:
    report = _checked()
    assert {position_text(f) for f in report.findings} >= {"d_k", "exp_scores[Thinking,Machines]"}


def test_position_text_counts_columns_from_0() -> None:
    """Issue 24 row 19: entry 0 of a row is named [...,0], as docs/spec.md counts."""
    report = _checked("animal_street")
    where = {position_text(f) for f in report.findings}
    assert "output[它,0]" in where  # the first output component


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "13 claim(s): 13 judged."), ("zh", "共 13 个数")]
)
def test_summary_in_each_language(lang: str, words: str) -> None:
    assert words in summary_text(_outcome(_checked()), lang)


def test_summary_says_what_could_not_be_checked() -> None:
    """Issue 21: 7 missing-input claims are 0 judged, 7 not checked, not "7 checked"."""
    summary = summary_text(_outcome(_checked("fruit_dictionary")))
    assert summary.startswith("7 claim(s): 0 judged, 7 not checked (missing-input: 7).")


def test_check_text_is_one_line_per_finding_and_a_summary() -> None:
    report = _checked()
    lines = check_text([_outcome(report)]).splitlines()
    assert len(lines) == len(report.findings) + 1
    first = report.findings[0]
    assert lines[0].startswith(f"{report.path}: {first.code} {position_text(first)} claimed")
    assert lines[0].endswith(message(first))
    zh = check_text([_outcome(report)], "zh").splitlines()
    assert f"{first.code} d_k 原文 " in zh[0] and "精确值" in zh[0] and "共 13 个数" in zh[-1]


def test_a_grand_total_over_several_files() -> None:
    both = [_outcome(_checked()), _outcome(_checked("fruit_dictionary"))]
    assert total_text(both).startswith("Total over 2 files: 20 claim(s): 13 judged, 7 not checked")
    assert check_text(both).splitlines()[-1] == total_text(both)
    assert total_text(both[:1]) == ""


def test_check_json_is_plain_data() -> None:
    report = _checked()
    data = check_json([_outcome(report)], "zh")
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    spec = data["specs"][0]
    assert spec["checked"] == report.checked and len(spec["findings"]) == len(report.findings)
    assert spec["findings"][0]["message"] == message(report.findings[0], "zh")
    assert data["total"]["claims"] == report.checked


def test_check_markdown_escapes_and_labels_columns() -> None:
    md = check_markdown([_outcome(_checked())], "en", ["A *title*"])
    assert md.startswith(r"# Errata: A \*title\*")
    hostile = check_markdown([_outcome(_checked())], "en", [r"\(\href{javascript:alert(1)}{x}\)"])
    assert hostile.startswith(r"# Errata: `\`(`\`href\{javascript:alert(1)\}\{x\}`\`)")
    assert "| Where | Finding | Claimed | Exact | Correct | Why |" in md


def test_check_markdown_of_a_clean_report() -> None:
    clean = _outcome(CheckReport("clean.toml", (), 3))
    md = check_markdown([clean], "en")
    assert "No wrong or doubtful numbers found." in md and "3 claim(s): 3 judged" in md


def test_a_note_is_counted_as_a_note_not_as_a_problem() -> None:
    r = audit("The weights are 0.79, 0.17 and 0.04; the output is [9.68, 42.98].\n", path="w.md")
    assert [f.code for f in r.findings] == ["missing-input"]
    line = audit_text([_text(r)]).splitlines()[-1]
    assert "0 judged, 1 not checked (missing-input: 1). Errors: 0. Warnings: 0. Notes: 1." in line


def test_audit_reports() -> None:
    r = _audited()
    text = audit_text([_text(r)])
    errors = sum(1 for f in r.findings if f.severity == "error")
    assert errors > 0
    assert f"{r.checked} claim(s): {r.checked} judged. Errors: {errors}. " in text.splitlines()[-1]
    assert f"(of the {r.checked} judged claims)" in text  # one count, said once
    zh = audit_text([_text(r)], "zh").splitlines()
    assert zh[-1].startswith(f"seed.txt: 共 {r.checked} 个数：判定 {r.checked} 个")
    assert all(": not checked:" not in line for line in zh)
    data = audit_json([_text(r)], "zh")
    files = data["files"]
    assert isinstance(files, list) and files[0]["path"] == "seed.txt"
    md = audit_markdown([_text(r)], "en")
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
    out = audit_text([_text(audit(text, path=path))])
    assert all(line.startswith("a b.md:") for line in out.splitlines()), out


def test_check_json_carries_the_alternatives() -> None:
    data = check_json([_outcome(_checked())])
    assert all(isinstance(f["alternatives"], list) for f in data["specs"][0]["findings"])


def _three() -> AuditReport:
    return audit(THREE_PROBLEMS.read_text(encoding="utf-8"), path="t.md")


def test_the_audit_text_says_what_every_problem_of_the_text_is() -> None:
    """Issue 21: one line per problem, numbered as its findings say it."""
    r = _three()
    assert len(r.problems) == 3 and {f.problem for f in r.findings} == {1, 2, 3}
    lines = [line for line in audit_text([_text(r)]).splitlines() if ": recognised " in line]
    assert [line.split(")")[0] for line in lines] == [
        f"t.md: recognised (problem {n} of the text" for n in (1, 2, 3)
    ]
    assert lines[2].endswith(
        "vectors: Q q1; K 1, 2; V 1, 2; d_k = 2 (width of K); 2 stated number(s) checked "
        f"against it (of the {r.checked} judged claims)"
    )
    zh = [line for line in audit_text([_text(r)], "zh").splitlines() if ": 识别出 " in line]
    assert [line.split("）")[0] for line in zh] == [
        f"t.md: 识别出 （文中第 {n} 个问题" for n in (1, 2, 3)
    ]


def test_a_text_of_one_problem_gets_one_unnumbered_line() -> None:
    r = _audited()
    assert len(r.problems) == 1
    lines = [line for line in audit_text([_text(r)]).splitlines() if ": recognised " in line]
    assert lines == [f"seed.txt: recognised {recognised_text(r.problems[0], judged=r.checked)}"]
    assert "(problem" not in audit_text([_text(r)])


def test_the_audit_json_lists_every_problem() -> None:
    r = _three()
    data = audit_json([_text(r)])["files"]
    assert isinstance(data, list)
    assert data[0]["problems"] == [recognised_json(p) for p in r.problems]
    assert data[0]["recognised"] == data[0]["problems"][0]
    assert [p["Q"] for p in data[0]["problems"]] == [["1", "2"], ["1", "2"], ["q1"]]
    one = audit_json([_text(_audited())])["files"]
    assert isinstance(one, list) and one[0]["problems"] == [one[0]["recognised"]]


def test_the_audit_markdown_says_every_problem_and_which_problem_a_value_is_of() -> None:
    md = audit_markdown([_text(_three())])
    assert [line.split(")")[0] for line in md.splitlines() if "recognised:" in line] == [
        f"Attention problem recognised: (problem {n} of the text" for n in (1, 2, 3)
    ]
    assert "| 26.60476901… (problem 3 of the text) |" in md


def test_a_finding_without_an_exact_value_still_says_its_problem() -> None:
    r = _three()
    f = replace(next(f for f in r.findings if f.problem == 2), exact="")
    line = audit_text([_text(replace(r, findings=(f,)))]).splitlines()[0]
    assert f"{f.code} claimed {f.claimed} (problem 2 of the text) — " in line


#: a text with a formula the grammar cannot compute (``W_V`` has no value) and a wrong sum
_UNPARSED = "$$s = 2 \\times 3 + W_V = 6$$\n\n$$y = 1 + 2 = 4$$\n"


def test_a_reason_is_said_in_the_language_of_the_report() -> None:
    r = audit(_UNPARSED, path="t.md")
    (u,) = r.unparsed
    assert (u.reason.key, dict(u.reason.params)) == ("unknown-name", {"name": "W_V"})
    en, zh = audit_text([r]).splitlines(), audit_text([r], "zh").splitlines()
    assert "t.md:1: not checked: s = 2 × 3 + W_V = 6 (unknown name W_V)" in en
    assert "t.md:1: 未核对: s = 2 × 3 + W_V = 6 (未知的名称 W_V)" in zh
    assert "1 not checked (unparsed: 1)" in en[-1]
    assert "未核对 1 个（无法解析: 1）" in zh[-1] and "unparsed" not in zh[-1]
    md = audit_markdown([r], "zh")
    assert "(未知的名称 W\\_V)" in md and "unknown name" not in md


def test_the_audit_json_gives_each_reason_and_its_key() -> None:
    r = audit(_UNPARSED, path="t.md")
    (en,) = audit_json([r])["files"]  # type: ignore[misc]
    (zh,) = audit_json([r], "zh")["files"]  # type: ignore[misc]
    assert en["unparsed"] == [
        {
            "line": 1,
            "text": "s = 2 × 3 + W_V = 6",
            "reason": "unknown name W_V",
            "reason_key": "unknown-name",
        }
    ]
    assert zh["unparsed"][0]["reason"] == "未知的名称 W_V"
    assert zh["unparsed"][0]["reason_key"] == "unknown-name"
    json.dumps(zh)


def test_the_audit_json_counts_what_was_not_read_by_sentence_and_by_key() -> None:
    text = "Some prose with 3 numbers: 1, 2.\n\n```python\nx = 5\n```\n"
    r = audit(text, path="t.md")
    cov = audit_json([r])["files"][0]["coverage"]  # type: ignore[index]
    zh = audit_json([r], "zh")["files"][0]["coverage"]  # type: ignore[index]
    assert cov["not_read_keys"] == zh["not_read_keys"]
    assert sum(cov["not_read"].values()) == sum(cov["not_read_keys"].values()) > 0
    assert "prose" in cov["not_read_keys"] and cov["not_read"]["prose"] > 0
    assert zh["not_read"]["正文"] == cov["not_read"]["prose"]
