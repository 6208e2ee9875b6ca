"""The ``symattn`` command line: one subcommand per module in :mod:`symattn.cli`.

Every error a user can cause ends as one line on stderr and exit code 2; a finding of
severity error (``check``, ``audit``) is exit code 1; success is 0. Everything a command
prints goes through :func:`symattn.cli.output.safe_streams` (no terminal escapes from input
reach a terminal); ``-o FILE`` is written by :mod:`symattn.cli.output`, and
``--follow-symlinks`` is decided here, once, for every command that has ``-o``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import NoReturn

from symattn.cli import audit, check, compute, explain, reference
from symattn.cli.options import command_line_words, parse_limit
from symattn.cli.output import Terminated, end_by_signal, safe_streams
from symattn.errors import SymattnError
from symattn.version import __version__

#: the subcommands in help order; each module defines ``HELP`` (one line),
#: ``add_arguments(parser)`` and ``run(args) -> int``
COMMANDS: Mapping[str, ModuleType] = MappingProxyType(
    {"compute": compute, "explain": explain, "check": check, "audit": audit, "reference": reference}
)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors say the program name and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every subcommand."""
    parser = _Parser(
        prog="symattn",
        description=(
            "Transformer attention with exact and certified numbers: compute, explain, check."
        ),
    )
    parser.add_argument("--version", action="version", version=f"symattn {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, module in COMMANDS.items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        p.add_argument(
            "--limit",
            action="append",
            type=parse_limit,
            metavar="NAME=N",
            help="raise or lower a safety limit (see docs/security.md), e.g. max_elements=10000000",
        )
        module.add_arguments(p)
        if _has_output(p):
            p.add_argument(
                "--follow-symlinks",
                action="store_true",
                help="if -o FILE is a symbolic link, replace the file it points to "
                "(without this, a link is refused)",
            )
        p.set_defaults(_run=module.run)
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
    parser = build_parser()
    with safe_streams():
        args = parser.parse_args(argv)
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Run the command; every error becomes one line on stderr."""
    try:
        _resolve_output(args)
        return int(args._run(args))
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
