"""Tests of symattn.read.placing: where each claim of a problem goes."""

from __future__ import annotations

from symattn.numbers import parse_number
from symattn.read.observations import Spot
from symattn.read.placing import Built, zeros_mask


def _spot(text: str, at: int) -> Spot:
    return Spot(parse_number(text), 1, at + 1, at)


def test_a_row_written_key_by_key_is_one_row() -> None:
    built = Built()
    built.put(0, "a", "weights", ["1", "2"], [_spot("0.89", 0), None])
    built.put(1, "a", "weights", ["1", "2"], [None, _spot("0.11", 10)])
    assert built.rows == [{"a": {"weights": {"1": "0.89", "2": "0.11"}}}]
    assert built.owners[0] == {("weights", ("a", "1")): 0, ("weights", ("a", "2")): 1}


def test_a_repeated_row_is_another_layer() -> None:
    built = Built()
    for i in range(2):
        built.put(i, "a", "scores", ["1", "2"], [_spot("1", 4 * i), _spot("2", 4 * i + 2)])
    assert len(built.rows) == 2 and built.used == [{0}, {1}]


def test_the_zeros_mask_removes_keys_written_as_zero() -> None:
    rows: dict[str, dict[str, object]] = {
        "a": {"weights": ["1", "0"]},
        "b": {"weights": ["0.5", "0.5"]},
    }
    assert zeros_mask(rows, ("a", "b"), ("1", "2")) == [[True, False], [True, True]]
    assert zeros_mask({"a": {"weights": ["0", "0"]}}, ("a",), ("1", "2")) is None  # (a row of none)
