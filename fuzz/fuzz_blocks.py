"""atheris target: the block readers (markdown-it-py, pylatexenc, plain paragraphs) and the
census on any text, in every format.

Crash = any exception; a block whose span is out of the text or out of order; a number of
the census whose position is not where its text is.
"""

from __future__ import annotations

import re
import sys

import atheris
from _common import allowed

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.read.blocks import blocks
    from symattn.read.census import Census
    from symattn.read.source import Source

FORMATS = ("markdown", "latex", "text")


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """First byte: the format; the rest as UTF-8 text (invalid bytes replaced)."""
    if not data:
        return
    fmt = FORMATS[data[0] % len(FORMATS)]
    text = data[1:].decode("utf-8", "replace")
    try:
        src = Source.of(text)
        found = blocks(src, fmt)
        census = Census.of(src)
    except Exception as e:  # noqa: BLE001 - the fuzzer decides what is a crash
        if allowed(e):
            return
        raise
    last = 0
    for b in found:
        if not 0 <= b.start <= b.end <= len(src.text):
            raise AssertionError(f"block {b} out of the text")
        if b.start < last and b.kind != "heading":
            raise AssertionError(f"block {b} before the one before it")
        last = b.start
        for a, e in (*b.math, *b.code):
            if not b.start <= a <= e <= b.end:
                raise AssertionError(f"span {(a, e)} out of its block {b}")
    lines = re.split(r"\r\n|\r|\n", text)
    for r in census.records(limit=50):
        if not src.removed and 0 < r.line <= len(lines):
            got = lines[r.line - 1][r.column - 1 : r.column - 1 + len(r.text)]
            if got != r.text:
                raise AssertionError(f"census position {r} shows {got!r}")


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
