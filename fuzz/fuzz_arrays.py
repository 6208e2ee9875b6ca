"""atheris target: the array readers (Python lists, numpy/torch printouts, braces, plain rows,
prose numbers), the table readers and the layout of stacked or side-by-side arrays.

Crash = any exception but ``SymattnError``; an entry whose offset does not hold its text; a
shape that does not hold the entries.
"""

from __future__ import annotations

import sys

import atheris
from _common import allowed, fuzz_limits

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.read.arrays import plain_rows, prose_numbers, scan_arrays
    from symattn.read.layout import side_by_side, stack_rows
    from symattn.read.source import Source
    from symattn.read.tables import text_tables

FUZZ_LIMITS = fuzz_limits()


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """The bytes as UTF-8 text (invalid bytes replaced)."""
    text = data.decode("utf-8", "replace")
    n = len(text)
    try:
        grids = scan_arrays(text, 0, n, FUZZ_LIMITS, braces=bool(data[:1] == b"{"))
        starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        grids = stack_rows(text, grids, starts)
        grids += plain_rows(text, 0, n, FUZZ_LIMITS) + prose_numbers(text, 0, n, FUZZ_LIMITS)
        sided, _ = side_by_side(text, 0, n, FUZZ_LIMITS)
        src = Source.of(text)
        tables = text_tables(src, 0, len(src.text), FUZZ_LIMITS)
    except Exception as e:  # noqa: BLE001 - the fuzzer decides what is a crash
        if allowed(e):
            return
        raise
    for g in grids + sided:
        for e in g.entries:
            if text[e.at : e.at + len(e.text)] != e.text:
                raise AssertionError(f"entry {e} is not at its offset")
        if g.dims:
            size = 1
            for d in g.dims:
                size *= d
            if size != len(g.entries):
                raise AssertionError(f"shape {g.dims} for {len(g.entries)} entries")
    for t in tables:
        for e in t.entries():
            if src.text[e.at : e.at + len(e.text)] != e.text:
                raise AssertionError(f"table entry {e} is not at its offset")


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
