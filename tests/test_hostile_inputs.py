"""Hostile input runs nothing and creates nothing: code-like spec values, names and document math.

Every payload goes through the Python API and the command line (``compute``, ``explain``,
``check``, ``audit``) with a temporary directory as the working directory; the directory
listing must be the same afterwards and no ``PWNED`` file may appear anywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from symattn.cli.main import main
from symattn.errors import LimitError, SpecError, SymattnError
from symattn.read.audit import audit
from symattn.spec import load_spec, loads_spec

from .conftest import ROOT

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"
PAYLOADS = [p for p in (HOSTILE / "payloads.txt").read_text(encoding="utf-8").splitlines() if p]
NAMES = PAYLOADS + [
    p for p in (HOSTILE / "injection.txt").read_text(encoding="utf-8").splitlines() if p
]


def listing(root: Path) -> list[str]:
    """Every path under ``root``, relative, sorted."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def no_pwned(*roots: Path) -> None:
    """Fail when a file named PWNED exists in any of ``roots`` (not recursive for big ones)."""
    for root in roots:
        assert not (root / "PWNED").exists(), f"PWNED created in {root}"


def spec_dict(**overrides: object) -> dict[str, object]:
    """A small computable spec with claims."""
    d: dict[str, object] = {
        "title": "t",
        "tokens": ["a", "b"],
        "inputs": {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]},
        "claims": {"rows": {"a": {"weights": ["0.2", "0.8"]}}},
    }
    d.update(overrides)
    return d


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command line in-process; (exit code, stdout, stderr)."""
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str) -> None:
    """Exit 2 with one readable line on stderr, no traceback."""
    assert code == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("symattn ")


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payload_as_number_is_refused_by_api(payload: str) -> None:
    d = spec_dict()
    d["inputs"]["Q"][0][0] = payload  # type: ignore[index]
    with pytest.raises(SymattnError, match=r"inputs\.Q"):
        loads_spec(json.dumps(d), fmt="json")


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("command", ["compute", "explain", "check"])
def test_payload_as_number_is_refused_by_cli(
    payload: str,
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    d = spec_dict()
    d["inputs"]["Q"][0][0] = payload  # type: ignore[index]
    (tmp_path / "s.json").write_text(json.dumps(d), encoding="utf-8")
    before = listing(tmp_path)
    code, out, err = cli([command, "s.json"], capsys)
    assert_one_line_error(code, err)
    assert "inputs.Q[0][0]" in err
    assert out == ""
    assert listing(tmp_path) == before
    no_pwned(tmp_path, ROOT)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payload_as_claim_is_refused(payload: str) -> None:
    d = spec_dict(claims={"rows": {"a": {"weights": [payload, "0.8"]}}})
    with pytest.raises(SymattnError, match="claims"):
        loads_spec(json.dumps(d), fmt="json")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("fmt", ["markdown", "latex", "json"])
def test_payload_as_name_is_text(
    name: str,
    fmt: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Token names, title and notes are only ever copied (escaped), never interpreted."""
    monkeypatch.chdir(tmp_path)
    d = spec_dict(title=name, notes=name, source=name, tokens=[name, "b"], claims={})
    (tmp_path / "s.toml").write_text(_toml(d), encoding="utf-8")
    before = listing(tmp_path)
    for argv in (
        ["explain", "s.toml", "--format", fmt],
        ["compute", "s.toml"],
        ["check", "s.toml", "--format", "json"],
    ):
        code, out, err = cli(argv, capsys)
        assert code == 0, err
        assert out
    assert listing(tmp_path) == before
    no_pwned(tmp_path, ROOT)


