"""Tests of symattn.read.observations: what the reader found, as frozen records."""

from __future__ import annotations

import dataclasses

import pytest

from symattn.numbers import parse_number
from symattn.read.observations import Spot, texts


def test_texts_are_the_numbers_as_written() -> None:
    spots = (Spot(parse_number("0.50"), 1, 2), Spot(parse_number("-1e3"), 1, 8))
    assert texts(spots) == ["0.50", "-1e3"]


def test_spot_is_frozen() -> None:
    spot = Spot(parse_number("1"), 1, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spot.line = 2  # type: ignore[misc]  # the point of the test
