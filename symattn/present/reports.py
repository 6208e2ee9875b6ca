"""Reports of ``check`` and ``audit``: text (linter lines), JSON and Markdown.

Pure functions of the typed reports: the words come from the catalog of the language asked
for (:mod:`symattn.present.messages`), the Markdown through the one jinja2 environment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from symattn.judge.check import CheckReport
from symattn.judge.findings import Finding, Message
from symattn.present.keys import (
    AUDIT_REPORT_TEXTS,
    AUDIT_SOURCES,
    CHECK_REPORT_TEXTS,
    NOT_CHECKED_GROUPS,
    REPORT_TEXTS,
    lookup,
)
from symattn.present.messages import Catalog, catalog, load_messages, say
from symattn.present.outcome import (
    FileOutcome,
    Placed,
    check_outcome,
    spec_position,
    text_outcome,
)
from symattn.present.render import render_report
from symattn.read.audit import AuditReport, Recognised, Unparsed

# --------------------------------------------------------------------------- findings


def message(finding: Finding, lang: str = "en") -> str:
    """The finding's one-sentence reason in ``lang``."""
    return say(finding.message, load_messages(lang))


#: ``step[row,col]`` of a spec finding, indexes from 0 (as docs/spec.md counts)
position_text = spec_position

#: what the check reports accept: the outcomes of a run, or one plain report
Checked = Sequence[FileOutcome] | CheckReport


def _check_outcomes(checked: Checked) -> Sequence[FileOutcome]:
    return [check_outcome(checked)] if isinstance(checked, CheckReport) else checked


def _report_texts(lang: str) -> Catalog:
    """The ``[report]`` entries: the words around the findings."""
    return catalog(lang, "report", keys=REPORT_TEXTS)


# --------------------------------------------------------------------------- check


def _check_texts(lang: str) -> Catalog:
    """The ``[check]`` entries the check reports print around the findings."""
    return catalog(lang, "check", keys=CHECK_REPORT_TEXTS)


def _audit_texts(lang: str) -> Catalog:
    """The ``[audit]`` entries the audit reports print around the findings."""
    return catalog(lang, "audit", keys=AUDIT_REPORT_TEXTS)


def summary_text(o: FileOutcome, lang: str = "en") -> str:
    """What was judged, what could not be checked and why, the findings by severity, and
    what was suppressed or left out, in ``lang``."""
    words = _report_texts(lang)
    why = ", ".join(
        f"{words[lookup(NOT_CHECKED_GROUPS, code, 'not-checked group')]}: {n}"
        for code, n in sorted(o.not_checked.items())
    )
    not_checked = words["lint_not_checked"].format(n=o.not_checked_total, reasons=why)
    text = words["lint_summary"].format(
        claims=o.claims,
        judged=o.judged,
        not_checked=not_checked if o.not_checked_total else "",
        errors=o.count("error"),
        warnings=o.count("warning"),
        notes=o.count("info"),
    )
    if o.suppressed:
        text += " " + words["lint_suppressed"].format(n=len(o.suppressed))
    if o.deselected:
        text += " " + words["lint_deselected"].format(n=o.deselected)
    return text


def total(outcomes: Sequence[FileOutcome]) -> FileOutcome:
    """The grand total over several files (one outcome whose path is empty)."""
    not_checked: dict[str, int] = {}
    for o in outcomes:
        for code, n in o.not_checked.items():
            not_checked[code] = not_checked.get(code, 0) + n
    return FileOutcome(
        "",
        tuple(p for o in outcomes for p in o.reported),
        tuple(p for o in outcomes for p in o.suppressed),
        sum(o.deselected for o in outcomes),
        sum(o.claims for o in outcomes),
        sum(o.judged for o in outcomes),
        MappingProxyType(not_checked),
    )


def total_text(outcomes: Sequence[FileOutcome], lang: str = "en") -> str:
    """``Total over N files: <summary>`` (empty for one file)."""
    if len(outcomes) < 2:
        return ""
    words = _report_texts(lang)
    return words["lint_total"].format(
        files=len(outcomes), summary=summary_text(total(outcomes), lang)
    )


def exact_words(f: Finding, lang: str = "en") -> str:
    """``exact 3.31229…`` and which problem that exact value is of: the author's, when the
    claim was judged in the author's frame (the author's divisor), and the text's problem
    number, when the text holds more than one."""
    words = _report_texts(lang)
    text = f"{words['exact']} {f.exact_text}"
    if f.frame is not None:
        text += " " + words["exact_of_author"].format(d_k=f.frame)
    if f.problem is not None:
        text += " " + problem_words(f.problem, lang)
    return text


