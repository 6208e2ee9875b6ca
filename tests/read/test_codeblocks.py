"""Tests of symattn.read.codeblocks: code read, its printed output tied to it."""

from __future__ import annotations

from .texts import read_text


def test_printed_output_follows_its_code() -> None:
    text = "```python\nw = softmax(s)\nprint(w)\n```\n\n```\n[0.5 0.5]\n```\n"
    r = read_text(text)
    assert r.outputs == {1} and r.printed == {1}
    (p,) = [p for p in r.grids if p.block == 1]
    assert p.grid.start in r.shown


def test_a_comment_states_the_value_of_its_statement() -> None:
    text = "```python\nkeys = np.dot(x, w_key)  # [[0, 1], [1, 0]]\n```\n"
    r = read_text(text)
    (p,) = [p for p in r.grids if p.how == "comment"]
    assert p.grid.dims == (2, 2)


def test_code_lines_that_are_text_are_read_as_text() -> None:
    text = "```\nScores = [1, 2] = [1, 2]\n```\n"
    r = read_text(text)
    assert [c.text for c in r.chains] == ["Scores = [1, 2] = [1, 2]"]
