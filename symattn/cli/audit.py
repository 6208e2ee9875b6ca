"""``symattn audit FILE...``: find the wrong numbers in posts and chapters as they are."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from symattn.cli.options import command_line_words, limits_from
from symattn.config import LANGS, Limits
from symattn.errors import InputError
from symattn.io import read_text
from symattn.present.reports import audit_json, audit_markdown, audit_text
from symattn.read.audit import AuditReport, audit
from symattn.read.emit import write_specs

HELP = "find the wrong numbers in a worked example (Markdown, LaTeX or plain text) as it is"

#: file name endings read when a directory is given
SUFFIXES: tuple[str, ...] = (".md", ".tex", ".txt", ".markdown")
#: more files than this show a progress line on a terminal
_PROGRESS_FROM = 4


EPILOG = """examples:
  symattn audit post.md
  symattn audit notes/ --format json > audit.json
  symattn audit chapter.tex --format markdown --lang zh > errata.md
  cat post.txt | symattn audit -
  symattn audit post.md --emit-spec specs/ && symattn check specs/post.1.toml

Every number of the text is accounted for: judged (checked exactly), read (understood but
not judged: the report says why), or not read (prose, code that is not attention). The exit
code is 1 when an error is found, 0 otherwise, 2 for a usage error. See docs/audit.md."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``audit``."""
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
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
        "--lang",
        choices=LANGS,
        default=None,
        help="language of the messages (default: the language the texts are written in)",
    )
    p.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="audit N files in parallel (default 1)"
    )
    p.add_argument(
        "--emit-spec",
        metavar="DIR",
        default=None,
        help="write each attention problem the audit read as a spec that `symattn check` "
        "runs (DIR/<file>.<n>.toml; what was inferred rather than read is said in each)",
    )


def expand(paths: list[str]) -> list[str]:
    """Files named, and the *.md/*.tex/*.txt files under named directories, in order.

    Inside a directory, links are followed only when they stay inside it: a link to a
    directory is not entered, and a link to a file elsewhere (``notes.md -> ~/secret.env``)
    is not read.
    """
    out: list[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            out.extend(_files_under(p))
        else:
            out.append(p)
    return out


def _files_under(top: str) -> list[str]:
    root = os.path.realpath(top)
    found = []
    for folder, dirs, files in os.walk(top, followlinks=False):
        dirs.sort()
        for name in files:
            path = os.path.join(folder, name)
            if Path(name).suffix.lower() not in SUFFIXES:
                continue
            real = os.path.realpath(path)
            if os.path.commonpath([root, real]) != root or not os.path.isfile(real):
                continue  # a link out of the tree (or to nothing): not read
            found.append(path)
    return sorted(found)


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


def _command_line_reasons(report: AuditReport) -> AuditReport:
    """The report with each "not checked" reason naming limits as ``--limit NAME=N``."""
    unparsed = tuple(replace(u, reason=command_line_words(u.reason)) for u in report.unparsed)
    return replace(report, unparsed=unparsed)


def _language(reports: list[AuditReport]) -> str:
    """The language the texts are written in (English when they differ)."""
    langs = {r.lang for r in reports}
    return langs.pop() if len(langs) == 1 else "en"


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
    reports = [_command_line_reasons(r) for r in reports]
    lang = args.lang or _language(reports)
    if args.format == "json":
        text = json.dumps(audit_json(reports, lang), ensure_ascii=False, indent=1) + "\n"
    elif args.format == "markdown":
        text = audit_markdown(reports, lang)
    else:
        text = audit_text(reports, lang)
    sys.stdout.write(text)
    if args.emit_spec is not None:
        _emit(reports, Path(args.emit_spec))
    return 1 if any(r.has_errors for r in reports) else 0


def _emit(reports: list[AuditReport], directory: Path) -> None:
    """Write every report's specs into ``directory``; say on stderr where each one is."""
    names: set[str] = set()
    written = 0
    for r in reports:
        specs = []
        for s in r.specs:
            name, n = s.name, 1
            while name in names:  # (two files of the same name in different folders)
                n += 1
                name = s.name.removesuffix(".toml") + f"-{n}.toml"
            names.add(name)
            specs.append(replace(s, name=name))
        for path, s in zip(write_specs(specs, directory), specs, strict=True):
            inferred = sum(line.startswith("# Inferred:") for line in s.toml.splitlines())
            note = f" ({inferred} inferred item(s) said in its header)" if inferred else ""
            print(f"audit: {r.path}: wrote {path}{note}", file=sys.stderr)
            written += 1
        if not r.specs:
            print(f"audit: {r.path}: no attention problem to write as a spec", file=sys.stderr)
    print(f"audit: {written} spec(s) in {directory}", file=sys.stderr)
