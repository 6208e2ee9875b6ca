"""atheris target: ``loads_spec`` on TOML and JSON text, then ``spec.run()`` when computable.

Crash = any exception that is not a :class:`SymattnError`.
"""

from __future__ import annotations

import sys

import atheris
from _common import allowed, fuzz_limits

with atheris.instrument_imports(include=["symattn"], enable_loader_override=False):
    from symattn.spec import loads_spec

FUZZ_LIMITS = fuzz_limits()


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris' name
    """First byte: TOML or JSON; the rest is the spec text."""
    if not data:
        return
    fmt = "json" if data[0] % 2 else "toml"
    text = data[1:].decode("utf-8", "replace")
    try:
        spec = loads_spec(text, fmt=fmt, name="fuzz", limits=FUZZ_LIMITS)
        if spec.computable:
            spec.run()
    except Exception as e:  # noqa: BLE001 - the fuzzer decides what is a crash
        if not allowed(e):
            raise


if __name__ == "__main__":
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
