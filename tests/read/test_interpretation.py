"""Tests of symattn.read.interpretation: sentences that say which key a query attends to
most, judged against the weights."""

from __future__ import annotations

import pytest

from symattn.read.audit import audit
from symattn.read.interpretation import sentences
from symattn.read.source import Source

from .texts import SEED_001, SEEDS

#: three tokens; with d_k = 2 the weights of "it" are animal 0.1917, street 0.1917, it 0.6165
# (q_it = [1, 1], k_animal = [0, 0], k_street = [0, 0], k_it = [1, 1])
BASE = (
    "q_1 (it) = [1, 1]\n\nk_1 (animal) = [0, 0]\n\nk_2 (street) = [0, 1]\n\nk_3 (it) = [1, 1]\n\n"
    "v_1 (animal) = [1, 0]\n\nv_2 (street) = [0, 1]\n\nv_3 (it) = [1, 1]\n\nd_k = 2\n\n"
    "weights = [0.1848, 0.3047, 0.5105]\n\n"
)


def codes(text: str) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in audit(text, fmt="text").findings]


def test_sentences_are_found_with_their_place() -> None:
    src = Source.of("intro\n\nso it attends most to animal here\n")
    (s,) = sentences(src, [(0, len(src.text))])
    assert (s.query, s.key, s.other, s.line, s.column) == ("it", "animal", "", 3, 4)


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("So it attends most to it.", []),
        ("So it attends most to animal.", [("interpretation", "animal")]),
        ("So it attends more to street than to animal.", []),
        ("So it attends more to animal than to street.", [("interpretation", "animal")]),
        ("So it attends most to nothing.", []),  # no such key: not judged
    ],
)
def test_words_are_claims(sentence: str, found: list[tuple[str, str]]) -> None:
    assert [c for c in codes(BASE + sentence + "\n") if c[0] == "interpretation"] == found


def test_seed_001_says_it_attends_more_to_animal_but_street_weighs_more() -> None:
    r = audit((SEEDS / SEED_001).read_text(encoding="utf-8"))
    (f,) = [f for f in r.findings if f.code == "interpretation"]
    assert (f.severity, f.line, f.claimed, f.exact) == ("warning", 9, "动物", "马路")
