"""``symattn check SPEC...``: judge the numbers an author claims against the exact computation.

Each finding is reported at the ``line:column`` of its claim in the spec (found by
:mod:`symattn.spec.positions`); a ``# symattn: ignore[...]`` comment in a TOML spec silences
it there (see :mod:`symattn.present.outcome`). Arguments: :mod:`symattn.cli.lint`.
"""

from __future__ import annotations

import argparse
import json
import os

from symattn.cli.lintrun import finish, refuse_output_over_input, selectors
from symattn.cli.options import limits_from
from symattn.config import LANGS, Limits
from symattn.errors import InputError
from symattn.io import read_text
from symattn.judge.check import CheckReport, check
from symattn.judge.findings import Finding
from symattn.numbers.rounding import Rounding
from symattn.present.outcome import FileOutcome, Placed, check_outcome, suppressions
from symattn.present.reports import check_json, check_markdown, check_text, position_text
from symattn.spec import Spec, load_spec
from symattn.spec.positions import Positions, claim_path, positions


def run(args: argparse.Namespace) -> int:
    """Run ``check``: exit 0 when nothing is wrong, 1 when a finding of severity error exists."""
    limits = limits_from(args)
    refuse_output_over_input(args.output, args.specs)
    modes = args.rounding or ["half-up", "half-down"]
    try:
        accepted = frozenset(Rounding.parse(m) for m in modes)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    select, ignore = selectors(args)
    outcomes, titles, langs = [], [], set()
    for path in args.specs:
        spec = load_spec(path, limits=limits)
        report = check(spec, accepted=accepted, limits=limits)
        outcomes.append(spec_outcome(spec, report, path, limits, select, ignore))
        titles.append(spec.title)
        langs.add(spec.lang if spec.lang in LANGS else "en")
    lang = args.lang or (langs.pop() if len(langs) == 1 else "en")

    def render(fmt: str) -> str:
        if fmt == "json":
            return json.dumps(check_json(outcomes, lang), ensure_ascii=False, indent=1) + "\n"
        if fmt == "markdown":
            return check_markdown(outcomes, lang, titles)
        return check_text(outcomes, lang, show_suppressed=bool(args.show_suppressed))

    return finish(args, outcomes, lang, render)


def spec_outcome(
    spec: Spec,
    report: CheckReport,
    path: str,
    limits: Limits,
    select: frozenset[str],
    ignore: frozenset[str],
) -> FileOutcome:
    """The report of one spec with each finding at its claim's line and column."""
    text = read_text(path, limits=limits)
    where = positions(text, os.path.splitext(path)[1])
    placed = [_placed(f, where, spec.tokens) for f in report.findings]
    return check_outcome(report, placed, suppressions(text), select, ignore)


def _placed(f: Finding, where: Positions, tokens: tuple[str, ...]) -> Placed:
    line, column = next(
        (where[p] for p in claim_path(f.step, f.position, tokens) if p in where), (0, 0)
    )
    return Placed(f, line, column, position_text(f))
