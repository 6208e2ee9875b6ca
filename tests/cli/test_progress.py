"""Tests of symattn.cli.progress: on a terminal only, and only for long runs."""

from __future__ import annotations

import io
import sys

import pytest

from symattn.cli import progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(monkeypatch: pytest.MonkeyPatch, stream: io.StringIO, after: float) -> str:
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(progress, "PROGRESS_AFTER", after)
    with progress.progress_display(5, "audit") as step:
        for _ in range(5):
            step()
    return stream.getvalue()


def test_no_display_on_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run(monkeypatch, io.StringIO(), 0.0) == ""


def test_no_display_for_a_short_run(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run(monkeypatch, _Terminal(), 60.0) == ""


def test_a_display_for_a_long_run_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "audit" in _run(monkeypatch, _Terminal(), 0.0)
