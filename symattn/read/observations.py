"""Typed things the reader found in a text, passed from reading to the rebuilt problem.

A :class:`Spot` is a number as written and where; a :class:`Stated` is what one chain states
(Level 1 keeps them); a :class:`Scan` is what one pass over the lines found: input vectors,
tables, embeddings, weight matrices and claims made in prose.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from symattn.numbers import Written
from symattn.read.syntax import Node

__all__ = ["Scan", "Spot", "Stated", "texts"]


@dataclass(frozen=True)
class Spot:
    """A number as written, and where (1-based line and column, and its source offset)."""

    written: Written
    line: int
    column: int
    at: int = -1


def texts(spots: tuple[Spot, ...]) -> list[str]:
    """The numbers as written."""
    return [s.written.text for s in spots]


@dataclass(frozen=True)
class Stated:
    """What one chain states: its label, first link, the numbers of its literal links (with
    the shape each is written in), the text of every link, and where the chain starts."""

    label: str
    first: str
    node: Node | None
    literals: tuple[tuple[Spot, ...], ...]
    line: int
    shapes: tuple[tuple[int, ...], ...] = ()
    links: tuple[str, ...] = ()
    at: int = -1
    before: str = ""
    #: the value follows a step ``→`` and takes the name of what the step before names
    stepped: bool = False


#: numbers of one row (a vector, a table cell, a row of a matrix)
Row = tuple[Spot, ...]


@dataclass(frozen=True)
class Scan:
    """What one scan of a text's lines found (each mapping in the order of the text)."""

    #: ``q_1 = [1, 2]``: role (Q, K, V) -> index -> numbers
    vectors: Mapping[str, Mapping[str, Row]]
    #: ``k_1 (Thinking)``: index -> token
    names: Mapping[str, str]
    #: a ``token | Q | K | V`` table: token -> role -> numbers
    table: Mapping[str, Mapping[str, Row]]
    #: a table of embeddings: token -> numbers
    x: Mapping[str, Row]
    #: weight matrices: ``W_Q`` -> rows
    w: Mapping[str, tuple[Row, ...]]
    #: prose claims: (weights | weight | output, numbers)
    prose: tuple[tuple[str, Row], ...]
    #: single weights ``w_1 … ≈ 0.82``: (key index or token, weight)
    weights: tuple[tuple[str, Spot], ...]
