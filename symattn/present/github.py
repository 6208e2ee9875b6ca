"""``--format github``: GitHub Actions workflow commands, one annotation per finding.

``::error file=PATH,line=L,col=C,title=CODE::MESSAGE`` (``warning`` for a warning,
``notice`` for a note), escaped as the runner parses them: in the message ``%``, CR and LF
become ``%25``, ``%0D``, ``%0A``; in a property also ``:`` and ``,`` (``%3A``, ``%2C``).
A finding of a text that holds several attention problems says which in its title and its
message (``(problem 2 of the text)``). The summary of each file follows as a plain line (no
command), so it shows in the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from symattn.present.outcome import FileOutcome, Placed
from symattn.present.reports import finding_body, problem_words, summary_text, total_text

#: severity -> workflow command
COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    """A message escaped for a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (file, title) escaped for a workflow command."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(path: str, p: Placed, lang: str = "en") -> str:
    """One workflow command for one finding."""
    f = p.finding
    props = [f"file={escape_property(path)}"]
    if p.line:
        props += [f"line={p.line}", f"col={max(p.column, 1)}"]
    title = f"symattn {f.code}" + (f" {p.where}" if p.where else "")
    if f.problem is not None:
        title += f" {problem_words(f.problem, lang)}"
    props.append(f"title={escape_property(title)}")
    message = finding_body(p, lang)
    return f"::{COMMANDS.get(f.severity, 'notice')} {','.join(props)}::{escape_data(message)}"


def github(outcomes: Sequence[FileOutcome], lang: str = "en") -> str:
    """The annotations of every reported finding, then each file's summary and the total
    (plain lines that start with ``symattn:``, so a file's name cannot make them commands)."""
    lines = [annotation(o.path, p, lang) for o in outcomes for p in o.reported]
    lines += [f"symattn: {_flat(o.path)}: {summary_text(o, lang)}" for o in outcomes]
    if len(outcomes) > 1:
        lines.append(f"symattn: {total_text(outcomes, lang)}")
    return "\n".join(lines) + "\n"


def _flat(text: str) -> str:
    """``text`` with its line breaks escaped (a plain log line stays one line)."""
    return escape_data(text)
