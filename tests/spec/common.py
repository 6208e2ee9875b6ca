"""Specs the spec tests share, and how a bad spec's error is checked."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.numbers import Written
from symattn.spec import Spec, loads_spec

BASE = """
title = "t"
tokens = ["a", "b"]
[inputs]
Q = [[1, 2]]
K = [[1, 2], [0, 1]]
V = [[10, 20], [30, 40]]
"""
QT = 'query_tokens = ["a"]\n'


def spec(text: str, limits: Limits = DEFAULT_LIMITS) -> Spec:
    """``text`` loaded as ``spec.toml``."""
    return loads_spec(text, name="spec.toml", limits=limits)


def texts(ws: tuple[Written | None, ...]) -> list[str | None]:
    """The claims as written (None where nothing is claimed)."""
    return [None if w is None else w.text for w in ws]


def assert_bad(text: str, error: type[Exception], words: list[str]) -> None:
    """``text`` fails with ``error``: one line, starting with the file, naming ``words``."""
    with pytest.raises(error) as info:
        spec(text)
    message = str(info.value)
    assert message.startswith("spec.toml: ")
    for word in words:
        assert word in message
    assert "\n" not in message.strip()