def problem_words(n: int, lang: str = "en") -> str:
    """``(problem N of the text)``: which of a text's attention problems (findings and the
    recognised problems say it alike)."""
    return _report_texts(lang)["exact_of_problem"].format(n=n)


def claim_words(f: Finding, lang: str = "en") -> str:
    """``X, exact Y`` of a finding; where it has no exact value, ``X`` and its problem."""
    if f.exact:
        return f"{_one_line(f.claimed)}, {exact_words(f, lang)}"
    if f.problem is not None:
        return f"{_one_line(f.claimed)} {problem_words(f.problem, lang)}"
    return _one_line(f.claimed)


def finding_body(p: Placed, lang: str, *, tag: str = "") -> str:
    """``CODE [where] claimed X, exact Y — reason`` (one line)."""
    f = p.finding
    words = _report_texts(lang)
    name = f" {p.where}" if p.where else ""
    prefix = f"{tag} " if tag else ""
    return (
        f"{prefix}{f.code}{name} {words['claimed']} {claim_words(f, lang)} — "
        f"{_one_line(say(f.message, load_messages(lang)))}"
    )


def finding_line(path: str, p: Placed, lang: str, *, tag: str = "") -> str:
    """``PATH:LINE:COL: CODE [where] claimed X, exact Y — reason`` (one line)."""
    where = f"{_one_line(path)}:{p.line}:{p.column}" if p.line else _one_line(path)
    return f"{where}: {finding_body(p, lang, tag=tag)}"


def _finding_lines(o: FileOutcome, lang: str, show_suppressed: bool) -> list[str]:
    lines = [finding_line(o.path, p, lang) for p in o.reported]
    if show_suppressed:
        tag = f"[{_report_texts(lang)['suppressed_tag']}]"
        lines += [finding_line(o.path, p, lang, tag=tag) for p in o.suppressed]
    return lines


def check_text(checked: Checked, lang: str = "en", *, show_suppressed: bool = False) -> str:
    """One line per finding, like a linter, a summary line per spec, then the total."""
    outcomes = _check_outcomes(checked)
    lines = []
    for o in outcomes:
        lines += _finding_lines(o, lang, show_suppressed)
        lines.append(f"{_one_line(o.path)}: {summary_text(o, lang)}")
    if len(outcomes) > 1:
        lines.append(total_text(outcomes, lang))
    return "\n".join(lines) + "\n"


def _finding_json(p: Placed, messages: Mapping[str, str]) -> dict[str, object]:
    """A finding of a spec (``check``): where, what, why."""
    f = p.finding
    return {
        "code": f.code,
        "severity": f.severity,
        "line": p.line,
        "column": p.column,
        "step": f.step,
        "position": list(f.position),
        "claimed": f.claimed,
        "exact": f.exact,
        "exact_rounded": f.inexact,
        "exact_frame": None if f.frame is None else f"author d_k = {f.frame}",
        "expected": f.expected,
        "message": say(f.message, messages),
        "alternatives": list(f.alternatives),
    }


def _text_finding_json(p: Placed, messages: Mapping[str, str]) -> dict[str, object]:
    """A finding of a text (``audit``)."""
    f = p.finding
    return {
        "code": f.code,
        "severity": f.severity,
        "line": f.line,
        "column": f.column,
        "claimed": f.claimed,
        "exact": f.exact,
        "exact_rounded": f.inexact,
        "problem": f.problem,
        "expected": f.expected,
        "message": say(f.message, messages),
        "cause": f.cause,
    }


def summary_json(o: FileOutcome) -> dict[str, object]:
    """The summary's counts."""
    return {
        "claims": o.claims,
        "judged": o.judged,
        "not_checked": dict(o.not_checked),
        "errors": o.count("error"),
        "warnings": o.count("warning"),
        "notes": o.count("info"),
        "suppressed": len(o.suppressed),
        "deselected": o.deselected,
    }


def outcome_json(o: FileOutcome, lang: str = "en", *, text: bool = False) -> dict[str, object]:
    """One file: its findings (with line and column), the suppressed ones, the counts."""
    messages = load_messages(lang)
    shape = _text_finding_json if text else _finding_json
    return {
        "findings": [shape(p, messages) for p in o.reported],
        "suppressed": [shape(p, messages) for p in o.suppressed],
        "summary": summary_json(o),
    }


