"""spec/write.py: spec documents written as TOML read back unchanged."""

from __future__ import annotations

import tomllib

import pytest

from symattn.spec.write import spec_to_toml

NAMES = [
    "Thinking",
    'quote " and \\ backslash',
    "line\nbreak\ttab",
    "\x00\x1f\x7f\x85 controls",
    "动物",
    "[CLS]",
    "a.b",
    "‮bidi",
    "",
]


@pytest.mark.parametrize("name", NAMES)
def test_any_string_round_trips(name: str) -> None:
    data = {"schema": 1, "tokens": [name, "x"], "claims": {"rows": {name: {"weights": ["0.5"]}}}}
    assert tomllib.loads(spec_to_toml(data)) == data


def test_commented_entries_are_written_one_a_line_and_read_back() -> None:
    data = {"inputs": {"Q": [["1", "0"]]}, "claims": {"rows": {"1": {"scores": ["2", "0"]}}}}
    comments = {("claims", "rows", "1", "scores", 0): "line 3, column 1\nforged = 1"}
    text = spec_to_toml(data, comments, "first line\nsecond line")
    assert text.startswith("# first line\n# second line\n")
    assert '    "2",  # line 3, column 1 forged = 1\n' in text  # (a comment stays one line)
    assert tomllib.loads(text) == data


def test_booleans_integers_and_inline_tables() -> None:
    data = {"causal": True, "d_k": 4, "mask": [[True, False]], "x": [{"a": 1}]}
    assert tomllib.loads(spec_to_toml(data)) == data


def test_a_value_a_spec_cannot_hold_is_refused() -> None:
    with pytest.raises(TypeError):
        spec_to_toml({"x": 0.5})
