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


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ("0.5760 x 4 = 2.3040", "0.5760 × 4 = 2.3040"),
        ("2 x 0.5 + 0 x 0.5", "2 × 0.5 + 0 × 0.5"),
        ("0.59 x (1 - 0.59)", "0.59 × (1 - 0.59)"),
        ("q_it dot k_cat = 2", "q_it · k_cat = 2"),
        ("x = 2 x", "x = 2 x"),  # a name, and a letter that ends the text
        ("2x + 1", "2x + 1"),
        ("the dot product of q and k", "the dot product of q and k"),
    ],
)
def test_a_times_sign_written_as_a_letter_or_a_word(text: str, spelled: str) -> None:
    assert normalize(text)[0] == spelled
