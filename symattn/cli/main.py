"""The ``symattn`` command line: one subcommand per module in :mod:`symattn.cli`.

Every error a user can cause ends as one line on stderr and exit code 2; a finding of
severity error (``check``, ``audit``) is exit code 1; success is 0. Everything a command
prints goes through :func:`symattn.cli.output.safe_streams` (no terminal escapes from input
reach a terminal); ``-o FILE`` is written by :mod:`symattn.cli.output`, and
``--follow-symlinks`` is decided here, once, for every command that has ``-o``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import NoReturn, cast

from symattn.cli.options import command_line_words, parse_limit
from symattn.cli.output import Terminated, end_by_signal, safe_streams
from symattn.errors import SymattnError
from symattn.version import __version__


@dataclass(frozen=True)
class Command:
    """A subcommand: its one-line help, where its arguments are declared and where it runs.

    Both are ``"module:function"`` paths, imported with :mod:`importlib` only when the
    command is asked for. This is dispatch (a linter run once per file in pre-commit must
    start in well under 0.1 s, and the judge pulls in sympy and numpy), not an import hidden
    to dodge a cycle: every module named here imports only downwards, at its top.
    """

    help: str
    arguments: str  #: ``add_arguments(parser)``
    runner: str  #: ``run(args) -> int``


def _load(path: str) -> Callable[..., object]:
    """The function a ``"module:function"`` path names."""
    module, _, name = path.partition(":")
    return cast(Callable[..., object], getattr(importlib.import_module(module), name))


#: where the configuration file is read and applied (see :mod:`symattn.cli.settings`)
SETTINGS = "symattn.cli.settings:configure"

#: the subcommands in help order (their ``HELP`` strings are tested to be these)
COMMANDS: Mapping[str, Command] = MappingProxyType(
    {
        "compute": Command(
            "compute the attention in a spec and print every stage exactly and to N decimals",
            "symattn.cli.compute:add_arguments",
            "symattn.cli.compute:run",
        ),
        "explain": Command(
            "write the worked example of a spec step by step "
            "(Markdown, LaTeX, HTML or JSON; zh or en)",
            "symattn.cli.explain:add_arguments",
            "symattn.cli.explain:run",
        ),
        "check": Command(
            "check the numbers a spec's author claims: one finding per wrong or doubtful number",
            "symattn.cli.lint:add_check_arguments",
            "symattn.cli.check:run",
        ),
        "audit": Command(
            "find the wrong numbers in a worked example (Markdown, LaTeX or plain text) as it is",
            "symattn.cli.lint:add_audit_arguments",
            "symattn.cli.audit:run",
        ),
        "reference": Command(
            "correctly rounded attention of .npy inputs (a test oracle for kernels), and --compare",
            "symattn.cli.reference:add_arguments",
            "symattn.cli.reference:run",
        ),
    }
)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors say the program name and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand; with ``only``, the arguments of that one alone are
    declared (the others keep their help line; ``""``: none), so no other command module
    is imported."""
    parser = _Parser(
        prog="symattn",
        description=(
            "Transformer attention with exact and certified numbers: compute, explain, check."
        ),
    )
    parser.add_argument("--version", action="version", version=f"symattn {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, command in COMMANDS.items():
        p = sub.add_parser(name, help=command.help, description=command.help)
        if only is not None and name != only:
            continue
        p.add_argument(
            "--limit",
            action="append",
            type=parse_limit,
            metavar="NAME=N",
            help="raise or lower a safety limit (see docs/security.md), e.g. max_elements=10000000",
        )
        _load(command.arguments)(p)
        if _has_output(p):
            p.add_argument(
                "--follow-symlinks",
                action="store_true",
                help="if -o FILE is a symbolic link, replace the file it points to "
                "(without this, a link is refused)",
            )
        p.set_defaults(_run=command.runner)
    return parser


def _has_output(p: argparse.ArgumentParser) -> bool:
    """Whether a command writes ``-o FILE``."""
    return any("-o" in action.option_strings for action in p._actions)


def _resolve_output(args: argparse.Namespace) -> None:
    """With ``--follow-symlinks``, ``-o LINK`` means the file the link points to."""
    output = getattr(args, "output", None)
    if getattr(args, "follow_symlinks", False) and output and os.path.islink(output):
        args.output = os.path.realpath(output)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    command = _command_named(words)
    parser = build_parser(command or "")  # "": no command named, none is loaded
    with safe_streams():
        try:
            repeated = _configure(parser, command, words)
        except SymattnError as e:
            print(f"symattn {command}: error: {one_line(str(e))}", file=sys.stderr)
            return EXIT_USAGE
        args = parser.parse_args(words)
        for dest, value in repeated.items():
            if getattr(args, dest, None) is None:
                setattr(args, dest, value)
        return _run(args)


def _configure(
    parser: argparse.ArgumentParser, command: str | None, words: list[str]
) -> dict[str, object]:
    """Apply the configuration file's options to ``command``'s parser (see
    :mod:`symattn.cli.settings`); return the repeatable ones."""
    if command is None or "-h" in words or "--help" in words:
        return {}
    # loaded as a command is, when one runs: ``--version`` and ``--help`` read no file, and
    # the TOML parser is a fifth of the start-up budget (issue 21: under 0.1 s CPU)
    configure = _load(SETTINGS)
    return cast(dict[str, object], configure(_subparsers(parser)[command], command, words))


def _subparsers(parser: argparse.ArgumentParser) -> Mapping[str, argparse.ArgumentParser]:
    """The subcommand parsers by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return cast(Mapping[str, argparse.ArgumentParser], action.choices)
    raise LookupError("no subcommands")  # pragma: no cover - build_parser adds them


def _command_named(words: list[str]) -> str | None:
    """The subcommand the words ask for: the first word that is not an option."""
    first = next((w for w in words if not w.startswith("-")), None)
    return first if first in COMMANDS else None


def _run(args: argparse.Namespace) -> int:
    """Run the command; every error becomes one line on stderr."""
    try:
        _resolve_output(args)
        return int(cast(int, _load(args._run)(args)))
    except SymattnError as e:
        print(f"symattn {args.command}: error: {one_line(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    except Terminated as e:
        print(
            f"symattn {args.command}: terminated by {e} (an output file is complete or untouched)",
            file=sys.stderr,
        )
        sys.stderr.flush()
        end_by_signal(e.signum)
        return 128 + e.signum  # pragma: no cover - the signal ended the process
    except KeyboardInterrupt:
        print(f"symattn {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as e:  # e.g. disk full while writing -o FILE (the old file is untouched)
        print(f"symattn {args.command}: error: {e.strerror or e}", file=sys.stderr)
        return EXIT_USAGE
    except RecursionError:
        print(f"symattn {args.command}: error: input nested too deeply", file=sys.stderr)
        return EXIT_USAGE


def one_line(message: str) -> str:
    """An error message as one line, ``Limits(NAME=...)`` said the command line's way."""
    return " ".join(command_line_words(message).splitlines())
