"""Shared helpers of the atheris targets: which exceptions are allowed, small limits.

Import this module *before* ``atheris.instrument_imports()`` and symattn inside that block:
nothing here imports symattn at import time, or symattn would not be instrumented.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def fuzz_limits() -> Any:
    """Small limits so that one input never takes long (the limits themselves are under test)."""
    from symattn.config import Limits

    return Limits(max_elements=4096, max_precision_bits=4096, max_explained_pairs=64)


def allowed(exc: BaseException) -> bool:
    """True for an error symattn raises on purpose (any other exception is a crash)."""
    from symattn.errors import SymattnError

    return isinstance(exc, SymattnError)
