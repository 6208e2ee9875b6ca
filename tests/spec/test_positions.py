"""Tests of symattn.spec.positions: the line and column of every value of a spec."""

from __future__ import annotations

import json

import pytest

from symattn.spec.positions import claim_path, positions

from ..conftest import EXAMPLES

TOML = """# a comment with [brackets] and "quotes"
title = "a = [not a value]"
tokens = ["a", 'b']   # trailing
[claims.rows."q x"]
weights = [
  0.5,  # first
  0.5,
]
inline = { d_k = 2, "k.z" = [1, 2] }
notes = \"\"\"
x = 1
\"\"\"
[[arr]]
v = 1
[[arr]]
v = 2
"""


def test_toml_positions() -> None:
    p = positions(TOML, ".toml")
    assert p[("title",)] == (2, 9)
    assert p[("tokens", 1)] == (3, 16)
    assert p[("claims", "rows", "q x")] == (4, 1)
    assert p[("claims", "rows", "q x", "weights", 0)] == (6, 3)
    assert p[("claims", "rows", "q x", "weights", 1)] == (7, 3)
    assert p[("claims", "rows", "q x", "inline", "k.z", 1)] == (9, 33)
    assert ("x",) not in p  # inside a multi-line string
    assert p[("arr", 1, "v")] == (16, 5)


def test_json_positions() -> None:
    text = json.dumps({"claims": {"rows": {"q": {"weights": [0.5, 0.5]}}}}, indent=1)
    p = positions(text, ".json")
    line, col = p[("claims", "rows", "q", "weights", 1)]
    assert text.splitlines()[line - 1][col - 1 :].startswith("0.5")


def test_every_example_spec_scans() -> None:
    for spec in sorted(EXAMPLES.glob("*.toml")):
        assert positions(spec.read_text(encoding="utf-8"), ".toml")


@pytest.mark.parametrize(
    ("step", "position", "first"),
    [
        ("d_k", (), ("claims", "d_k")),
        ("V", ("apple", "1"), ("claims", "tokens", "apple", "v", 1)),
        ("weights", ("fruit", "banana"), ("claims", "rows", "fruit", "weights", 1)),
        ("output", ("fruit", "0"), ("claims", "rows", "fruit", "output", 0)),
        ("Q_heads", ("h2", "a", "0"), ("claims", "heads", "2", "tokens", "a", "q", 0)),
        ("head_outputs", ("h1", "a", "1"), ("claims", "heads", "1", "rows", "a", "output", 1)),
        ("interpretation", ("fruit",), ("claims", "rows", "fruit", "attends_most")),
    ],
)
def test_claim_path(step: str, position: tuple[str, ...], first: tuple[object, ...]) -> None:
    paths = list(claim_path(step, position, ("apple", "banana", "chair")))
    assert paths[0] == first
