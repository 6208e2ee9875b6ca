"""``--format sarif``: the findings of ``check`` and ``audit`` as SARIF 2.1.0.

One run of one tool (``symattn``) whose rules are the code table (:data:`CODES`: the code,
its meaning, its help and its default level); one result per finding with its physical
location (the file, relative to the folder of the run, and the 1-based line and column)
and the exact value in its message; a finding of a text that holds several attention
problems says which, in its message and in ``properties.problem``. Findings silenced by an
inline ``symattn: ignore`` are results with an ``inSource`` suppression, as SARIF defines
(GitHub code scanning shows them as dismissed). The summary counts of each file are the
run's ``properties``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from symattn.judge.codes import CODES
from symattn.judge.findings import Finding
from symattn.present.messages import load_messages, say
from symattn.present.outcome import FileOutcome, Placed
from symattn.present.reports import claim_words, summary_json
from symattn.version import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: severity -> SARIF level
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _rules() -> list[dict[str, Any]]:
    return [
        {
            "id": c.code,
            "name": "".join(w.capitalize() for w in c.code.split("-")),
            "shortDescription": {"text": c.meaning},
            "fullDescription": {"text": f"{c.code} ({c.severity}): {c.meaning}."},
            "help": {
                "text": f"{c.meaning}. See docs/check.md, table 'Findings, and which "
                "explanation wins', for when it is reported and what explains it instead."
            },
            "defaultConfiguration": {"level": LEVELS[c.severity]},
            "properties": {"severity": c.severity},
        }
        for c in CODES
    ]


def artifact_uri(path: str, base: str | None = None) -> str:
    """``path`` as a URI reference relative to ``base`` (the working folder) when inside it."""
    if path in ("-", "<stdin>"):
        return "stdin"
    absolute = os.path.abspath(path)
    root = os.path.abspath(base or os.getcwd())
    if os.path.commonpath([root, absolute]) == root:
        rel = PurePosixPath(*os.path.relpath(absolute, root).split(os.sep))
        return quote(str(rel))
    return PurePosixPath(absolute).as_uri()


def _message(f: Finding, lang: str) -> str:
    """``CODE: claimed X, exact Y (problem N of the text) — reason``, as the text report says
    it."""
    return f"{f.code}: claimed {claim_words(f, lang)} — {say(f.message, load_messages(lang))}"


def _result(path: str, p: Placed, lang: str, rule_index: dict[str, int]) -> dict[str, Any]:
    f = p.finding
    location: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(path)}}
    if p.line:
        location["region"] = {"startLine": p.line, "startColumn": max(p.column, 1)}
    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": rule_index[f.code],
        "level": LEVELS.get(f.severity, "note"),
        "message": {"text": _message(f, lang)},
        "locations": [{"physicalLocation": location}],
        "properties": {"claimed": f.claimed, "exact": f.exact, "exactRounded": f.inexact},
    }
    if f.problem is not None:  # (which of a text's attention problems: --emit-spec's number)
        result["properties"]["problem"] = f.problem
    if p.where:
        result["locations"][0]["logicalLocations"] = [{"name": p.where, "kind": "member"}]
    return result


def sarif(outcomes: Sequence[FileOutcome], lang: str = "en") -> dict[str, Any]:
    """The SARIF log of a run over ``outcomes``."""
    rule_index: dict[str, int] = {c.code: i for i, c in enumerate(CODES)}
    results = []
    for o in outcomes:
        results += [_result(o.path, p, lang, rule_index) for p in o.reported]
        for p in o.suppressed:
            r = _result(o.path, p, lang, rule_index)
            r["suppressions"] = [{"kind": "inSource", "justification": "symattn: ignore"}]
            results.append(r)
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "symattn",
                        "version": __version__,
                        "rules": _rules(),
                    }
                },
                "results": results,
                "artifacts": [{"location": {"uri": artifact_uri(o.path)}} for o in outcomes],
                "columnKind": "unicodeCodePoints",
                "properties": {"files": {o.path: summary_json(o) for o in outcomes}},
            }
        ],
    }
