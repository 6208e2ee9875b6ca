"""The kinds the reader tells apart, each an enum declared once: what a block of the document
is (:class:`BlockKind`), how a chain was written (:class:`ChainKind`) and the relation
before each of its links (:class:`LinkRelation`), how an array outside LaTeX math was found
(:class:`Placement`), where a fact is written (:class:`WrittenIn`) and where its role was
read (:class:`RoleSource`).

They are StrEnums: a kind's value is the word reports, specs and tests have always written,
so a kind serialises as before.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = [
    "OUTSIDE_MATH",
    "OWN_NAMES",
    "WORDS",
    "BlockKind",
    "ChainKind",
    "LinkRelation",
    "Placement",
    "RoleSource",
    "WrittenIn",
]


class BlockKind(StrEnum):
    """What a block of a document is (:class:`symattn.read.blocks.Block`)."""

    HEADING = "heading"  #: a heading (Markdown ``#``, LaTeX ``\\section``)
    PROSE = "prose"  #: a paragraph of running text (inline math and code inside it)
    MATH = "math"  #: display math (``$$…$$``, ``\\begin{align}``)
    TABLE = "table"  #: a table (Markdown pipes, LaTeX ``tabular``)
    CODE = "code"  #: a code block (a fence, an indented block, ``lstlisting``)


#: the blocks of running text (a heading is words too)
WORDS: Final = frozenset({BlockKind.PROSE, BlockKind.HEADING})


class Placement(StrEnum):
    """How an array outside LaTeX math was found (:class:`symattn.read.page.Placed`)."""

    CODE = "code"  #: a literal in a Python statement
    COMMENT = "comment"  #: in a comment of code
    OUTPUT = "output"  #: printed: in the output of code, or a printout in a code block
    OPERAND = "operand"  #: a factor or a term of an expression (``0.39 * [0, 1, 1]``)
    TEXT = "text"  #: in running text


class WrittenIn(StrEnum):
    """Where the text writes a fact (:class:`symattn.read.facts.Fact`)."""

    MATH = "math"  #: a chain of math or arithmetic (``w = [0.2, 0.8]``)
    CODE = "code"  #: a literal in code
    PRINTOUT = "printout"  #: what code printed
    COMMENT = "comment"  #: a comment of code
    TABLE = "table"  #: a column of a table
    TEXT = "text"  #: running text


class ChainKind(StrEnum):
    """How a chain ``a = b ≈ c`` was written (:class:`symattn.read.extract.ChainText`)."""

    MATH = "math"  #: in math (display or inline)
    TEXT = "text"  #: in running text
    CODE = "code"  #: in code (a statement, a comment, a printout)


#: the chains written outside math, whose brackets must balance on their line
OUTSIDE_MATH: Final = frozenset({ChainKind.TEXT, ChainKind.CODE})


class LinkRelation(StrEnum):
    """The relation before a link of a chain, in the grammar's spelling
    (:class:`symattn.read.extract.Link`; see :data:`symattn.read.extract.LINKS`)."""

    NONE = ""  #: none: the chain's first link
    EQUALS = "="  #: equal to the link before
    APPROX = "≈"  #: approximately equal: a rounding of the link before
    STEP = "→"  #: a step to the next stage (Level 1 starts a new chain there)


class RoleSource(StrEnum):
    """Where the role of a fact was read (:class:`symattn.read.facts.Fact`)."""

    NONE = ""  #: nowhere: the fact has no role
    NAME = "name"  #: its own name (an assignment, a chain's label, a symbol)
    LABEL = "label"  #: the label written before it
    CONTEXT = "context"  #: the prose before it: words only
    INHERITED = "inherited"  #: the step of its chain before it
    CODE = "code"  #: the code that computes it
    REPRODUCED = "reproduced"  #: its numbers, reproduced from other arrays


#: roles the text (or its code) gives the array itself
OWN_NAMES: Final = frozenset({RoleSource.NAME, RoleSource.CODE})
