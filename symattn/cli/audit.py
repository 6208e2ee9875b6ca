"""``symattn audit FILE...``: find the wrong numbers in posts and chapters as they are."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from symattn.cli.options import limits_from
from symattn.config import LANGS, Limits
from symattn.errors import InputError
from symattn.io import read_text
from symattn.present.reports import audit_json, audit_markdown, audit_text
from symattn.read.audit import AuditReport, audit

HELP = "find the wrong numbers in a worked example (Markdown, LaTeX or plain text) as it is"

#: file name endings read when a directory is given
SUFFIXES: tuple[str, ...] = (".md", ".tex", ".txt", ".markdown")
#: more files than this show a progress line on a terminal
_PROGRESS_FROM = 4


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``audit``."""
    p.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="files or directories (*.md *.tex *.txt); - for stdin",
    )
    p.add_argument(
        "--format",
        choices=("text", "json", "markdown"),
        default="text",
        help="output format (default text)",
    )
    p.add_argument(
        "--lang", choices=LANGS, default="en", help="language of the messages (default en)"
    )
    p.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="audit N files in parallel (default 1)"
    )


def expand(paths: list[str]) -> list[str]:
    """Files named, and the *.md/*.tex/*.txt files under named directories, in order."""
    out: list[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            found = sorted(
                str(f) for f in Path(p).rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES
            )
            out.extend(found)
        else:
            out.append(p)
    return out


def _audit_file(path: str, limits: Limits) -> AuditReport:
    return audit(
        read_text(path, limits=limits), path="<stdin>" if path == "-" else path, limits=limits
    )


def _reports(files: list[str], limits: Limits, jobs: int) -> Iterator[AuditReport]:
    if jobs > 1 and len(files) > 1 and "-" not in files:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            yield from pool.map(_audit_file, files, [limits] * len(files))
    else:
        for f in files:
            yield _audit_file(f, limits)


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
    for i, r in enumerate(_reports(files, limits, args.jobs), start=1):
        reports.append(r)
        if progress:
            print(f"\raudit: {i}/{len(files)} files", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    if args.format == "json":
        text = json.dumps(audit_json(reports, args.lang), ensure_ascii=False, indent=1) + "\n"
    elif args.format == "markdown":
        text = audit_markdown(reports, args.lang)
    else:
        text = audit_text(reports, args.lang)
    sys.stdout.write(text)
    return 1 if any(r.has_errors for r in reports) else 0
