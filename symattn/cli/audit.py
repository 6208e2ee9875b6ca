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

from symattn.cli.lintrun import finish, refuse_output_over_input, selectors
from symattn.cli.options import command_line_words, limits_from
from symattn.cli.progress import progress_display
from symattn.config import Limits
from symattn.errors import InputError
from symattn.io import read_text
from symattn.judge.findings import Message
from symattn.present.outcome import suppressions, text_outcome
from symattn.present.reports import audit_json, audit_markdown, audit_text
from symattn.read.audit import AuditReport, audit
from symattn.read.emit import write_specs
from symattn.read.messages import not_checked

#: file name endings read when a directory is given
SUFFIXES: tuple[str, ...] = (".md", ".tex", ".txt", ".markdown")
#: a run of fewer files is always serial: a process pool costs more than it saves
POOL_FROM = 16


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


def _audit_file(path: str, limits: Limits) -> tuple[AuditReport, str]:
    text = read_text(path, limits=limits)
    return audit(text, path="<stdin>" if path == "-" else path, limits=limits), text


def pool_size(jobs: int, files: int) -> int:
    """How many processes pay for ``--jobs N`` on ``files`` files: 1 (serial) for a short
    run, and never more than the cores that are idle (a pool on busy cores only adds its own
    cost: on 50 files, 2 processes on 2 busy cores took 17.3 s against 14.9 s serial)."""
    if jobs < 2 or files < POOL_FROM:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    busy = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    idle = int((cores or 1) - busy + 0.5)
    return max(1, min(jobs, idle, files))


def _reports(files: list[str], limits: Limits, jobs: int) -> Iterator[tuple[AuditReport, str]]:
    workers = 1 if "-" in files else pool_size(jobs, len(files))
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            chunk = max(1, len(files) // (4 * workers))
            yield from pool.map(_audit_file, files, [limits] * len(files), chunksize=chunk)
    else:
        for f in files:
            yield _audit_file(f, limits)


def _command_line_reasons(report: AuditReport) -> AuditReport:
    """The report with each "not checked" reason naming limits as ``--limit NAME=N``."""
    unparsed = tuple(replace(u, reason=command_line_reason(u.reason)) for u in report.unparsed)
    return replace(report, unparsed=unparsed)


def command_line_reason(reason: Message) -> Message:
    """``reason`` saying how to raise a limit the command line's way.

    A change of parameters, not of text: a reason is typed until present/ renders it in the
    report's language, so "raise it with ``Limits(NAME=...)``" (``[unchecked] raise-api``,
    nested in a ``limit`` reason) becomes ``[unchecked] raise-cli`` (``--limit NAME=N``),
    which each catalog says in its own words. Rewriting rendered text instead would tie the
    command line to the English of one catalog. Only the text of an error from a layer below
    read/ (``[unchecked] error``, its ``detail``) is text already: it is reworded as
    :func:`~symattn.cli.options.command_line_words` rewords every error the CLI prints.
    """
    if reason.section == "unchecked" and reason.key == "raise-api":
        return not_checked("raise-cli", **reason.params)
    params: dict[str, object] = {}
    for name, value in reason.params.items():
        if isinstance(value, Message):
            value = command_line_reason(value)
        elif reason.key == "error" and isinstance(value, str):
            value = command_line_words(value)
        params[name] = value
    return replace(reason, params=params)


def _language(reports: list[AuditReport]) -> str:
    """The language the texts are written in (English when they differ)."""
    langs = {r.lang for r in reports}
    return langs.pop() if len(langs) == 1 else "en"


def run(args: argparse.Namespace) -> int:
    """Run ``audit``."""
    limits = limits_from(args)
    jobs = 1 if args.jobs is None else args.jobs
    if not 1 <= jobs <= 256:
        raise InputError(f"--jobs {jobs}: choose between 1 and 256")
    files = expand(args.files)
    if not files:
        raise InputError("no *.md, *.tex or *.txt files found")
    refuse_output_over_input(args.output, files)
    select, ignore = selectors(args)
    audited = []
    with progress_display(len(files), "audit") as step:
        for r, text in _reports(files, limits, jobs):
            r = _command_line_reasons(r)
            audited.append((r, text_outcome(r, suppressions(text), select, ignore)))
            step()
    outcomes = [o for _, o in audited]
    lang = args.lang or _language([r for r, _ in audited])

    def render(fmt: str) -> str:
        if fmt == "json":
            return json.dumps(audit_json(audited, lang), ensure_ascii=False, indent=1) + "\n"
        if fmt == "markdown":
            return audit_markdown(audited, lang)
        return audit_text(audited, lang, show_suppressed=bool(args.show_suppressed))

    if args.emit_spec is not None:
        _emit([r for r, _ in audited], Path(args.emit_spec))
    return finish(args, outcomes, lang, render)


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
