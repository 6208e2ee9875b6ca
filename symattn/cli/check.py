"""``symattn check SPEC``: judge the numbers an author claims against the exact computation."""

from __future__ import annotations

import argparse
import json
import sys

from symattn.cli.options import limits_from
from symattn.cli.output import write_text_atomic
from symattn.config import LANGS
from symattn.errors import InputError
from symattn.judge.check import check
from symattn.numbers.rounding import Rounding
from symattn.present.reports import check_json, check_markdown, check_text
from symattn.spec import load_spec

HELP = "check the numbers a spec's author claims: one finding per wrong or doubtful number"

_MODES = tuple(m.value for m in Rounding)

EPILOG = """examples:
  symattn check docs/examples/thinking_machines.toml
  symattn check docs/examples/animal_street.toml --format markdown --lang zh -o errata.md
  symattn check notebook.toml --format json

A claim is judged against the exact value rounded to its written decimals, then in the
frames that explain it without an error: a float printout (`precision`, or 6+ significant
digits: a rigorous error bound of the computation in float32/float64/...), unrounded inputs
(`rounded_inputs`), the author's own earlier numbers, the author's divisor. Exit code 1 when
a finding of severity error remains. See docs/check.md and docs/spec.md."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``check``."""
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("spec", help="spec file with claims (.toml or .json); see docs/spec.md")
    p.add_argument(
        "--format", choices=("text", "markdown", "json"), default="text", help="report format"
    )
    p.add_argument(
        "--lang", choices=LANGS, default=None, help="report language (default: the spec's)"
    )
    p.add_argument(
        "--rounding",
        choices=_MODES,
        action="append",
        metavar="MODE",
        help=(
            f"accepted rounding mode, repeatable ({', '.join(_MODES)}; "
            "default half-up and half-down)"
        ),
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE (atomically)")


def run(args: argparse.Namespace) -> int:
    """Run ``check``: exit 0 when nothing is wrong, 1 when a finding of severity error exists."""
    limits = limits_from(args)
    spec = load_spec(args.spec, limits=limits)
    lang = args.lang or (spec.lang if spec.lang in LANGS else "en")
    modes = args.rounding or ["half-up", "half-down"]
    try:
        accepted = frozenset(Rounding.parse(m) for m in modes)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    report = check(spec, accepted=accepted, limits=limits)
    if args.format == "json":
        text = json.dumps(check_json(report, lang), ensure_ascii=False, indent=1) + "\n"
    elif args.format == "markdown":
        text = check_markdown(report, lang, spec.title)
    else:
        text = check_text(report, lang)
    if args.output:
        write_text_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 1 if report.has_errors else 0
