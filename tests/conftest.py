"""Shared test helpers.

Tests that need a system tool or an optional package call :func:`require_module` or
:func:`require_tool`: off CI a missing one skips the test with the reason; on CI
(``CI`` set, as ``.ci/run`` runs) it fails, so nothing is ever skipped on CI.
"""

from __future__ import annotations

import importlib
import os
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"


def _missing(what: str) -> None:
    message = f"{what} is not available (bash .ci/run installs it)"
    if os.environ.get("CI"):
        pytest.fail(message + "; CI must not skip")
    pytest.skip(message)


def require_module(name: str) -> ModuleType:
    """Import ``name``, or skip (off CI) / fail (on CI)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        _missing(f"Python package {name}")
        raise  # unreachable: _missing raises


def require_tool(name: str) -> str:
    """The path of command ``name``, or skip (off CI) / fail (on CI)."""
    path = shutil.which(name)
    if path is None:
        _missing(f"command {name}")
    return str(path)


def english(message: object) -> str:
    """A typed reason (a :class:`~symattn.judge.findings.Message`) as the English catalog says
    it: what tests written against the wording of a reason compare with."""
    from symattn.judge.findings import Message
    from symattn.present.messages import load_messages, say

    assert isinstance(message, Message), message
    return say(message, load_messages("en"))
