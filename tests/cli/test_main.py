"""Tests of symattn.cli.main: dispatch through the command table, imported on demand."""

from __future__ import annotations

import subprocess
import sys

import pytest

from symattn.cli.main import COMMANDS, _command_named, _load

from ..conftest import ROOT


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_command_of_the_table_loads(name: str) -> None:
    command = COMMANDS[name]
    assert callable(_load(command.arguments)) and callable(_load(command.runner))
    module = sys.modules[command.runner.partition(":")[0]]
    if hasattr(module, "HELP"):
        assert module.HELP == command.help


def test_the_command_named() -> None:
    assert _command_named(["--version"]) is None
    assert _command_named(["check", "x.toml"]) == "check"
    assert _command_named(["nonsense"]) is None


@pytest.mark.parametrize("argv", [["--version"], ["check", "--help"], ["audit", "--help"]])
def test_start_up_imports_no_command(argv: list[str]) -> None:
    """`symattn --version` and `symattn check --help` load neither the judge nor numpy, nor
    the TOML parser (no configuration is read for them)."""
    code = (
        "import sys\n"
        "from symattn.cli.main import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in ('numpy', 'sympy', 'symattn.judge', 'symattn.read', 'jinja2',"
        " 'tomllib')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "HEAVY []" in out
