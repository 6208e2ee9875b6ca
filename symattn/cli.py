"""The ``symattn`` command line: one subcommand per module in :mod:`symattn.commands`.

Every error a user can cause ends as one line on stderr and exit code 2; a finding of
severity error (``check``, ``audit``) is exit code 1; success is 0.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence
from dataclasses import fields, replace

from . import __version__
from .config import DEFAULT_LIMITS, Limits
from .errors import SymattnError

#: subcommand modules under ``symattn.commands``, in help order; each defines
#: ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``
COMMANDS: tuple[str, ...] = ("compute", "explain", "check", "audit", "reference")

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors say the program name and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def parse_limit(text: str) -> tuple[str, int]:
    """``NAME=VALUE`` for ``--limit``."""
    names = {f.name for f in fields(Limits)}
    name, sep, value = text.partition("=")
    if not sep or name not in names:
        raise argparse.ArgumentTypeError(f"expected NAME=N with NAME one of {', '.join(sorted(names))}")
    if not value.isdigit() or len(value) > 12:
        raise argparse.ArgumentTypeError(f"{name}: expected a positive whole number, got {value!r}")
    return name, int(value)


def limits_from(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` the command line asked for."""
    pairs = dict(getattr(args, "limit", None) or [])
    return replace(DEFAULT_LIMITS, **pairs) if pairs else DEFAULT_LIMITS


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every subcommand."""
    parser = _Parser(
        prog="symattn",
        description="Transformer attention with exact and certified numbers: compute, explain, check.",
    )
    parser.add_argument("--version", action="version", version=f"symattn {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f".commands.{name}", __package__)
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        p.add_argument(
            "--limit",
            action="append",
            type=parse_limit,
            metavar="NAME=N",
            help="raise or lower a safety limit (see docs/security.md), e.g. max_elements=10000000",
        )
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args))
    except SymattnError as e:
        # the library says Limits(NAME=...); on the command line that is --limit NAME=N
        message = re.sub(r"\bLimits\((\w+)=\.\.\.\)", r"--limit \1=N", str(e)).replace("\n", " ")
        print(f"symattn {args.command}: error: {message}", file=sys.stderr)
        return EXIT_USAGE
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
