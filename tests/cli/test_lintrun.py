"""Tests of symattn.cli.lintrun (through the command line): -o over an input refused,
several files with a total, inline suppression in a spec, colour, fail-under."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from symattn.cli.lintrun import colour, colour_wanted
from symattn.cli.main import main

from ..conftest import EXAMPLES, ROOT

TM = EXAMPLES / "thinking_machines.toml"


@pytest.mark.parametrize("command", ["check", "explain"])
def test_o_naming_the_input_is_refused(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "copy.toml"
    shutil.copy(TM, spec)
    before = spec.read_bytes()
    assert main([command, str(spec), "-o", str(spec)]) == 2
    err = capsys.readouterr().err
    assert "that is an input file" in err and len(err.strip().splitlines()) == 1
    assert spec.read_bytes() == before


def test_audit_o_and_its_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    post = tmp_path / "post.md"
    post.write_text("$1 + 1 = 3$\n", encoding="utf-8")
    assert main(["audit", str(post), "-o", str(post)]) == 2
    out = tmp_path / "report.txt"
    assert main(["audit", str(post), "-o", str(out)]) == 1
    assert "wrong-value" in out.read_text(encoding="utf-8") and capsys.readouterr().out == ""


def test_a_suppressed_claim_of_a_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = TM.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(text) if t.startswith("exp = ["))
    text[line] += "  # symattn: ignore[truncated]"
    spec = tmp_path / "tm.toml"
    spec.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert main(["check", str(spec), "--lang", "en"]) == 1  # other errors remain
    out = capsys.readouterr().out
    assert " truncated " not in out and "Suppressed: 1 (listed with --show-suppressed)." in out
    main(["check", str(spec), "--lang", "en", "--show-suppressed"])
    assert "[suppressed] truncated exp_scores[Thinking,Machines]" in capsys.readouterr().out


def test_several_specs_and_a_total(capsys: pytest.CaptureFixture[str]) -> None:
    fruit = EXAMPLES / "fruit_dictionary.toml"
    assert main(["check", str(fruit), str(TM), "--lang", "en"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("Total over 2 files: 20 claim(s): 13 judged, 7 not checked")
    assert any(
        t.startswith(f"{fruit}:26:12: missing-input weights[fruit,apple] claimed 0.79")
        for t in lines
    )


def test_fruit_dictionary_says_nothing_was_judged(capsys: pytest.CaptureFixture[str]) -> None:
    fruit = str(EXAMPLES / "fruit_dictionary.toml")
    assert main(["check", fruit, "--lang", "en"]) == 0
    assert "7 claim(s): 0 judged, 7 not checked (missing-input: 7)." in capsys.readouterr().out
    assert main(["check", fruit, "--fail-under", "1"]) == 1


def test_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert colour_wanted("auto", True) and not colour_wanted("auto", False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted("auto", True) and colour_wanted("always", False)
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert colour_wanted("auto", False) and not colour_wanted("never", True)
    painted = colour("a.md:1:2: truncated claimed 1\n", {"truncated": "error"})
    assert painted == "a.md:1:2: \x1b[31mtruncated\x1b[0m claimed 1\n"


def test_audit_sarif_and_github_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    post = tmp_path / "post.md"
    post.write_text("Two: $1 + 1 = 3$\n", encoding="utf-8")
    assert main(["audit", str(post), "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    schema = json.loads((ROOT / "tests/fixtures/sarif/sarif-schema-2.1.0.json").read_text("utf-8"))
    jsonschema.Draft7Validator(schema).validate(log)
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 15}
    assert main(["audit", str(post), "--format", "github"]) == 1
    assert capsys.readouterr().out.startswith(f"::error file={post},line=1,col=15,")
