"""Tests of symattn.cli.settings: [tool.symattn] / symattn.toml, found as ruff finds its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symattn.cli.main import build_parser, main
from symattn.cli.settings import discover

from ..conftest import EXAMPLES

FRUIT = str(EXAMPLES / "fruit_dictionary.toml")
TM = str(EXAMPLES / "thinking_machines.toml")


def test_discovery_goes_upwards_and_symattn_toml_wins(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    assert discover(deep) is None or discover(deep)[0].parent not in (deep, tmp_path)  # type: ignore[index]
    (tmp_path / "pyproject.toml").write_text('[tool.symattn]\nlang = "zh"\n', encoding="utf-8")
    found = discover(deep)
    assert found is not None and found[0] == tmp_path / "pyproject.toml"
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    assert discover(deep)[0] == tmp_path / "pyproject.toml"  # type: ignore[index]  # no table: skipped
    (tmp_path / "a" / "symattn.toml").write_text('lang = "en"\n', encoding="utf-8")
    assert discover(deep) == (tmp_path / "a" / "symattn.toml", {"lang": "en"})


def _run(
    tmp_path: Path,
    config: str,
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    (tmp_path / "symattn.toml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_precedence_cli_then_config_then_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = 'lang = "en"\n[check]\nformat = "json"\nignore = ["info"]\n'
    code, out, _ = _run(tmp_path, config, ["check", FRUIT], monkeypatch, capsys)
    data = json.loads(out)  # format from [check]
    assert data["specs"][0]["findings"] == [] and data["total"]["deselected"] == 7
    code, out, _ = _run(
        tmp_path,
        config,
        ["check", FRUIT, "--format", "text", "--ignore", "error"],
        monkeypatch,
        capsys,
    )
    assert "7 claim(s): 0 judged" in out  # the command line wins; lang from the file
    assert "missing-input" in out  # --ignore error replaced the file's ignore = ["info"]


def test_limits_and_fail_under_from_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(tmp_path, "fail-under = 50\n", ["check", FRUIT], monkeypatch, capsys)
    assert code == 1 and "judged 0.0% of the claims, below --fail-under 50" in err
    code, _, err = _run(
        tmp_path, "[limits]\nmax_elements = 1\n", ["check", TM], monkeypatch, capsys
    )
    assert code == 2 and "max_elements" in err


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ("nonsense = 1\n", "unknown option 'nonsense'"),
        ('format = "pdf"\n', "'pdf' is not one of"),
        ("fail-under = 200\n", "expected a percentage"),
        ("show-suppressed = 1\n", "expected true or false"),
        ("lang = [\n", "cannot read the configuration"),
    ],
)
def test_a_bad_configuration_is_one_line_exit_2(
    tmp_path: Path,
    config: str,
    needle: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = _run(tmp_path, config, ["check", FRUIT], monkeypatch, capsys)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_no_config_and_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(
        tmp_path, "nonsense = 1\n", ["check", FRUIT, "--no-config"], monkeypatch, capsys
    )
    assert code == 0 and err == ""
    other = tmp_path / "other.toml"
    other.write_text('format = "github"\n', encoding="utf-8")
    code, out, _ = _run(tmp_path, "", ["check", FRUIT, "--config", str(other)], monkeypatch, capsys)
    assert out.startswith("::notice file=")


def test_every_configurable_name_is_an_option_of_some_command() -> None:
    from symattn.cli.settings import _known_options

    dests = {
        a.dest
        for sub in build_parser()._subparsers._group_actions[0].choices.values()  # type: ignore[union-attr]
        for a in sub._actions
    }
    for name in _known_options():
        assert name in dests, name
