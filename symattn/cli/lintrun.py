"""What ``check`` and ``audit`` share once their files are judged: selection, the report in
the format asked for, colour, ``-o``, and the exit code.

- ``-o FILE`` naming one of the run's inputs is refused (the input would be replaced).
- Colour (text format only, on stdout): ``--color always``/``never``; ``auto`` colours a
  terminal unless ``NO_COLOR`` is set (https://no-color.org), and ``FORCE_COLOR`` colours
  any stream. User text is filtered for a terminal first, so only our own codes remain.
- Exit code: 1 when a reported finding is of severity error, or when ``--fail-under PCT``
  is given and the judged share of all claims (judged / claims, as coverage tools measure)
  is below PCT; else 0. Suppressed and deselected findings never decide it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence

from symattn.cli.output import raw_stream, terminal_text, write_text_atomic
from symattn.errors import InputError
from symattn.judge.codes import SEVERITY
from symattn.present.github import github
from symattn.present.outcome import FileOutcome, judged_share, parse_selectors
from symattn.present.sarif import sarif

#: severity word in a text line -> ANSI colour
_COLOURS = {"error": "31", "warning": "33", "info": "36"}


def refuse_output_over_input(output: str | None, inputs: Sequence[str]) -> None:
    """``-o FILE`` that names an input: one line, exit 2 (the input would be lost)."""
    if not output:
        return
    for path in inputs:
        if path != "-" and _same_file(output, path):
            raise InputError(f"-o {output}: that is an input file; choose another output file")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def selectors(args: argparse.Namespace) -> tuple[frozenset[str], frozenset[str]]:
    """``--select`` and ``--ignore`` as sets of codes and severities."""
    return parse_selectors(args.select, "--select"), parse_selectors(args.ignore, "--ignore")


def colour_wanted(choice: str | None, isatty: bool) -> bool:
    """Whether to colour (see the module doc)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return isatty


_LINE = re.compile(r"^(.*?:\d+:\d+: |[^:\n]*: )(\[[^\]\n]*\] )?([a-z-]+)(?= )", re.MULTILINE)


def colour(text: str, severities: dict[str, str]) -> str:
    """``text`` (already safe for a terminal) with each finding's code in its severity's colour."""

    def paint(m: re.Match[str]) -> str:
        sev = severities.get(m.group(3))
        if sev is None or m.group(2):
            return m.group(0)
        return f"{m.group(1)}\x1b[{_COLOURS[sev]}m{m.group(3)}\x1b[0m"

    return _LINE.sub(paint, text)


def finish(
    args: argparse.Namespace,
    outcomes: Sequence[FileOutcome],
    lang: str,
    render: Callable[[str], str],
) -> int:
    """Write the report (``render(fmt)`` for text, markdown and json) and return the exit code."""
    fmt = args.format
    if fmt == "sarif":
        text = json.dumps(sarif(outcomes, lang), ensure_ascii=False, indent=1) + "\n"
    elif fmt == "github":
        text = github(outcomes, lang)
    else:
        text = render(fmt)
    if args.output:
        write_text_atomic(args.output, text)
    else:
        _print(text, args.color if fmt == "text" else "never")
    code = 1 if any(o.has_errors for o in outcomes) else 0
    if args.fail_under is not None:
        share = judged_share(outcomes)
        if share < args.fail_under:
            print(
                f"symattn {args.command}: judged {share:.1f}% of the claims, "
                f"below --fail-under {args.fail_under:g}",
                file=sys.stderr,
            )
            code = 1
    return code


def _print(text: str, choice: str | None) -> None:
    out = raw_stream(sys.stdout)
    if not colour_wanted(choice, _isatty(out)):
        sys.stdout.write(text)
        return
    out.write(colour(terminal_text(text), dict(SEVERITY)))


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False
