"""Reports of ``check`` and ``audit``: text (linter lines), JSON and Markdown.

Pure functions of the typed reports: the words come from the catalog of the language asked
for (:mod:`symattn.present.messages`), the Markdown through the one jinja2 environment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from symattn.judge.check import CheckReport
from symattn.judge.findings import Finding, Message
from symattn.present.keys import (
    AUDIT_REPORT_TEXTS,
    AUDIT_SOURCES,
    CHECK_REPORT_TEXTS,
    REPORT_TEXTS,
    lookup,
)
from symattn.present.messages import Catalog, catalog, load_messages, say
from symattn.present.render import render_report
from symattn.read.audit import AuditReport, Recognised, Unparsed
from symattn.stages import ROW_STAGES, TOKEN_STAGES

# --------------------------------------------------------------------------- findings


def message(finding: Finding, lang: str = "en") -> str:
    """The finding's one-sentence reason in ``lang``."""
    return say(finding.message, load_messages(lang))


#: steps whose position names a column by its index (shown counted from 1)
INDEXED_STEPS = frozenset({*TOKEN_STAGES.values(), *(s.step for s in ROW_STAGES if not s.per_key)})


def position_text(f: Finding) -> str:
    """``step[row,col]`` as a person reads it: a column index counts from 1."""
    if not f.position:
        return f.step
    parts = list(f.position)
    if f.step in INDEXED_STEPS and len(parts) > 1 and parts[-1].isdigit():
        parts[-1] = str(int(parts[-1]) + 1)
    return f"{f.step}[{','.join(parts)}]"


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


def check_summary(report: CheckReport, lang: str = "en") -> str:
    """How many claims were checked, errors and warnings, in ``lang``."""
    return _report_texts(lang)["check_summary"].format(
        checked=report.checked, errors=report.count("error"), warnings=report.count("warning")
    )


def check_text(report: CheckReport, lang: str = "en") -> str:
    """One line per finding, like a linter, then the summary line."""
    messages = load_messages(lang)
    words = _report_texts(lang)
    lines = [
        f"{report.path}:{position_text(f)}: {f.code} {words['claimed']} {f.claimed}, "
        f"{words['exact']} {f.exact_text} — {say(f.message, messages)}"
        for f in report.findings
    ]
    lines.append(check_summary(report, lang))
    return "\n".join(lines) + "\n"


def check_json(report: CheckReport, lang: str = "en") -> dict[str, Any]:
    """``{"spec": PATH, "findings": [...], "checked": N}``."""
    messages = load_messages(lang)
    return {
        "spec": report.path,
        "findings": [
            {
                "code": f.code,
                "severity": f.severity,
                "step": f.step,
                "position": list(f.position),
                "claimed": f.claimed,
                "exact": f.exact,
                "expected": f.expected,
                "message": say(f.message, messages),
                "alternatives": list(f.alternatives),
            }
            for f in report.findings
        ],
        "checked": report.checked,
    }


def check_markdown(report: CheckReport, lang: str = "en", title: str = "") -> str:
    """The errata page, through ``templates/markdown/check_report.md.j2``."""
    messages = load_messages(lang)
    cat = _check_texts(lang)
    rows = [
        {
            "code": f.code,
            "severity": f.severity,
            "where": position_text(f),
            "claimed": f.claimed,
            "exact": f.exact_text,
            "expected": f.expected or "",
            "message": say(f.message, messages),
        }
        for f in report.findings
    ]
    return render_report(
        "check_report",
        lang,
        heading=cat["heading"],
        title=title or report.path,
        path=report.path,
        rows=rows,
        summary=check_summary(report, lang),
        labels=cat,
    )


# --------------------------------------------------------------------------- audit


