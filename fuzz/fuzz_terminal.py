"""atheris target: what the command line lets reach a terminal (``cli.output``).

``terminal_text`` on any text, and ``SafeStream`` writing it to a terminal-like and to an
ASCII stream. Crash = any exception, or a broken invariant: no control character survives
but tab, newline and a leading carriage return; filtering twice changes nothing; every
newline survives (no two lines are joined); an ASCII stream never raises
``UnicodeEncodeError`` (lone surrogates included).
"""

from __future__ import annotations

import io
import sys

import atheris
from _common import allowed  # noqa: F401 - imported first, before instrumentation

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.cli.output import SafeStream, terminal_text

CONTROLS = frozenset(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)]) - {"\t", "\n"}


def check(text: str) -> None:
    """The invariants on one text."""
    shown = terminal_text(text)
    body = shown[1:] if shown.startswith("\r") else shown
    bad = set(body) & CONTROLS
    if bad:
        raise AssertionError(f"control characters survive: {sorted(map(hex, map(ord, bad)))}")
    if terminal_text(shown) != shown:
        raise AssertionError("filtering twice changes the text")
    if shown.count("\n") != text.count("\n"):
        raise AssertionError("a newline was removed")
    raw = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    SafeStream(raw, terminal_text).write(text)
    SafeStream(raw, None).write(text)
    raw.flush()


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """Text with surrogates and every control character reachable."""
    fdp = atheris.FuzzedDataProvider(data)
    if fdp.ConsumeBool():
        check(data[1:].decode("latin-1"))  # every byte a character: C0 and C1 controls
    else:
        check(fdp.ConsumeUnicode(fdp.remaining_bytes()))  # may hold lone surrogates


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
