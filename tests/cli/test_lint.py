"""Tests of symattn.cli.lint: the linters' arguments, declared without the linters."""

from __future__ import annotations

from symattn.cli.lint import ROUNDING_MODES
from symattn.numbers.rounding import Rounding


def test_rounding_modes_are_the_enum() -> None:
    assert ROUNDING_MODES == tuple(m.value for m in Rounding)
