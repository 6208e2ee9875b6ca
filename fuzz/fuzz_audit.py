"""atheris target: ``audit(text)`` on any text.

Crash = any exception (audit reports what it cannot read as unparsed, it never raises on
text), or a report whose JSON does not round-trip.
"""

from __future__ import annotations

import json
import sys

import atheris
from _common import allowed, fuzz_limits

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.present.reports import audit_json
    from symattn.read.audit import audit

FUZZ_LIMITS = fuzz_limits()


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """The bytes as UTF-8 text (invalid bytes replaced)."""
    text = data.decode("utf-8", "replace")
    try:
        report = audit(text, limits=FUZZ_LIMITS)
    except Exception as e:  # noqa: BLE001 - the fuzzer decides what is a crash
        if allowed(e):
            return
        raise
    blob = audit_json([report])
    if json.loads(json.dumps(blob, ensure_ascii=False)) != json.loads(json.dumps(blob)):
        raise AssertionError("audit JSON does not round-trip")
    for f in report.findings:
        if f.line < 1:
            raise AssertionError(f"finding at line {f.line}")


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
