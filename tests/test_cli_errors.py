"""Every error a user can cause on the command line: one readable line on stderr, a non-zero
exit code, never a traceback. Most cases run ``symattn.cli.main`` in-process; a handful run
``python -m symattn`` as a subprocess to see exactly what a user sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from symattn.cli.main import main

from .conftest import ROOT

SPEC = {
    "tokens": ["a", "b"],
    "inputs": {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]},
}


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary working directory with a good spec, a bad one and a document."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.json").write_text(json.dumps(SPEC), encoding="utf-8")
    (tmp_path / "good.toml").write_text(
        'tokens = ["a", "b"]\n[inputs]\nQ = [[1, 0], [0, 1]]\nK = [[1, 2], [3, 4]]\nV = [[1, 0], [0, 1]]\n',
        encoding="utf-8",
    )
    (tmp_path / "badfield.json").write_text(json.dumps({**SPEC, "tokenz": ["a"]}), encoding="utf-8")
    (tmp_path / "badshape.json").write_text(
        json.dumps({**SPEC, "inputs": {**SPEC["inputs"], "K": [[1, 2, 3]]}}), encoding="utf-8"
    )
    (tmp_path / "badtoml.toml").write_text("tokens = [\n", encoding="utf-8")
    (tmp_path / "badjson.json").write_text("{,}", encoding="utf-8")
    (tmp_path / "missing.json").write_text(
        json.dumps({"tokens": ["a", "b"], "missing": ["Q", "K", "V"]}), encoding="utf-8"
    )
    (tmp_path / "undecodable.md").write_bytes(b"ok\n\xff\xfe\x80\x80 = 1\n" * 2 + b"\x81")
    (tmp_path / "undecodable.json").write_bytes(b'{"title": "\xff\x80"}')
    (tmp_path / "spec.yaml").write_text("tokens: [a, b]\n", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    (tmp_path / "post.md").write_text("$$ 1 + 1 = 2 $$\n", encoding="utf-8")
    return tmp_path


CASES = [
    (["compute", "nope.json"], "no such file|cannot read"),
    (["explain", "nope.toml"], "no such file|cannot read"),
    (["check", "nope.toml"], "no such file|cannot read"),
    (["audit", "nope.md"], "no such file"),
    (["compute", "spec.yaml"], "expected .toml or .json"),
    (["explain", "good.txt"], "expected .toml or .json|cannot read"),
    (["compute", "folder"], "expected .toml or .json"),
    (["compute", "folder.json"], "cannot read"),
    (["audit", "folder"], r"no \*.md"),
    (["compute", "badfield.json"], "tokenz"),
    (["explain", "badshape.json"], "inputs|shape"),
    (["check", "badtoml.toml"], "TOML syntax error"),
    (["compute", "badjson.json"], "JSON syntax error"),
    (["compute", "undecodable.json"], "byte offset 11"),
    (["audit", "undecodable.md"], "byte offset"),
    (["compute", "missing.json"], "missing|not given|cannot"),
    (["compute", "good.json", "--digits", "-1"], "--digits"),
    (["compute", "good.json", "--digits", "100000"], "--digits"),
    (["explain", "good.json", "--digits", "-1"], "--digits"),
    (["explain", "good.json", "--fragment"], "--fragment"),
    (["explain", "good.json", "--query", "zzz"], "zzz"),
    (["explain", "good.json", "--lang", "xx"], "xx"),
    (["explain", "good.json", "--templates", "nope_dir"], "nope_dir|template"),
    (["explain", "good.json", "-o", "no/such/folder/out.md"], "does not exist"),
    (["compute", "good.json", "-o", "no/such/folder/out.txt"], "does not exist"),
    (["check", "good.json", "-o", "folder"], "folder"),
    (["audit", "post.md", "--jobs", "0"], "--jobs"),
    (["compute", "good.json", "--limit", "max_elements=3"], "max_elements"),
]


@pytest.mark.parametrize("argv,pattern", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_error_is_one_line(
    argv: list[str], pattern: str, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    before = sorted(p.name for p in work.rglob("*"))
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"symattn {argv[0]}: error: "), err
    assert re.search(pattern, lines[0]), lines[0]
    assert "Traceback" not in err
    assert sorted(p.name for p in work.rglob("*")) == before  # nothing written, no temp file left


USAGE = [
    ["explain", "good.json", "--format", "pdf"],
    ["audit", "post.md", "--lang", "fr"],
    ["check", "good.json", "--rounding", "sideways"],
    ["compute", "good.json", "--digits", "ten"],
    ["compute", "good.json", "--limit", "max_everything=3"],
    ["frobnicate"],
    [],
    ["compute"],
]


@pytest.mark.parametrize("argv", USAGE, ids=[" ".join(a) or "(none)" for a in USAGE])
def test_usage_errors(argv: list[str], work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err.splitlines()[-1]
    assert "Traceback" not in err


SUBPROCESS = [
    (["compute", "nope.json"], "nope.json"),
    (["audit", "undecodable.md"], "byte offset"),
    (["explain", "good.json", "--format", "pdf"], "invalid choice"),
    (["compute", "spec.yaml"], "expected .toml or .json"),
]


@pytest.mark.parametrize("argv,pattern", SUBPROCESS, ids=[" ".join(a) for a, _ in SUBPROCESS])
def test_error_as_a_user_sees_it(argv: list[str], pattern: str, work: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "symattn", *argv],
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert pattern in proc.stderr.strip().splitlines()[-1]
    assert proc.stdout == ""
