"""Options fixed per project: ``[tool.symattn]`` in ``pyproject.toml``, or ``symattn.toml``.

Found as ruff finds its configuration: from the current folder upwards, the first folder
with a ``symattn.toml`` (its top level is the table) or a ``pyproject.toml`` that has a
``[tool.symattn]`` table; in one folder ``symattn.toml`` wins. ``--config FILE`` names the
file instead, ``--no-config`` reads none. Precedence: the command line, then the file,
then the built-in defaults.

The table's keys are the long option names (``lang``, ``format``, ``select``, ``ignore``,
``fail-under``, ``digits``, ``color``, ``show-suppressed``, ``rounding``, ``jobs``...) and
``limits`` (a table ``NAME = N``); a key applies to every command that has the option, and
a sub-table (``[tool.symattn.check]``) to one command, over the top level. Each value is
checked as the command line would check it; an unknown key is an error.
"""

from __future__ import annotations

import argparse
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from symattn.errors import InputError

#: the names of the configuration files, in the order they win within one folder
FILE_NAMES: tuple[str, ...] = ("symattn.toml", "pyproject.toml")
#: subcommands that may have their own sub-table
COMMAND_TABLES: tuple[str, ...] = ("compute", "explain", "check", "audit", "reference")
#: options that are never read from a file (they name the run's own inputs and outputs)
NOT_CONFIGURABLE = frozenset({"output", "config", "no_config", "follow_symlinks", "help"})


def discover(start: Path) -> tuple[Path, dict[str, Any]] | None:
    """The configuration file that applies in ``start`` and its ``symattn`` table."""
    for folder in (start, *start.parents):
        for name in FILE_NAMES:
            path = folder / name
            if not path.is_file():
                continue
            table = _table(path)
            if table is not None:
                return path, table
    return None


def _table(path: Path) -> dict[str, Any] | None:
    """The ``symattn`` table of ``path`` (None for a ``pyproject.toml`` without one)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"{path}: cannot read the configuration: {e}") from None
    if path.name != "pyproject.toml":
        return data
    tool = data.get("tool")
    table = tool.get("symattn") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise InputError(f"{path}: [tool.symattn] must be a table")
    return table


def config_for(words: list[str]) -> tuple[Path, dict[str, Any]] | None:
    """The configuration the command line asks for (``--config``, ``--no-config``, or found)."""
    if "--no-config" in words:
        return None
    for i, w in enumerate(words):
        named = w.partition("=")[2] if w.startswith("--config=") else None
        if w == "--config" and i + 1 < len(words):
            named = words[i + 1]
        if named is not None:
            path = Path(named)
            if not path.is_file():
                raise InputError(f"--config {named}: no such file")
            return path, _table(path) or {}
    return discover(Path(os.getcwd()))


def configure(parser: argparse.ArgumentParser, command: str, words: list[str]) -> dict[str, Any]:
    """Apply the configuration the command line asks for (named or found) to ``command``'s
    ``parser``; return the repeatable options it sets (see :func:`apply`)."""
    found = config_for(words)
    if found is None:
        return {}
    path, table = found
    return apply(parser, options_of(table, command), path)


def options_of(table: Mapping[str, Any], command: str) -> dict[str, Any]:
    """The top-level options of ``table`` with the command's own sub-table over them."""
    out = {k: v for k, v in table.items() if k not in COMMAND_TABLES}
    own = table.get(command, {})
    if not isinstance(own, dict):
        raise InputError(f"[tool.symattn.{command}] must be a table")
    out.update(own)
    return out


def apply(
    parser: argparse.ArgumentParser, options: Mapping[str, Any], source: Path
) -> dict[str, Any]:
    """Set the file's options as ``parser``'s defaults; return the repeatable ones
    (``dest -> list``), which replace, not extend, what the command line leaves unset."""
    actions = {a.dest: a for a in parser._actions if a.option_strings}
    all_dests = _known_options()
    defaults: dict[str, Any] = {}
    repeated: dict[str, Any] = {}
    for key, value in options.items():
        dest = key.replace("-", "_")
        if dest == "limits":
            dest, value = "limit", _limits(value, source)
        if dest not in all_dests or dest in NOT_CONFIGURABLE:
            raise InputError(f"{source}: unknown option {key!r} in the configuration")
        action = actions.get(dest)
        if action is None:
            continue  # an option of another command
        checked = _value(action, value, f"{source}: {key}")
        if isinstance(action, argparse._AppendAction):
            repeated[dest] = checked
        else:
            defaults[dest] = checked
    parser.set_defaults(**defaults)
    return repeated


def _known_options() -> frozenset[str]:
    """Every option any command declares (the names a file may use)."""
    from_table = {
        "format", "lang", "select", "ignore", "show_suppressed", "fail_under", "color",
        "rounding", "jobs", "digits", "limit", "exact", "templates", "progress", "causal",
        "scale", "max_ulps", "fragment",
    }  # fmt: skip
    return frozenset(from_table)


def _limits(value: object, source: Path) -> list[str]:
    """``limits = {max_elements = 10000}`` as ``--limit`` words."""
    if not isinstance(value, dict):
        raise InputError(f"{source}: limits must be a table NAME = N")
    return [f"{k}={v}" for k, v in value.items()]


def _value(action: argparse.Action, value: object, where: str) -> Any:
    """``value`` checked and converted as the command line would (a list for repeatable)."""
    if isinstance(action, argparse._AppendAction):
        items = value if isinstance(value, list) else [value]
        return [_one(action, item, where) for item in items]
    if action.nargs == 0:  # a flag
        if not isinstance(value, bool):
            raise InputError(f"{where}: expected true or false, got {value!r}")
        return value
    return _one(action, value, where)


def _one(action: argparse.Action, value: object, where: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InputError(f"{where}: expected a string or a number, got {value!r}")
    text = str(value)
    try:
        converted = action.type(text) if callable(action.type) else text
    except (argparse.ArgumentTypeError, ValueError) as e:
        raise InputError(f"{where}: {e}") from None
    if action.choices is not None and converted not in action.choices:
        choices = ", ".join(map(str, action.choices))
        raise InputError(f"{where}: {value!r} is not one of {choices}")
    return converted
