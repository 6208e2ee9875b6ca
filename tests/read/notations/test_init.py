"""Tests of symattn.read.notations as a whole: every row of its tables is exported (and so
tested by its table's test module, which checks the rows ``__all__`` names)."""

from __future__ import annotations

from types import ModuleType

import pytest

from symattn.read import notations
from symattn.read.notations import arrays, claims, grammar, roles, text
from symattn.read.rows import Chars, Pattern, Spelling, TokenRule, Word, Words

_ROW_TYPES = (Pattern, Words, Chars, Spelling, TokenRule, Word)


@pytest.mark.parametrize("module", [arrays, claims, grammar, roles, text], ids=lambda m: m.__name__)
def test_every_row_of_a_table_is_in_its_all(module: ModuleType) -> None:
    rows = [
        name
        for name, value in vars(module).items()
        if name.isupper()
        and not name.startswith("_")
        and (
            isinstance(value, _ROW_TYPES)
            or (isinstance(value, tuple) and value and isinstance(value[0], _ROW_TYPES))
        )
    ]
    assert rows
    assert sorted(set(rows) - set(module.__all__)) == []


def test_the_package_exports_its_tables_rows() -> None:
    assert {"WORD_TIMES", "TEXT_NAME", "SQRT_DK"} <= set(notations.__all__)
