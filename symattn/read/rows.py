"""The kinds of row the notations table (:mod:`symattn.read.notations`) is made of.

Each row carries the examples it must recognise (and some it must not); the table's tests
check every row against them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

#: characters searched on each side of a hint's match
_WINDOW: Final = 200


@dataclass(frozen=True)
class Example:
    """A text a pattern must find, with the groups it must capture there."""

    text: str
    groups: tuple[tuple[str, str], ...] = ()


def ex(text: str, **groups: str) -> Example:
    """``ex("q_1 = [1, 2]", role="q")``: an example and its captured groups."""
    return Example(text, tuple(groups.items()))


class Apply(StrEnum):
    """How the readers apply a pattern to a text (:meth:`Pattern.find`)."""

    SEARCH = "search"  #: anywhere in it
    MATCH = "match"  #: at its start
    FULLMATCH = "fullmatch"  #: to the whole of it


@dataclass(frozen=True)
class Pattern:
    """A notation recognised by a regular expression (``kind``: what a match states)."""

    name: str
    regex: re.Pattern[str]
    means: str
    examples: tuple[Example, ...]
    counterexamples: tuple[str, ...] = ()
    kind: str = ""
    #: how the readers apply it
    how: Apply = Apply.SEARCH
    #: for a pattern searched through a whole text: a fast pattern (literal fragments) that
    #: every match contains and that few other texts do; only the text around its matches
    #: is searched
    hint: re.Pattern[str] | None = None

    def scan(self, text: str) -> Iterator[re.Match[str]]:
        """Every match in ``text`` (as ``finditer``; through the hint's windows if there is
        one: a window of a few hundred characters around each place the hint matches)."""
        if self.hint is None:
            yield from self.regex.finditer(text)
            return
        end = -1
        for h in self.hint.finditer(text):
            if h.start() < end:
                continue
            a, end = max(0, h.start() - _WINDOW), min(len(text), h.end() + _WINDOW)
            for m in self.regex.finditer(text, a, end):
                yield m
                end = max(end, m.end())

    def first(self, text: str) -> re.Match[str] | None:
        """The first match in ``text`` (as ``search``, through the hint when there is one)."""
        return next(self.scan(text), None)

    def find(self, text: str) -> re.Match[str] | None:
        """The match in ``text`` the way the readers apply this row."""
        if self.how is Apply.FULLMATCH:
            return self.regex.fullmatch(text)
        if self.how is Apply.MATCH:
            return self.regex.match(text)
        return self.regex.search(text)

    def last(self, text: str) -> re.Match[str] | None:
        """The last match in ``text`` (``None`` if there is none)."""
        found = None
        for found in self.regex.finditer(text):  # noqa: B007 - the loop keeps the last one
            pass
        return found


@dataclass(frozen=True)
class Spelling:
    """A way of writing something (``\\times``) and the grammar's own spelling of it (``×``)."""

    written: str
    grammar: str


@dataclass(frozen=True)
class Word:
    """A word the reader recognises, and what it stands for."""

    text: str
    means: str


@dataclass(frozen=True)
class TokenRule:
    """One kind of token of the arithmetic grammar: its pattern and texts of that kind."""

    kind: str
    pattern: str
    examples: tuple[str, ...]


@dataclass(frozen=True)
class Chars:
    """A class of characters, with characters in it and characters not in it."""

    name: str
    chars: frozenset[str]
    means: str
    examples: str
    counterexamples: str = ""


def pattern(
    name: str,
    pattern: str,
    means: str,
    examples: tuple[Example | str, ...],
    counterexamples: tuple[str, ...] = (),
    *,
    kind: str = "",
    flags: int = 0,
    how: Apply = Apply.SEARCH,
    hint: str = "",
) -> Pattern:
    shown = tuple(e if isinstance(e, Example) else Example(e) for e in examples)
    fast = re.compile(hint) if hint else None
    return Pattern(name, re.compile(pattern, flags), means, shown, counterexamples, kind, how, fast)


@dataclass(frozen=True)
class Words:
    """A set of words that mean one thing (environment names, headings, phrases)."""

    name: str
    words: frozenset[str]
    means: str
    counterexamples: tuple[str, ...] = ()


def words(name: str, means: str, *items: str, counterexamples: tuple[str, ...] = ()) -> Words:
    """``words("math-environments", "…", "equation", "align")``."""
    return Words(name, frozenset(items), means, counterexamples)
