"""atheris target: code read, never run (statements cut and parsed with ``ast``, what each
says, and the dataflow of what it computes).

Crash = any exception but ``SymattnError``; a statement out of its block; anything run (the
target checks that no file appears in its working folder).
"""

from __future__ import annotations

import os
import sys
import tempfile

import atheris
from _common import allowed

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.read.code import statements
    from symattn.read.dataflow import flows
    from symattn.read.python import facts_of

WORK = tempfile.mkdtemp(prefix="symattn-fuzz-code-")
os.chdir(WORK)


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """The bytes as UTF-8 text (invalid bytes replaced): one code block."""
    text = data.decode("utf-8", "replace")
    try:
        sts = statements(text, 0, len(text))
        said = [(k, f) for k, st in enumerate(sts) for f in facts_of(st)]
        flows(said, [st.tree for st in sts], {})
    except Exception as e:  # noqa: BLE001 - the fuzzer decides what is a crash
        if allowed(e) or isinstance(e, RecursionError):
            return  # (a RecursionError of ast on deep nesting is reported as text by read)
        raise
    for st in sts:
        if not 0 <= st.start <= st.end <= len(text):
            raise AssertionError(f"statement {st.start}-{st.end} out of the block")
    if os.listdir(WORK):
        raise AssertionError(f"something ran: {os.listdir(WORK)}")


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
