"""What reading a text finds, as it goes: the :class:`Reading` (blocks, chains, arrays,
tables, statements) and the budget of a text, shared by the readers of prose and math
(:mod:`symattn.read.reading`) and of code (:mod:`symattn.read.codeblocks`)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.judge.findings import Message
from symattn.read.arrays import Grid
from symattn.read.blocks import WORDS, Block, BlockKind
from symattn.read.code import Statement
from symattn.read.extract import ChainText, Skipped
from symattn.read.kinds import Placement
from symattn.read.mapped import Mapped
from symattn.read.messages import limit_exceeded, not_checked
from symattn.read.notations import LIST_MARKER, QUERY_HEADING
from symattn.read.python import Assigned, Defined, Shown, Step
from symattn.read.roles import RoleName
from symattn.read.source import Source
from symattn.read.tables import Table

__all__ = [
    "Placed",
    "Reading",
    "add_chains",
    "heading_level",
    "operand",
    "outside",
    "too_long",
]


#: how far back (characters) the words that say what an array is are looked for
_CONTEXT_REACH = 500
#: how many items of a list :meth:`Page.lead_in` walks back over to the paragraph above them
_LIST_REACH = 24


@dataclass(frozen=True)
class Placed:
    """An array found outside LaTeX math, with the block it is in and how it was found
    (``code``: a literal in a Python statement; ``comment``; ``output``: printed; ``text``)."""

    grid: Grid
    block: int
    how: Placement
    statement: int = -1  # index in Reading.statements, for code and comments
    #: the names a Python assignment gives it (``Q = K = V = [...]``)
    names: tuple[str, ...] = ()


@dataclass
class Reading:
    """What the blocks of one text hold."""

    src: Source
    blocks: list[Block]
    chains: list[ChainText] = field(default_factory=list)
    #: the block each chain is in
    chain_blocks: list[int] = field(default_factory=list)
    grids: list[Placed] = field(default_factory=list)
    tables: list[tuple[int, Table]] = field(default_factory=list)
    statements: list[tuple[int, Statement]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    #: what each statement says (Python facts), by statement index
    code_facts: list[tuple[int, Assigned | Defined | Shown | Step]] = field(default_factory=list)
    #: the start of a printed array -> what the code before it shows there
    shown: dict[int, Shown] = field(default_factory=dict)
    #: the offset of each literal array code assigns -> the stage its names say
    literal_roles: dict[int, RoleName] = field(default_factory=dict)
    #: blocks of code that are a program's printed output
    outputs: set[int] = field(default_factory=set)
    #: output blocks right after a block of code: what that code printed
    printed: set[int] = field(default_factory=set)
    #: where reading stopped (the end of the text, or where the budget ran out)
    end: int = -1
    #: characters of formulas read so far (the budget ``limits.max_math_length``)
    math_read: int = 0
    #: the budgets of reading (``max_formulas``, ``max_math_length``)
    limits: Limits = DEFAULT_LIMITS
    #: where a reader stopped inside a block because the budget was spent (-1: none did)
    cut: int = -1
    #: the last row of display math read (its block, the row, how many chains there were
    #: before it): a block of display math that starts with a relation continues it
    last_row: tuple[int, Mapped, int] | None = None

    def __post_init__(self) -> None:
        self._starts = [b.start for b in self.blocks]
        if self.end < 0:
            self.end = len(self.src.text)
        #: the indexes of the heading blocks among the first ``_scanned`` blocks
        self._headings: list[int] = []
        self._scanned = 0

    def section_query(self, block: int) -> str:
        """The query token the heading of ``block``'s section names (``## Query love``), or
        "" (the nearest 12 headings are looked at, up to one of level 1 or 2 that names none;
        through the list of headings, not block by block: no walk over the blocks between)."""
        for k in range(self._scanned, len(self.blocks)):
            if self.blocks[k].kind is BlockKind.HEADING:
                self._headings.append(k)
        self._scanned = len(self.blocks)
        last = bisect.bisect_right(self._headings, block)
        for k in reversed(self._headings[max(0, last - 12) : last]):
            b = self.blocks[k]
            text = self.src.text[b.start : b.end].strip()
            m = QUERY_HEADING.find(text)
            if m is not None:
                return m.group("token")
            if heading_level(text) <= 2:
                return ""
        return ""

    def titles(self) -> list[int]:
        """The offsets of the text's titles (``#``, ``\\section``): where a part begins."""
        return [
            b.start
            for b in self.blocks
            if b.kind is BlockKind.HEADING
            and heading_level(self.src.text[b.start : b.end].strip()) == 1
        ]

    @property
    def full(self) -> bool:
        """Whether the budget of formulas and arrays is spent."""
        return self.spent() is not None

    def spent(self) -> Message | None:
        """Why reading stops here (the budget spent, said as a limit), or None if it goes on."""
        read = len(self.chains) + len(self.grids) + len(self.tables)
        if read >= self.limits.max_formulas:
            what = not_checked("rest-formulas")
            return limit_exceeded("max_formulas", self.limits.max_formulas, what)
        if self.math_read >= self.limits.max_math_length:
            what = not_checked("rest-math")
            return limit_exceeded("max_math_length", self.limits.max_math_length, what)
        return None

    def stop(self, at: int) -> None:
        """A reader stops at offset ``at`` of its block: the budget is spent (the rest of the
        text, from the first such place, is said to be not read)."""
        if self.cut < 0:
            self.cut = at

    def block_of(self, at: int) -> int:
        """The index of the block that holds offset ``at`` (the one before it if none)."""
        return max(bisect.bisect_right(self._starts, at) - 1, 0)

    def context(self, block: int, at: int) -> str:
        """The words before offset ``at`` that may say what is there: the lines above it in
        its block (back to the previous array), the prose block before it, and the heading
        of its section."""
        text = self.src.text
        b = self.blocks[block] if self.blocks else None
        parts: list[str] = []
        if b is not None:
            lo = max(b.start, at - _CONTEXT_REACH)
            parts.append(text[lo:at])
            k = block - 1
            seen_code = 0
            while k >= 0 and len(parts) < 4:
                pb = self.blocks[k]
                if pb.kind in WORDS:
                    parts.append(text[max(pb.start, pb.end - _CONTEXT_REACH) : pb.end])
                    if pb.kind is BlockKind.HEADING:
                        break
                    if seen_code or k < block - 1:
                        break
                elif pb.kind is BlockKind.CODE:
                    seen_code += 1
                    if seen_code > 1:
                        break
                else:
                    break
                k -= 1
        return "\n".join(reversed(parts))

    def lead_in(self, block: int) -> str:
        """The paragraph that leads in the list a block is an item of (``Row 1:`` above
        ``- exp(…)``, ``- Sum …``, ``- Weights …``), or "" when the block is no list item."""
        text = self.src.text
        k = block
        for _ in range(_LIST_REACH):
            if k < 0 or not self._item(k):
                break
            k -= 1
        else:
            return ""
        if k == block or k < 0:
            return ""
        b = self.blocks[k]
        return text[b.start : b.end] if b.kind is BlockKind.PROSE else ""

    def _item(self, k: int) -> bool:
        """Whether block ``k`` is prose whose line starts with a list marker."""
        b = self.blocks[k]
        line = self.src.text[self.src.text.rfind("\n", 0, b.start) + 1 : b.end]
        return b.kind is BlockKind.PROSE and LIST_MARKER.find(line) is not None