def recognised_text(r: Recognised, lang: str = "en") -> str:
    """One line saying which attention problem an audit rebuilt, in ``lang``."""
    cat = _audit_texts(lang)
    parts = [f"{n} {', '.join(t)}" for n, t in (("Q", r.q), ("K", r.k), ("V", r.v))]
    if r.x:
        parts.insert(0, f"X {', '.join(r.x)}; {', '.join(r.w)}")
    return say(
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


def recognised_json(r: Recognised) -> dict[str, object]:
    out: dict[str, object] = {"Q": list(r.q), "K": list(r.k), "V": list(r.v), "source": r.source}
    if r.x:
        out["X"] = list(r.x)
        out["W"] = list(r.w)
    out["d_k"] = r.d_k
    out["d_k_from"] = "stated" if r.d_k_stated else "width of K"
    out["claims"] = r.claims
    return out


def _unparsed_json(u: Unparsed) -> dict[str, object]:
    return {"line": u.line, "text": u.text, "reason": u.reason}


def _audit_finding_json(f: Finding, messages: Mapping[str, str]) -> dict[str, object]:
    return {
        "code": f.code,
        "severity": f.severity,
        "line": f.line,
        "column": f.column,
        "claimed": f.claimed,
        "exact": f.exact,
        "expected": f.expected,
        "message": say(f.message, messages),
        "cause": f.cause,
    }


def audit_json(reports: Sequence[AuditReport], lang: str = "en") -> dict[str, object]:
    """``{"files": [...]}``: one object per audited text."""
    messages = load_messages(lang)
    return {
        "files": [
            {
                "path": r.path,
                "findings": [_audit_finding_json(f, messages) for f in r.findings],
                "checked": r.checked,
                "unparsed": [_unparsed_json(u) for u in r.unparsed],
                "recognised": recognised_json(r.recognised) if r.recognised is not None else None,
                "coverage": _coverage_json(r),
                "lang": r.lang,
            }
            for r in reports
        ]
    }


def _audit_counts(r: AuditReport) -> dict[str, int]:
    """What the summary line counts: claims checked, findings by severity (a note, such as
    missing-input, accuses nothing), and what was not checked."""
    by = {s: sum(1 for f in r.findings if f.severity == s) for s in ("error", "warning", "info")}
    return {
        "checked": r.checked,
        "errors": by["error"],
        "warnings": by["warning"],
        "notes": by["info"],
        "unparsed": len(r.unparsed),
    }


def _coverage_json(r: AuditReport) -> dict[str, object]:
    return {**r.coverage(), "not_read": r.not_read()}


def audit_text(reports: Sequence[AuditReport], lang: str = "en") -> str:
    """Linter lines ``FILE:LINE:COL: CODE claimed X, exact Y — reason`` (no ``exact`` when there is
    none, as for ``precision-mixed``) and a summary per file."""
    messages = load_messages(lang)
    words = _report_texts(lang)
    lines = []
    for r in reports:
        for f in r.findings:
            exact = f", {words['exact']} {f.exact}" if f.exact else ""
            where = f"{_one_line(r.path)}:{f.line}:{f.column}"
            lines.append(
                f"{where}: {f.code} {words['claimed']} {f.claimed}{exact} — "
                f"{say(f.message, messages)}"
            )
        for u in r.unparsed:
            text, reason = _one_line(u.text)[:80], _one_line(u.reason)
            lines.append(f"{_one_line(r.path)}:{u.line}: {words['not_checked']}: {text} ({reason})")
        if r.recognised is not None:
            lines.append(
                f"{_one_line(r.path)}: {words['recognised']} {recognised_text(r.recognised, lang)}"
            )
        summary = words["audit_summary"].format(**_audit_counts(r))
        coverage = catalog(lang, "audit", keys=("report_coverage",))["report_coverage"]
        lines.append(f"{_one_line(r.path)}: {summary} {coverage.format(**r.coverage())}")
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    """``text`` on one line: every line break (``\\n``, ``\\x0c``, NEL, U+2028, ...) and every
    control character a space."""
    flat = " ".join(text.splitlines())
    return "".join(" " if ch < " " or "\x7f" <= ch <= "\x9f" else ch for ch in flat)


def audit_markdown(reports: Sequence[AuditReport], lang: str = "en") -> str:
    """The errata page, through ``templates/markdown/audit_report.md.j2``."""
    messages = load_messages(lang)
    cat = _audit_texts(lang)
    files = [
        {
            "path": r.path,
            "summary": _report_texts(lang)["audit_summary"].format(**_audit_counts(r))
            + " "
            + catalog(lang, "audit", keys=("report_coverage",))["report_coverage"].format(
                **r.coverage()
            ),
            "recognised": (
                cat["report_recognised"].format(what=recognised_text(r.recognised, lang))
                if r.recognised
                else ""
            ),
            "findings": [
                {
                    "line": f.line,
                    "column": f.column,
                    "code": f.code,
                    "claimed": f.claimed,
                    "exact": f.exact,
                    "expected": f.expected,
                    "message": say(f.message, messages),
                }
                for f in r.findings
            ],
            "unparsed": [
                (cat["report_line"].format(line=u.line), _one_line(u.text), _one_line(u.reason))
                for u in r.unparsed
            ],
        }
        for r in reports
    ]
    return render_report("audit_report", lang, files=files, cat=cat)