def check_json(checked: Checked, lang: str = "en") -> dict[str, Any]:
    """``{"specs": [{"spec": PATH, "findings": [...], "checked": N, ...}], "total": {...}}``."""
    outcomes = _check_outcomes(checked)
    specs = [{"spec": o.path, **outcome_json(o, lang), "checked": o.judged} for o in outcomes]
    return {"specs": specs, "total": summary_json(total(outcomes))}


def check_markdown(checked: Checked, lang: str = "en", titles: Sequence[str] | str = ()) -> str:
    """The errata page of each spec, through ``templates/markdown/check_report.md.j2``."""
    outcomes = _check_outcomes(checked)
    titles = [titles] if isinstance(titles, str) else titles
    messages = load_messages(lang)
    cat = _check_texts(lang)
    pages = []
    for i, o in enumerate(outcomes):
        rows = [
            {
                "code": p.finding.code,
                "severity": p.finding.severity,
                "where": f"{p.line}:{p.column} {p.where}" if p.line else p.where,
                "claimed": p.finding.claimed,
                "exact": exact_words(p.finding, lang).partition(" ")[2],
                "expected": p.finding.expected or "",
                "message": say(p.finding.message, messages),
            }
            for p in o.reported
        ]
        title = titles[i] if i < len(titles) and titles[i] else o.path
        pages.append(
            render_report(
                "check_report",
                lang,
                heading=cat["heading"],
                title=title,
                path=o.path,
                rows=rows,
                summary=summary_text(o, lang),
                labels=cat,
            )
        )
    if len(outcomes) > 1:
        pages.append(total_text(outcomes, lang) + "\n")
    return "\n".join(pages)


# --------------------------------------------------------------------------- audit


def recognised_text(
    r: Recognised, lang: str = "en", judged: int | None = None, problem: int | None = None
) -> str:
    """One line saying which attention problem an audit rebuilt, in ``lang``; with
    ``judged``, how many of the judged claims were checked against it; with ``problem``,
    which problem of the text it is (``(problem 2 of the text) vectors: …``)."""
    cat = _audit_texts(lang)
    parts = [f"{n} {', '.join(t)}" for n, t in (("Q", r.q), ("K", r.k), ("V", r.v))]
    if r.x:
        parts.insert(0, f"X {', '.join(r.x)}; {', '.join(r.w)}")
    what = say(
        Message(
            "audit",
            "recognised",
            {
                "source": cat[lookup(AUDIT_SOURCES, r.source, "audit source")],
                "parts": cat["part_sep"].join(parts),
                "d_k": "" if r.d_k is None else r.d_k,
                "dk_from": cat["dk_as_stated" if r.d_k_stated else "dk_width"],
                "claims": r.claims,
            },
        ),
        load_messages(lang),
    )
    if judged is not None:
        what += _report_texts(lang)["recognised_of"].format(judged=judged)
    return what if problem is None else f"{problem_words(problem, lang)} {what}"


def recognised_json(r: Recognised) -> dict[str, object]:
    out: dict[str, object] = {"Q": list(r.q), "K": list(r.k), "V": list(r.v), "source": r.source}
    if r.x:
        out["X"] = list(r.x)
        out["W"] = list(r.w)
    out["d_k"] = r.d_k
    out["d_k_from"] = "stated" if r.d_k_stated else "width of K"
    out["claims"] = r.claims
    return out


def recognised_texts(r: AuditReport, lang: str = "en", judged: int | None = None) -> list[str]:
    """:func:`recognised_text` of every problem the audit judged, each numbered as the
    findings number them where the text holds more than one."""
    many = len(r.problems) > 1
    return [
        recognised_text(rec, lang, judged, n if many else None)
        for n, rec in enumerate(r.problems, 1)
    ]


def _unparsed_json(u: Unparsed, messages: Mapping[str, str]) -> dict[str, object]:
    """One thing not checked: ``reason`` the sentence in the report's language, ``reason_key``
    its ``[unchecked]`` key (the same in every language: what a machine groups by)."""
    return {
        "line": u.line,
        "text": u.text,
        "reason": say(u.reason, messages),
        "reason_key": u.reason.key,
    }


#: a file's audit and what the run reports of it (a plain report: all of it, nothing silenced)
Audited = tuple[AuditReport, FileOutcome] | AuditReport


