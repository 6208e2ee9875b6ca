"""Tests of symattn.read.mapped: derived text that knows where each character was written."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from symattn.read.mapped import Mapped

SOURCE = "0123456789abcdefghij"


def test_of_and_at() -> None:
    m = Mapped.of(SOURCE, 3, 8)
    assert m.text == "34567" and [m.at(i) for i in range(5)] == [3, 4, 5, 6, 7]


def test_replace_keeps_positions_of_the_rest() -> None:
    m = Mapped.of(SOURCE, 0, 10).replace([(2, 5, "X")])
    assert m.text == "01X56789"
    assert m.at(0) == 0 and m.at(2) == 2 and m.at(3) == 5 and m.at(7) == 9


def test_join_and_slice() -> None:
    m = Mapped.join(SOURCE, [(0, 2), (10, 12)], " ")
    assert m.text == "01 ab"
    assert m.at(3) == 10 and m.slice(3, 5).text == "ab" and m.slice(3, 5).at(1) == 11


@given(
    st.lists(
        st.tuples(st.integers(0, 19), st.integers(0, 5), st.text("xy", max_size=3)), max_size=4
    )
)
def test_every_character_maps_into_the_source(edits: list[tuple[int, int, str]]) -> None:
    reps = []
    last = 0
    for a, n, new in sorted(edits):
        if a >= last:
            reps.append((a, min(a + n, 20), new))
            last = min(a + n, 20)
    m = Mapped.of(SOURCE, 0, 20).replace(reps)
    for i, ch in enumerate(m.text):
        at = m.at(i)
        assert 0 <= at <= 20
        if ch.isdigit() or ch in "abcdefghij":
            assert SOURCE[at] == ch
