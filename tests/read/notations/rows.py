"""What every row of a notations table must do, whatever its kind (shared by the tests of
each table)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from symattn.read.rows import Chars, Pattern, Spelling, TokenRule, Word, Words

Row = Pattern | Words | Chars | Spelling | TokenRule | Word


def rows_of(module: ModuleType) -> list[tuple[str, Row]]:
    """Every row the module's ``__all__`` names (rows inside tuples too), with an id."""
    out: list[tuple[str, Row]] = []
    for name in module.__all__:
        value = getattr(module, name)
        items = value if isinstance(value, tuple) else (value,)
        for k, item in enumerate(items):
            if isinstance(item, (Pattern, Words, Chars, Spelling, TokenRule, Word)):
                out.append((f"{name}[{k}]" if isinstance(value, tuple) else name, item))
    return out


def check_pattern(row: Pattern, clean: Callable[[str], str] = str) -> None:
    """Each example is found the way the readers apply the row (:meth:`Pattern.find`), with
    the groups it names; no counterexample is. ``clean`` prepares a text first."""
    assert row.examples, f"{row.name} has no example"
    for example in row.examples:
        text = clean(example.text)
        m = row.find(text)
        assert m is not None, f"{row.name}: {example.text!r} not recognised"
        for group, expected in example.groups:
            got = m.group(int(group) if group.isdigit() else group)
            assert got == expected, f"{row.name}: {example.text!r} gives {group}={got!r}"
        if row.hint is not None:  # the hint is in every match: the scan finds it too
            assert row.first(text) is not None, f"{row.name}: the hint misses {example.text!r}"
    for text in row.counterexamples:
        text = clean(text)
        assert row.find(text) is None, f"{row.name}: {text!r} must not be recognised"


def check_words(row: Words) -> None:
    assert row.words and row.means
    assert not set(row.counterexamples) & row.words


def check_chars(row: Chars) -> None:
    assert all(c in row.chars for c in row.examples)
    assert not any(c in row.chars for c in row.counterexamples)


def check_row(row: Row) -> None:
    """The checks of a row by its kind."""
    if isinstance(row, Pattern):
        check_pattern(row)
    elif isinstance(row, Words):
        check_words(row)
    elif isinstance(row, Chars):
        check_chars(row)
    elif isinstance(row, Word):
        assert row.text and row.means
