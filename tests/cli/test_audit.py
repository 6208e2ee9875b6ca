"""Tests of symattn.cli.audit: the process pool only when it pays, the same answers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from symattn.cli import audit as audit_cli
from symattn.cli.main import main
from symattn.judge.findings import Message
from symattn.present.messages import load_messages, say
from symattn.read.messages import limit_exceeded, not_checked

from ..conftest import ROOT

SEEDS = ROOT / "tests" / "fixtures" / "seeds"


@pytest.mark.parametrize(
    ("jobs", "files", "load", "expected"),
    [(1, 50, 0.0, 1), (2, 5, 0.0, 1), (2, 50, 0.0, 2), (2, 50, 7.0, 1), (8, 50, 0.0, 2)],
)
def test_pool_size(
    jobs: int, files: int, load: float, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit_cli.os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(audit_cli.os, "sched_getaffinity", lambda pid: {0, 1})
    assert audit_cli.pool_size(jobs, files) == expected


def test_a_pool_gives_the_serial_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seeds = sorted(SEEDS.glob("*.txt"))
    for i in range(audit_cli.POOL_FROM):
        shutil.copy(seeds[i % len(seeds)], tmp_path / f"f{i:02}.txt")
    main(["audit", str(tmp_path), "--format", "json"])
    serial = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(audit_cli, "pool_size", lambda jobs, files: 2)
    main(["audit", str(tmp_path), "--format", "json", "--jobs", "2"])
    assert json.loads(capsys.readouterr().out) == serial


def test_a_limit_in_a_reason_is_said_the_command_line_way() -> None:
    """``Limits(NAME=...)`` nested in a reason becomes ``--limit NAME=N`` (a parameter, so
    each catalog still says it in its own words); an error's own text is reworded."""
    what = not_checked("formula-too-long", length=40)
    reason = not_checked("problem-not-checked", why=limit_exceeded("max_formula_length", 30, what))
    said = audit_cli.command_line_reason(reason)
    inner = said.params["why"]
    assert isinstance(inner, Message)
    assert inner.params["how"] == not_checked("raise-cli", limit="max_formula_length")
    assert inner.params["what"] == what
    en, zh = (say(said, load_messages(lang)) for lang in ("en", "zh"))
    assert en.endswith("(raise it with --limit max_formula_length=N)") and "Limits(" not in en
    assert "--limit max_formula_length=N" in zh and "Limits(" not in zh
    error = not_checked("error", detail="more than max_bits=8 (raise it with Limits(max_bits=...))")
    assert audit_cli.command_line_reason(error).params["detail"] == (
        "more than max_bits=8 (raise it with --limit max_bits=N)"
    )


def test_a_chinese_report_says_why_in_chinese(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "t.md"
    text.write_text("$$s = 2 \\times 3 + W_V = 6$$\n\n$$y = 1 + 2 = 3$$\n", encoding="utf-8")
    main(["audit", "--lang", "zh", str(text)])
    out = capsys.readouterr().out
    assert "(未知的名称 W_V)" in out and "（无法解析: 1）" in out, out
    assert "unknown name" not in out and "unparsed" not in out, out
