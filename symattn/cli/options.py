"""Options shared by every command: ``--limit NAME=N``."""

from __future__ import annotations

import argparse
import re
from dataclasses import fields, replace

from symattn.config import DEFAULT_LIMITS, Limits


def parse_limit(text: str) -> tuple[str, int]:
    """``NAME=VALUE`` for ``--limit``."""
    names = {f.name for f in fields(Limits)}
    name, sep, value = text.partition("=")
    if not sep or name not in names:
        raise argparse.ArgumentTypeError(
            f"expected NAME=N with NAME one of {', '.join(sorted(names))}"
        )
    if not value.isdigit() or len(value) > 12:
        raise argparse.ArgumentTypeError(f"{name}: expected a positive whole number, got {value!r}")
    return name, int(value)


def limits_from(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` the command line asked for."""
    pairs = dict(getattr(args, "limit", None) or [])
    return replace(DEFAULT_LIMITS, **pairs) if pairs else DEFAULT_LIMITS


_API_LIMIT = re.compile(r"\bLimits\((\w+)=\.\.\.\)")


def command_line_words(message: str) -> str:
    """``message`` with ``Limits(NAME=...)`` (how the API raises a limit) said the command
    line's way, ``--limit NAME=N``."""
    return _API_LIMIT.sub(r"--limit \1=N", message)
