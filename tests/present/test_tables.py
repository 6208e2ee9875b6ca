"""Tests of symattn.present.tables: the data tables and the projections."""

from __future__ import annotations

import pytest

from .examples import doc_of


@pytest.mark.parametrize(
    ("seed", "tables"),
    [
        ("thinking_machines", ["table_q", "table_kv"]),
        ("animal_street", ["table_x", "table_w", "table_w", "table_w", "table_qkv_x"]),
    ],
)
def test_queries_given_apart_get_their_own_table(seed: str, tables: list[str]) -> None:
    doc = doc_of(seed)
    assert [t.caption.key for t in doc.tables] == tables
    names = [
        row[0].content
        for t in doc.tables
        for row in t.rows
        if t.caption.key in ("table_q", "table_kv")
    ]
    assert names == (["Thinking", "Thinking", "Machines"] if seed == "thinking_machines" else [])
