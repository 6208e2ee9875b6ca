"""Tests of symattn.present.github: workflow commands, escaped, parsed back."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from symattn.judge.findings import Finding, Message, TextLocation
from symattn.present.github import annotation, escape_data, escape_property, github
from symattn.present.outcome import Placed, outcome

#: how the runner reads a command: ``::name k=v,k=v::message``
COMMAND = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")


def _unescape(text: str) -> str:
    for code, ch in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, ch)
    return text


def _finding(severity: str = "error", code: str = "wrong-value") -> Finding:
    return Finding(
        code,
        severity,
        TextLocation(3, 7),
        "3",
        "2",
        "2",
        Message("audit", "wrong-value", {"claimed": "3", "exact": "2", "expected": "2"}),
    )


def _parse(line: str) -> tuple[str, dict[str, str], str]:
    m = COMMAND.match(line)
    assert m is not None, line
    props = dict(p.split("=", 1) for p in m.group(2).split(","))
    return m.group(1), {k: _unescape(v) for k, v in props.items()}, _unescape(m.group(3))


@pytest.mark.parametrize(
    ("severity", "command"), [("error", "error"), ("warning", "warning"), ("info", "notice")]
)
def test_an_annotation_parses_back(severity: str, command: str) -> None:
    path = "dir, with: odd%name.md"
    line = annotation(path, Placed(_finding(severity), 3, 7))
    name, props, message = _parse(line)
    assert name == command
    assert props == {"file": path, "line": "3", "col": "7", "title": "symattn wrong-value"}
    assert message.startswith("wrong-value claimed 3, exact 2 — ")


def test_escaping() -> None:
    assert escape_data("50%\r\n") == "50%25%0D%0A"
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"


def test_summary_lines_cannot_become_commands() -> None:
    o = outcome(
        "::error::x.md",
        [Placed(_finding(), 3, 7)],
        claims=1,
        judged=1,
        not_checked={},
        silenced={},
    )
    lines = github([o, o]).splitlines()
    assert sum(1 for line in lines if line.startswith("::")) == 2
    assert lines[2].startswith("symattn: ::error::x.md: 1 claim(s): 1 judged")
    assert lines[-1].startswith("symattn: Total over 2 files:")


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "(problem 2 of the text)"), ("zh", "（文中第 2 个问题）")]
)
def test_an_annotation_says_which_problem_of_the_text(lang: str, words: str) -> None:
    """Issue 21: in its title and, as the text report says it, in its message."""
    f = replace(_finding(), problem=2)
    _, props, message = _parse(annotation("t.md", Placed(f, 3, 7), lang))
    assert props["title"] == f"symattn wrong-value {words}"
    assert f" 2 {words} — " in message
    _, _, bare = _parse(annotation("t.md", Placed(replace(f, exact=""), 3, 7), lang))
    assert f" 3 {words} — " in bare