def heading_level(text: str) -> int:
    """1 for ``#``/``\\section``, 2 for ``##``/``\\subsection``, …"""
    if text.startswith("#"):
        return len(text) - len(text.lstrip("#"))
    m = re.match(r"\\((?:sub)*)section", text)
    return 1 + len(m.group(1)) // 3 if m else 3


def too_long(r: Reading, ln: Mapped, limits: Limits) -> bool:
    """Whether a line of text is over ``max_line_length`` (then it is said, not read)."""
    if len(ln.text) <= limits.max_line_length:
        return False
    line, _ = r.src.position(ln.at(0))
    reason = not_checked("line-too-long", limit=limits.max_line_length)
    r.skipped.append(Skipped(line, ln.text[:80], reason))
    return True


def add_chains(r: Reading, block: int, found: list[ChainText]) -> None:
    r.math_read += sum(len(ln.text) for c in found for ln in c.links)
    r.chains.extend(found)
    r.chain_blocks.extend([block] * len(found))


def operand(text: str, g: Grid) -> bool:
    """Whether an array written in text is a factor or a term of an expression
    (``0.39 * [0, 1, 1]``, ``[0, 0.39] + [0.39, 0]``): then it is no value of its own."""
    i = g.end
    while i < len(text) and text[i] in " \t":
        i += 1
    if i < len(text) and text[i] in _OPERATORS:
        return True
    j = g.start - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    if j >= 0 and text[j] == "(" and not g.wrapper:
        return True  # an argument: `Softmax([0.122, 0.19])`
    return j >= 0 and text[j] in _OPERATORS


def outside(grids: list[Grid], skip: list[tuple[int, int]]) -> list[Grid]:
    if not skip:
        return grids
    starts = sorted(skip)
    keys = [s for s, _ in starts]
    out = []
    for g in grids:
        k = bisect.bisect_right(keys, g.start) - 1
        if k >= 0 and starts[k][0] <= g.start < starts[k][1]:
            continue
        out.append(g)
    return out


_OPERATORS = "+-*/×·÷@⊙"
