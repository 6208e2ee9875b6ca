"""Tests of symattn.read.kinds: the kinds the reader tells apart, each an enum declared once."""

from __future__ import annotations

import json

from symattn.read.blocks import blocks
from symattn.read.extract import LINKS, chains_of
from symattn.read.kinds import (
    OUTSIDE_MATH,
    OWN_NAMES,
    WORDS,
    BlockKind,
    ChainKind,
    LinkRelation,
    Placement,
    RoleSource,
    WrittenIn,
)
from symattn.read.mapped import Mapped
from symattn.read.source import Source

_DOCUMENT = """# Title

Some prose.

$$
x = 1
$$

| a | b |
|---|---|
| 1 | 2 |

```python
x = [1, 2]
```
"""


def test_every_block_kind_is_one_blocks_produces() -> None:
    got = {b.kind for b in blocks(Source.of(_DOCUMENT), "markdown")}
    assert got == set(BlockKind)
    assert all(isinstance(k, BlockKind) for k in got)


def test_the_blocks_of_words_are_prose_and_headings() -> None:
    assert WORDS == {BlockKind.PROSE, BlockKind.HEADING}


def test_the_relations_are_the_separators_of_links() -> None:
    assert {r.value for r in LinkRelation if r is not LinkRelation.NONE} == set(LINKS)
    assert LinkRelation.NONE.value == ""


def test_a_chain_has_its_kind_and_its_links_their_relations() -> None:
    src = Source.of("s = 1 + 1 ≈ 2 → 3")
    (chain,) = chains_of(Mapped.of(src.text, 0, len(src.text)), src, ChainKind.TEXT)
    assert chain.kind is ChainKind.TEXT
    assert [ln.relation for ln in chain.links] == [
        LinkRelation.NONE,
        LinkRelation.EQUALS,
        LinkRelation.APPROX,
        LinkRelation.STEP,
    ]
    assert all(isinstance(ln.relation, LinkRelation) for ln in chain.links)


def test_the_chains_outside_math_are_text_and_code() -> None:
    assert OUTSIDE_MATH == {ChainKind.TEXT, ChainKind.CODE}
    assert ChainKind.MATH not in OUTSIDE_MATH


def test_kinds_serialise_as_the_words_they_always_were() -> None:
    assert json.dumps([BlockKind.PROSE, Placement.OPERAND, WrittenIn.PRINTOUT]) == (
        '["prose", "operand", "printout"]'
    )
    assert f"{ChainKind.CODE}" == "code" and str(LinkRelation.APPROX) == "≈"


def test_the_own_names_are_the_texts_and_its_codes() -> None:
    assert OWN_NAMES == {RoleSource.NAME, RoleSource.CODE}
    assert not RoleSource.NONE  # (a fact without a role has no source: falsy, as "" was)
