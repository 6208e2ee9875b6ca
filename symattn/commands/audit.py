"""``symattn audit FILE...``: find the wrong numbers in posts and chapters as they are."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..audit import AuditReport, audit, messages
from ..cli import limits_from
from ..config import Limits
from ..errors import InputError
from ..io import read_text
from ..render import render_report

HELP = "find the wrong numbers in a worked example (Markdown, LaTeX or plain text) as it is"

#: file name endings read when a directory is given
SUFFIXES: tuple[str, ...] = (".md", ".tex", ".txt", ".markdown")
#: more files than this show a progress line on a terminal
_PROGRESS_FROM = 4


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``audit``."""
    p.add_argument("files", nargs="+", metavar="FILE", help="files or directories (*.md *.tex *.txt); - for stdin")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="output format (default text)")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the messages (default en)")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="audit N files in parallel (default 1)")


def expand(paths: list[str]) -> list[str]:
    """Files named, and the *.md/*.tex/*.txt files under named directories, in order."""
    out: list[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            found = sorted(str(f) for f in Path(p).rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES)
            out.extend(found)
        else:
            out.append(p)
    return out


def _audit_file(path: str, lang: str, limits: Limits) -> AuditReport:
    return audit(read_text(path, limits=limits), path="<stdin>" if path == "-" else path, lang=lang, limits=limits)


def _reports(files: list[str], lang: str, limits: Limits, jobs: int) -> Iterator[AuditReport]:
    if jobs > 1 and len(files) > 1 and "-" not in files:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            yield from pool.map(_audit_file, files, [lang] * len(files), [limits] * len(files))
    else:
        for f in files:
            yield _audit_file(f, lang, limits)


def render_text(reports: list[AuditReport], lang: str = "en") -> str:
    """Linter lines ``FILE:LINE:COL: CODE claimed X, exact Y — reason`` (no ``exact`` when there is
    none, as for ``precision-mixed``) and a summary per file."""
    lines = []
    for r in reports:
        for f in r.findings:
            exact = f", exact {f.exact}" if f.exact else ""
            lines.append(f"{r.path}:{f.line}:{f.column}: {f.code} claimed {f.claimed}{exact} — {f.message}")
        for u in r.unparsed:
            lines.append(f"{r.path}:{u.line}: not checked: {u.text[:80]} ({u.reason})")
        if r.recognised is not None:
            lines.append(f"{r.path}: recognised {r.recognised.describe(lang)}")
        lines.append(f"{r.path}: {len(r.findings)} finding(s), {r.checked} claim(s) checked, {len(r.unparsed)} not checked")
    return "\n".join(lines) + "\n"


def render_markdown(reports: list[AuditReport], lang: str) -> str:
    """The errata page, through ``templates/markdown/audit_report.md.j2``."""
    cat = messages(lang)
    files = [
        {
            "path": r.path,
            "summary": cat["report_summary"].format(
                checked=r.checked, findings=len(r.findings), unparsed=len(r.unparsed)
            ),
            "recognised": (
                cat["report_recognised"].format(what=r.recognised.describe(lang)) if r.recognised else ""
            ),
            "findings": r.findings,
            "unparsed": [(cat["report_line"].format(line=u.line), u.text, u.reason) for u in r.unparsed],
        }
        for r in reports
    ]
    return render_report("audit_report", lang, files=files, cat=cat)


def run(args: argparse.Namespace) -> int:
    """Run ``audit``."""
    limits = limits_from(args)
    if not 1 <= args.jobs <= 256:
        raise InputError(f"--jobs {args.jobs}: choose between 1 and 256")
    files = expand(args.files)
    if not files:
        raise InputError("no *.md, *.tex or *.txt files found")
    progress = len(files) >= _PROGRESS_FROM and sys.stderr.isatty()
    reports = []
    for i, r in enumerate(_reports(files, args.lang, limits, args.jobs), start=1):
        reports.append(r)
        if progress:
            print(f"\raudit: {i}/{len(files)} files", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    if args.format == "json":
        text = json.dumps({"files": [r.to_json() for r in reports]}, ensure_ascii=False, indent=1) + "\n"
    elif args.format == "markdown":
        text = render_markdown(reports, args.lang)
    else:
        text = render_text(reports, args.lang)
    sys.stdout.write(text)
    return 1 if any(r.has_errors for r in reports) else 0