def _pairs(audited: Sequence[Audited]) -> list[tuple[AuditReport, FileOutcome]]:
    return [(a, text_outcome(a)) if isinstance(a, AuditReport) else a for a in audited]


def audit_json(audited: Sequence[Audited], lang: str = "en") -> dict[str, object]:
    """``{"files": [...], "total": {...}}``: one object per audited text."""
    pairs = _pairs(audited)
    messages = load_messages(lang)
    return {
        "files": [
            {
                "path": r.path,
                **outcome_json(o, lang, text=True),
                "checked": o.judged,
                "unparsed": [_unparsed_json(u, messages) for u in r.unparsed],
                "recognised": recognised_json(r.recognised) if r.recognised is not None else None,
                "problems": [recognised_json(rec) for rec in r.problems],
                "coverage": _coverage_json(r, messages),
                "lang": r.lang,
            }
            for r, o in pairs
        ],
        "total": summary_json(total([o for _, o in pairs])),
    }


def _coverage_json(r: AuditReport, messages: Mapping[str, str]) -> dict[str, object]:
    """The counts of the numbers; why those not read were not: by sentence (``not_read``) and
    by ``[unchecked]`` key (``not_read_keys``)."""
    said: dict[str, int] = {}
    keyed: dict[str, int] = {}
    for reason, n in r.not_read():
        text = say(reason, messages)
        said[text] = said.get(text, 0) + n
        keyed[reason.key] = keyed.get(reason.key, 0) + n
    return {**r.coverage(), "not_read": said, "not_read_keys": keyed}


def _file_summary(r: AuditReport, o: FileOutcome, lang: str) -> str:
    coverage = catalog(lang, "audit", keys=("report_coverage",))["report_coverage"]
    return f"{summary_text(o, lang)} {coverage.format(**r.coverage())}"


def audit_text(
    audited: Sequence[Audited], lang: str = "en", *, show_suppressed: bool = False
) -> str:
    """Linter lines ``FILE:LINE:COL: CODE claimed X, exact Y — reason`` (no ``exact`` when there is
    none, as for ``precision-mixed``), a summary per file, and the total."""
    pairs = _pairs(audited)
    words = _report_texts(lang)
    messages = load_messages(lang)
    lines = []
    for r, o in pairs:
        lines += _finding_lines(o, lang, show_suppressed)
        for u in r.unparsed:
            text, reason = _one_line(u.text)[:80], _one_line(say(u.reason, messages))
            lines.append(f"{_one_line(r.path)}:{u.line}: {words['not_checked']}: {text} ({reason})")
        for what in recognised_texts(r, lang, judged=o.judged):
            lines.append(f"{_one_line(r.path)}: {words['recognised']} {what}")
        lines.append(f"{_one_line(r.path)}: {_file_summary(r, o, lang)}")
    if len(pairs) > 1:
        lines.append(total_text([o for _, o in pairs], lang))
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    """``text`` on one line: every line break (``\\n``, ``\\x0c``, NEL, U+2028, ...) and every
    control character a space."""
    flat = " ".join(text.splitlines())
    return "".join(" " if ch < " " or "\x7f" <= ch <= "\x9f" else ch for ch in flat)


def audit_markdown(audited: Sequence[Audited], lang: str = "en") -> str:
    """The errata page, through ``templates/markdown/audit_report.md.j2``."""
    pairs = _pairs(audited)
    messages = load_messages(lang)
    cat = _audit_texts(lang)
    files = [
        {
            "path": r.path,
            "summary": _file_summary(r, o, lang),
            "recognised": [
                cat["report_recognised"].format(what=what)
                for what in recognised_texts(r, lang, judged=o.judged)
            ],
            "findings": [
                {
                    "line": p.line,
                    "column": p.column,
                    "code": p.finding.code,
                    "claimed": p.finding.claimed,
                    "exact": exact_words(p.finding, lang).partition(" ")[2]
                    if p.finding.exact
                    else "",
                    "expected": p.finding.expected,
                    "problem": p.finding.problem,
                    "message": say(p.finding.message, messages),
                }
                for p in o.reported
            ],
            "unparsed": [
                (
                    cat["report_line"].format(line=u.line),
                    _one_line(u.text),
                    _one_line(say(u.reason, messages)),
                )
                for u in r.unparsed
            ],
        }
        for r, o in pairs
    ]
    text = render_report("audit_report", lang, files=files, cat=cat)
    if len(pairs) > 1:
        text += "\n" + total_text([o for _, o in pairs], lang) + "\n"
    return text