def _toml(d: dict[str, object]) -> str:
    """A TOML spec from a dict of strings, string lists and the inputs (json strings are TOML strings)."""
    lines = []
    tables = []
    for k, v in d.items():
        if isinstance(v, dict):
            if v:
                tables.append((k, v))
            continue
        lines.append(f"{k} = {json.dumps(v, ensure_ascii=False)}")
    for k, v in tables:
        lines.append(f"[{k}]")
        for kk, vv in v.items():
            lines.append(f"{kk} = {json.dumps(vv, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payload_in_document_math_runs_nothing(
    payload: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """audit reads code-like math as unparsed (or as prose), never as a checked claim."""
    monkeypatch.chdir(tmp_path)
    text = f"# t\n\n$$ x = {payload} $$\n\nThen $y = {payload} = 3$ and z = {payload} ≈ 0.5.\n"
    report = audit(text)
    if payload == "{{7*7}}":  # LaTeX braces group: this is arithmetic (49), and 3 is wrong
        assert [f.expected for f in report.findings] == ["49"]
    else:
        assert report.findings == ()
        assert report.checked == 0
    (tmp_path / "post.md").write_text(text, encoding="utf-8")
    before = listing(tmp_path)
    for fmt in ("text", "json", "markdown"):
        code, out, err = cli(["audit", "post.md", "--format", fmt], capsys)
        assert code == (1 if report.findings else 0), err
        assert "Traceback" not in err
    assert listing(tmp_path) == before
    no_pwned(tmp_path, ROOT)


def test_unparsed_math_is_reported() -> None:
    """Math with code in a formula is listed as not checked, with the line."""
    report = audit("$$ q \\cdot k = __import__('os').system('touch PWNED') = 5 $$\n")
    assert report.findings == ()
    assert any(u.line == 1 for u in report.unparsed), report


YAML = "!!python/object/apply:os.system ['touch PWNED']\ntokens: [a, b]\n"


@pytest.mark.parametrize("ext", [".yaml", ".yml", ".pkl", ".py", ""])
def test_other_spec_formats_are_clear_errors(
    ext: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"s{ext}").write_text(YAML, encoding="utf-8")
    with pytest.raises(SpecError, match="expected .toml or .json"):
        load_spec(tmp_path / f"s{ext}")
    for command in ("compute", "explain", "check"):
        code, _, err = cli([command, f"s{ext}"], capsys)
        assert_one_line_error(code, err)
        assert "expected .toml or .json" in err
    assert listing(tmp_path) == [f"s{ext}"]
    no_pwned(tmp_path, ROOT)


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_yaml_tags_in_toml_or_json_are_syntax_errors(fmt: str) -> None:
    with pytest.raises(SpecError, match="syntax error"):
        loads_spec(YAML, fmt=fmt)


@pytest.mark.parametrize("depth", [10, 50, 1000, 200_000])
@pytest.mark.parametrize(
    "fmt,make",
    [
        ("toml", lambda n: "a = " + "[" * n + "]" * n),
        ("toml", lambda n: "a = " + "{b = " * n + "1" + "}" * n),
        ("json", lambda n: "[" * n + "]" * n),
        ("json", lambda n: '{"a": ' * n + "1" + "}" * n),
        ("json", lambda n: '{"inputs": {"Q": ' + "[" * n + "1" + "]" * n + "}}"),
    ],
)
def test_deep_nesting_is_a_limit_error(depth: int, fmt: str, make: object) -> None:
    text = make(depth)  # type: ignore[operator]
    with pytest.raises((LimitError, SpecError), match="nest|syntax"):
        loads_spec(text, fmt=fmt)


def test_deep_nesting_through_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (tmp_path / "deep.toml").write_text("a = " + "[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for f in ("deep.json", "deep.toml"):
        code, _, err = cli(["compute", f], capsys)
        assert_one_line_error(code, err)
        assert "nest" in err


@pytest.mark.parametrize("command", ["compute", "explain", "check", "audit"])
def test_subprocess_payload_runs_nothing(command: str, tmp_path: Path) -> None:
    """The real program, as a user runs it: no process started, no file created."""
    payload = PAYLOADS[0]
    if command == "audit":
        (tmp_path / "in.md").write_text(f"$$ x = {payload} = 1 $$\n", encoding="utf-8")
    else:
        d = spec_dict(title=payload, tokens=[payload, "b"])
        d["inputs"]["K"][0][0] = payload  # type: ignore[index]
        (tmp_path / "in.json").write_text(json.dumps(d), encoding="utf-8")
    name = "in.md" if command == "audit" else "in.json"
    before = listing(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "symattn", command, name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr
    if command == "audit":
        assert proc.returncode == 0, proc.stderr
    else:
        assert proc.returncode == 2
        assert len(proc.stderr.strip().splitlines()) == 1
        assert "inputs.K[0][0]" in proc.stderr
    assert listing(tmp_path) == before
    no_pwned(tmp_path, ROOT)
