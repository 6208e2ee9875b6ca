"""atheris target: ``explain`` with fuzzed token names, title, source and notes.

Renders Markdown, LaTeX and JSON. Crash = any exception that is not a
:class:`SymattnError`, or text that escapes its format: the structure of the output
(bare LaTeX specials and control words, Markdown HTML/link/math delimiters) must be the
same as with harmless names, and the JSON must give the strings back unchanged.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections import Counter

import atheris
from _common import allowed, fuzz_limits

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.errors import SpecError
    from symattn.present import render
    from symattn.present.document import DocOptions, build_document, meta_from_spec
    from symattn.spec import loads_spec

FUZZ_LIMITS = fuzz_limits()

_INPUTS = {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]}
_LATEX_TOKEN = re.compile(r"\\[A-Za-z@]+|\\.|[{}$&#%^_~]", re.DOTALL)
_LATEX_ESCAPE = re.compile(
    r"\\text(?:backslash|asciicircum|asciitilde|less|greater|bar)\{\}|\{[][]\}|\\allowbreak\{\}"
)  # the escapes, and the break opportunities latex_user puts in long runs
_MD_TOKEN = re.compile(r"\\.|<|\]\(|`|\$|\[", re.DOTALL)


def latex_structure(tex: str) -> Counter[str]:
    """Bare special characters and control words of a LaTeX text."""
    tex = _LATEX_ESCAPE.sub("", tex)
    return Counter(
        t
        for t in _LATEX_TOKEN.findall(tex)
        if not (len(t) == 2 and t[0] == "\\" and not t[1].isalpha())
    )


_ESCAPE_OR_TICKS = re.compile(r"\\.|`+", re.DOTALL)


def outside_code_spans(md: str) -> str:
    """The text with every code span removed (CommonMark: a backslash-escaped backtick opens
    nothing; a run of n backticks closes at the next run of exactly n; an unclosed run is
    literal)."""
    out, pos, i = [], 0, 0
    while (m := _ESCAPE_OR_TICKS.search(md, i)) is not None:
        tick = m.group()
        if tick.startswith("\\"):
            i = m.end()
            continue
        close = re.compile(rf"(?<!`){tick}(?!`)").search(md, m.end())
        if close is None:
            i = m.end()
            continue
        out.append(md[pos : m.start()])
        pos = i = close.end()
    out.append(md[pos:])
    return "".join(out)


def markdown_structure(md: str) -> Counter[str]:
    """Raw HTML openers, link syntax, code and math delimiters of a Markdown text outside
    code spans (inert: the escaper itself puts backslashes and dollar signs in them)."""
    md = outside_code_spans(md)
    return Counter(t for t in _MD_TOKEN.findall(md) if not t.startswith("\\"))


def render_all(title: str, source: str, notes: str, tokens: list[str]) -> tuple[str, str, str]:
    """Markdown, LaTeX and JSON of the fixed example with these strings.

    A spec refuses control characters in its text fields; text it refuses is put into the
    spec afterwards (as the API allows), so the escaping of every character stays fuzzed.
    """
    data = {"title": title, "source": source, "notes": notes, "tokens": tokens, "inputs": _INPUTS}
    try:
        spec = loads_spec(json.dumps(data), fmt="json", name="fuzz", limits=FUZZ_LIMITS)
    except SpecError as e:
        if "control character" not in str(e):
            raise
        plain = {**data, "title": "", "source": "", "notes": ""}
        spec = loads_spec(json.dumps(plain), fmt="json", name="fuzz", limits=FUZZ_LIMITS)
        spec = dataclasses.replace(spec, title=title, source=source, notes=notes)
    doc = build_document(spec.run(), meta_from_spec(spec), DocOptions(limits=FUZZ_LIMITS))
    return render.render_markdown(doc), render.render_latex(doc), render.render_json(doc)


BASE_MD, BASE_TEX, _ = render_all("t", "s", "n", ["a", "b"])
BASE_MD_S, BASE_TEX_S = markdown_structure(BASE_MD), latex_structure(BASE_TEX)


def check(title: str, source: str, notes: str, tokens: list[str]) -> None:
    """Render and check the invariants."""
    try:
        md, tex, js = render_all(title, source, notes, tokens)
    except Exception as e:  # noqa: BLE001 - the fuzzer decides what is a crash
        if allowed(e):
            return
        raise
    if latex_structure(tex) != BASE_TEX_S:
        raise AssertionError(
            f"LaTeX structure changed: {latex_structure(tex) - BASE_TEX_S} / {BASE_TEX_S - latex_structure(tex)}"
        )
    if markdown_structure(md) != BASE_MD_S:
        raise AssertionError(f"Markdown structure changed: {markdown_structure(md) - BASE_MD_S}")
    back = json.loads(js)
    # the document trims surrounding whitespace of free text (found by this target: "x\x03e\n")
    if [back[k].strip() for k in ("title", "notes", "source")] != [
        title.strip(),
        notes.strip(),
        source.strip(),
    ]:
        raise AssertionError("JSON does not give the strings back")


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """Four non-empty strings from the fuzzer's bytes."""
    fdp = atheris.FuzzedDataProvider(data)
    strings = ["x" + fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 40)) for _ in range(5)]
    title, source, notes, t1, t2 = strings
    check(title, source, notes, [t1, t2 + "\u2063" if t1 == t2 else t2])


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
