"""Typed things the reader found in a text, passed from reading to the rebuilt problem.

A :class:`Spot` is a number as written and where; a :class:`Stated` is what one chain states
(Level 1 keeps them, the facts are read from them).
"""

from __future__ import annotations

from dataclasses import dataclass

from symattn.numbers import Written
from symattn.read.syntax import Node

__all__ = ["Spot", "Stated", "texts"]


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
    #: the names of the rows of its matrix (a column of labels beside it)
    row_names: tuple[str, ...] = ()
    #: the chain computes its value from written numbers alone (``d_k = 512/8 = 64``): the
    #: value for the inputs of that computation, which may be another example's
    derived: bool = False
