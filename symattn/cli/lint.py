"""The arguments of the two linters, ``check`` and ``audit``, declared without importing them.

``symattn check --help`` (and a pre-commit run of one file) must start like a linter: this
module imports nothing but :mod:`argparse` and the language table; the commands themselves
(:mod:`symattn.cli.check`, :mod:`symattn.cli.audit`) are imported only when they run.
Every option here can also be set in ``[tool.symattn]`` (see :mod:`symattn.cli.settings`).
"""

from __future__ import annotations

import argparse

from symattn.config import LANGS

#: report formats of both linters
FORMATS: tuple[str, ...] = ("text", "markdown", "json", "sarif", "github")
#: the rounding modes ``--rounding`` accepts (tested equal to :class:`Rounding`'s values;
#: written out here so that ``--help`` does not load the number layer)
ROUNDING_MODES: tuple[str, ...] = ("half-up", "half-down", "half-even", "truncate")
#: when to colour the text report
COLOR_CHOICES: tuple[str, ...] = ("auto", "always", "never")

CHECK_EPILOG = """examples:
  symattn check docs/examples/thinking_machines.toml
  symattn check docs/examples/*.toml --format github
  symattn check docs/examples/animal_street.toml --format markdown --lang zh -o errata.md
  symattn check notebook.toml --format sarif -o symattn.sarif
  symattn check spec.toml --ignore precision-mixed --select error

A claim is judged against the exact value rounded to its written decimals, then in the
frames that explain it without an error: a float printout (`precision`, or 6+ significant
digits: a rigorous error bound of the computation in float32/float64/...), unrounded inputs
(`rounded_inputs`), the author's own earlier numbers, the author's divisor. Exit code 1 when
a finding of severity error remains (or the judged share is below --fail-under). Options can
be set in [tool.symattn] of pyproject.toml or in symattn.toml. See docs/check.md, docs/ci.md."""

AUDIT_EPILOG = """examples:
  symattn audit post.md
  symattn audit notes/ --format json -o audit.json
  symattn audit chapter.tex --format markdown --lang zh -o errata.md
  symattn audit notes/ --format github
  cat post.txt | symattn audit -
  symattn audit post.md --emit-spec specs/ && symattn check specs/post.1.toml

Every number of the text is accounted for: judged (checked exactly), read (understood but
not judged: the report says why), or not read (prose, code that is not attention). A number
rounded on purpose is silenced in place: <!-- symattn: ignore[truncated] --> (Markdown),
% symattn: ignore (LaTeX), # symattn: ignore (code). The exit code is 1 when an error is
found, 0 otherwise, 2 for a usage error. See docs/audit.md and docs/ci.md."""


def add_check_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``check``."""
    p.epilog = CHECK_EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument(
        "specs", nargs="+", metavar="SPEC", help="spec files with claims (.toml or .json)"
    )
    p.add_argument(
        "--rounding",
        choices=ROUNDING_MODES,
        action="append",
        metavar="MODE",
        help=(
            f"accepted rounding mode, repeatable ({', '.join(ROUNDING_MODES)}; "
            "default half-up and half-down)"
        ),
    )
    _add_common(p, language="report language (default: the spec's)")


def add_audit_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``audit``."""
    p.epilog = AUDIT_EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="files or directories (*.md *.tex *.txt); - for stdin",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="audit in N processes; used only for runs long enough to pay for the processes "
        "(default 1: serial)",
    )
    p.add_argument(
        "--emit-spec",
        metavar="DIR",
        default=None,
        help="write each attention problem the audit read as a spec that `symattn check` "
        "runs (DIR/<file>.<n>.toml; what was inferred rather than read is said in each)",
    )
    _add_common(p, language="language of the messages (default: the texts' language)")


def _add_common(p: argparse.ArgumentParser, *, language: str) -> None:
    """The options both linters share."""
    p.add_argument("--format", choices=FORMATS, default="text", help="report format")
    p.add_argument("--lang", choices=LANGS, default=None, help=language)
    p.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE (atomically)")
    p.add_argument(
        "--select",
        action="append",
        metavar="CODE",
        help="report only these codes or severities (error, warning, info); comma-separated, "
        "repeatable",
    )
    p.add_argument(
        "--ignore",
        action="append",
        metavar="CODE",
        help="do not report these codes or severities (counted in the summary)",
    )
    p.add_argument(
        "--show-suppressed",
        action="store_true",
        default=None,
        help="also list the findings silenced by an inline 'symattn: ignore' comment",
    )
    p.add_argument(
        "--fail-under",
        type=_percent,
        default=None,
        metavar="PCT",
        help="exit 1 when fewer than PCT percent of the claims could be judged",
    )
    p.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default=None,
        help="colour the text report (auto: on a terminal, unless NO_COLOR is set)",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="read options from FILE (symattn.toml or pyproject.toml) instead of the one found "
        "from the current folder upwards",
    )
    p.add_argument("--no-config", action="store_true", help="read no configuration file")


def _percent(text: str) -> float:
    """``PCT`` of ``--fail-under``: a number from 0 to 100."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a percentage 0-100, got {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"expected a percentage 0-100, got {text!r}")
    return value
