"""Tests of symattn.read.tokens: the grammar's spelling and its tokens."""

from __future__ import annotations

import pytest

from symattn.config import Limits
from symattn.errors import LimitError
from symattn.read.syntax import parse
from symattn.read.tokens import normalize


def test_normalize_maps_positions() -> None:
    norm, where = normalize("a \\times b")
    assert norm == "a × b"
    assert len(where) == len(norm) and where[2] == 2 and where[-1] == len("a \\times b") - 1


def test_long_literal_is_limited() -> None:
    with pytest.raises(LimitError):
        parse("1" * 50, limits=Limits(max_literal_length=10))


def test_unicode_subscripts_keep_their_positions() -> None:
    text, where = normalize("K₂ = 1")
    assert text == "K_2 = 1"
    assert where[text.index("1")] == 5
