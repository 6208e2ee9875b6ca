"""Stage 2 of reading: what each block holds, found by the reading rules of its kind.

:data:`READERS` is the ordered list of reading rules (a :class:`~symattn.read.ruler.Ruler`,
like markdown-it's block rules): each takes the one :class:`BlockState` of a block and reads
what its notation finds there:

- prose and headings: the formulas of their inline math (and of LaTeX environments written
  in prose), of their inline code and of their lines; arrays written in them;
- display math: its formulas, row by row (matrices are read by the grammar);
- tables: their cells (:mod:`symattn.read.tables`);
- code: Python statements (:mod:`symattn.read.code`; comments keep the arrays they state),
  and the rest as text: printed outputs, formulas, arrays side by side, plain rows.

The result, a :class:`Reading`, holds the chains, the arrays (each with the block it is in
and the text around it) and the statements; :mod:`symattn.read.census` is told which numbers
were read."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Final

from symattn.config import Limits
from symattn.judge.findings import Message
from symattn.read.arrays import Grid, plain_rows, prose_numbers, scan_arrays
from symattn.read.blocks import WORDS, Block, BlockKind, iter_blocks
from symattn.read.census import Census
from symattn.read.codeblocks import link_code, read_code
from symattn.read.extract import ChainText, Link, Skipped, chains_of, with_result_expression
from symattn.read.formulas import math_rows, starts_with_relation, text_lines, unmarked
from symattn.read.kinds import ChainKind, LinkRelation, Placement
from symattn.read.layout import listed_rows, stack_rows
from symattn.read.mapped import Mapped, MappedBuilder
from symattn.read.messages import limit_exceeded, not_checked
from symattn.read.notations import INLINE_JOIN, MATRIX_ENVIRONMENTS, PROSE_RELATION_END, PROSE_WORD
from symattn.read.notes import plain_label
from symattn.read.page import (
    Placed,
    Reading,
    add_chains,
    operand,
    outside,
    too_long,
)
from symattn.read.ruler import Rule, Ruler
from symattn.read.source import Source
from symattn.read.tables import read_table, text_tables

__all__ = ["READERS", "BlockState", "Placed", "Reading", "read", "read_end"]


def read(src: Source, fmt: str, census: Census, limits: Limits) -> Reading:
    """Read the blocks of ``src`` in order, up to ``limits.max_formulas`` formulas and arrays,
    ``limits.max_math_length`` characters of formulas and ``limits.max_read_length``
    characters of text (the rest of the text is then not read, and said so: its numbers are
    counted by the census, each with that reason)."""
    r = Reading(src, [], limits=limits)
    line_starts = list(src._line_starts)
    end = read_end(src.text, limits.max_read_length)
    for i, b in enumerate(iter_blocks(src, fmt, end)):
        if reason := r.spent():
            _not_read(r, census, b.start if r.cut < 0 else r.cut, reason)
            break
        r.blocks.append(b)  # (the readers look back at the blocks before)
        r._starts.append(b.start)
        if b.end - b.start > limits.max_file_bytes:
            continue
        READERS.run(BlockState(r, i, b, fmt, line_starts, limits), b.kind)
    else:
        if r.cut >= 0:  # (the budget spent inside the last block)
            spent = r.spent()
            assert spent is not None  # (the budget spent: that is why it cut)
            _not_read(r, census, r.cut, spent)
        elif end < len(src.text):
            what = not_checked("rest-text")
            _not_read(
                r, census, end, limit_exceeded("max_read_length", limits.max_read_length, what)
            )
    link_code(r)
    for placed in r.grids:
        for e in placed.grid.entries:
            if e.written is not None:
                census.read(e.at)
    for _, t in r.tables:
        for e in t.entries():
            census.read(e.at)
    return r


def read_end(text: str, budget: int) -> int:
    """Where reading stops: the end of the text, or the end of the line ``budget`` characters
    are in (of the 10 000 characters after it, else right there)."""
    if len(text) <= budget:
        return len(text)
    line_end = text.find("\n", budget, budget + 10_000)
    return line_end + 1 if line_end >= 0 else budget


def _not_read(r: Reading, census: Census, at: int, reason: Message) -> None:
    """The text from ``at`` on is not read: said once, and its numbers counted as such."""
    head = r.src.text[at : at + 1000]
    shown = at + len(head) - len(head.lstrip())  # (the line it is said at: the first word)
    line, _ = r.src.position(shown)
    r.skipped.append(Skipped(line, r.src.text[shown : shown + 80], reason))
    census.why_not(at, len(r.src.text), reason)
    r.end = at


def _math(r: Reading, block: int, a: int, b: int, kind: ChainKind, limits: Limits) -> None:
    if b - a > limits.max_line_length:
        line, _ = r.src.position(a)
        r.skipped.append(
            Skipped(
                line,
                r.src.text[a : a + 80],
                not_checked("math-too-long", limit=limits.max_line_length),
            )
        )
        return
    for row in math_rows(r.src.text, a, b):
        if r.full:
            r.stop(row.at(0) if row.starts else a)
            break
        add_chains(r, block, chains_of(row, r.src, kind))


@dataclass
class BlockState:
    """What the reading rules of one block share: the reading so far, the block and its
    index, the format, the line starts of the text and the budgets."""

    r: Reading
    i: int
    b: Block
    fmt: str
    line_starts: list[int]
    limits: Limits
    #: prose read as the left side of the inline math after it (``Q = $\\begin{pmatrix}…$``)
    taken: list[tuple[int, int]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.r.src.text

    @property
    def skip(self) -> list[tuple[int, int]]:
        """The inline math of the block with its delimiters (read by the math rules), and the
        prose read with it."""
        return sorted([(a - 2, e + 2) for a, e in self.b.math] + self.taken)


def _inline_math(s: BlockState) -> bool:
    """The formulas of the block's inline math; ``$k_1$ (Thinking) $= [1, 2]$`` joined; an
    array alone in inline math named by the words before it."""
    r, i, b, text = s.r, s.i, s.b, s.text
    prev: ChainText | None = None
    prev_added = False  # whether ``prev`` is the last chain added (or a lone piece)
    prev_end = b.start
    label_from = b.start  # (the words before an earlier array of the line are its label)
    for a, e in b.math:
        between = text[prev_end : max(prev_end, a - 1)]
        found = [
            c
            for row in math_rows(text, a, e)
            for c in chains_of(row, r.src, ChainKind.MATH, _word_before(between))
        ]
        join = INLINE_JOIN.find(between.strip("$ ")) if found and prev is not None else None
        if join is not None and prev is not None and found[0].links[0].text == "":
            # `$k_1$ (Thinking) $= [1, 2]$`: the second piece continues the first, and the
            # token in parentheses names the first piece's row
            first = prev.links[0]
            if join.group("token") and len(prev.links) == 1:
                at = prev_end + between.index(join.group("token"))
                first = _with_token(first, at, join.group("token"), r.src)
            joined = ChainText(
                (first, *prev.links[1:], *found[0].links[1:]), prev.kind, prev.before
            )
            if prev_added:
                r.chains[-1] = joined
            else:
                add_chains(r, i, [joined])
            found = found[1:]
            prev, prev_added = joined, True
        if not found and prev_end <= a:
            found = _left_in_prose(s, prev_end, a, e)
        add_chains(r, i, found)
        if not found and prev_end <= a:
            # `当前注意力权重： $[0.82, 0.18]$`: an array named by the words before it
            grids = scan_arrays(text, a, e, s.limits)
            if (
                len(grids) == 1
                and not text[a : grids[0].start].strip()
                and not text[grids[0].end : e].strip()
            ):
                line_start = text.rfind("\n", b.start, a) + 1
                label = text[max(line_start, label_from, a - 80) : a].strip(" $:：")
                r.grids.append(Placed(replace(grids[0], label=label), i, Placement.TEXT))
                label_from = e + 1
        if found:
            prev, prev_added = found[-1], True
        elif any(ch.isalnum() for ch in text[a:e]):
            prev, prev_added = _lone(text[a:e], r, a, e), False
        prev_end = e + 1
    return False


#: inline math that holds one matrix environment and nothing else
_ONE_MATRIX: Final = re.compile(
    r"\s*\\begin\s*\{(?P<env>[A-Za-z]+)\}[\s\S]*\\end\s*\{(?P=env)\}\s*"
)


def _left_in_prose(s: BlockState, lo: int, a: int, e: int) -> list[ChainText]:
    """``Scores = $\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}$``: one matrix alone in
    inline math after prose whose last clause ends with a relation is the right side of that
    clause's formula (the clause, from the line's start or the math before it, is taken)."""
    text = s.text
    one = _ONE_MATRIX.fullmatch(text, a, e)
    if (
        one is None
        or one["env"] not in MATRIX_ENVIRONMENTS.words
        or text.count("\\begin", a, e) > 1
    ):
        return []  # (no matrix, or two: no single value)
    opening = a - 1 if text[a - 1 : a] == "$" else a - 2  # (``$`` or ``\\(``)
    start = max(lo, text.rfind("\n", s.b.start, a) + 1)
    clause = PROSE_RELATION_END.regex.search(text, start, max(start, opening))
    if clause is None:
        return []
    rows = list(math_rows(text, a, e))
    if len(rows) != 1:
        return []
    left = unmarked(text, clause.start("left"), clause.end())
    found = chains_of(Mapped.concat(left, rows[0]), s.r.src, ChainKind.MATH)
    if found:
        s.taken.append((clause.start("left"), clause.end()))
    return found


def _latex_in_prose(s: BlockState) -> bool:
    """LaTeX environments written in prose (outside ``$…$``): that prose is math (a stray
    ``$`` of broken Markdown is not part of it), and the block is read."""
    text, b = s.text, s.b
    unmath = _pieces(b.start, b.end, s.skip)
    if not any("\\begin" in text[a:e] for a, e in unmath):
        return False
    for a, e in unmath:
        dollars = [(k, k + 1) for k in range(a, e) if text[k] == "$"]
        for x, y in _pieces(a, e, dollars):
            if text[x:y].strip():
                _math(s.r, s.i, x, y, ChainKind.MATH, s.limits)
    return True


def _inline_code(s: BlockState) -> bool:
    """Arrays in inline code, named by the words before the code (``**K_animal (Exact
    Match):** `[3, 1]```)."""
    r, b, text = s.r, s.b, s.text
    for a, e in b.code:
        for g in scan_arrays(text, a, e, s.limits):
            if not g.label:
                line_start = text.rfind("\n", b.start, a) + 1
                g = replace(g, label=plain_label(text[max(line_start, b.start, a - 80) : a - 1]))
            r.grids.append(Placed(g, s.i, _in_text(text, g)))
    return False


def _text_lines(s: BlockState) -> bool:
    """The formulas of the block's lines (inline code read with the prose around it:
    ``Softmax = `[0.02, 0.12]```)."""
    r, b = s.r, s.b
    markdown = s.fmt in ("markdown", "text")
    for ln in text_lines(s.text, b.start, b.end, s.skip, markdown=markdown):
        if r.full:
            r.stop(ln.at(0) if ln.starts else b.start)
            break
        if too_long(r, ln, s.limits):
            continue
        found = [with_result_expression(c, r.src) for c in chains_of(ln, r.src, ChainKind.TEXT)]
        add_chains(r, s.i, found)
    return False


def _text_arrays(s: BlockState) -> bool:
    """Arrays written in the prose (outside its math and code): vectors listed after one
    label joined into a matrix, one-line vectors on consecutive lines stacked into matrices."""
    r, b, text = s.r, s.b, s.text
    grids = scan_arrays(text, b.start, b.end, s.limits)
    grids = outside(grids, s.skip + [(a, e) for a, e in b.code])
    for g in stack_rows(text, listed_rows(text, grids), s.line_starts):
        r.grids.append(Placed(g, s.i, _in_text(text, g)))
    return False


def _plain_rows(s: BlockState) -> bool:
    """Plain text: lines of numbers only are arrays."""
    if s.fmt == "text":
        for g in outside(plain_rows(s.text, s.b.start, s.b.end, s.limits), s.skip):
            s.r.grids.append(Placed(g, s.i, Placement.TEXT))
    return False


def _prose_numbers(s: BlockState) -> bool:
    """Single numbers after the word for their stage (``（权重 0.79）``)."""
    for g in outside(prose_numbers(s.text, s.b.start, s.b.end, s.limits), s.skip):
        s.r.grids.append(Placed(g, s.i, Placement.TEXT))
    return False


def _text_tables(s: BlockState) -> bool:
    """Tables written as aligned plain text."""
    for t in text_tables(s.r.src, s.b.start, s.b.end, s.limits):
        s.r.tables.append((s.i, t))
    return False


def _display_math(s: BlockState) -> bool:
    """Display math, row by row; a block that starts with a relation and follows another
    block of display math with only delimiters between them (``$$[…]$$`` / ``$$= […]$$``)
    continues that block's last row."""
    r, b = s.r, s.b
    if b.end - b.start > s.limits.max_line_length:
        _math(r, s.i, b.start, b.end, ChainKind.MATH, s.limits)
        return True
    rows = list(math_rows(r.src.text, b.start, b.end))
    last, r.last_row = r.last_row, None
    for k, row in enumerate(rows):
        if r.full:
            r.stop(row.at(0) if row.starts else b.start)
            return True
        count = len(r.chains)
        if k == 0 and last is not None and _continues(s, last[0], row):
            _, before, count = last
            r.math_read -= sum(len(ln.text) for c in r.chains[count:] for ln in c.links)
            del r.chains[count:], r.chain_blocks[count:]
            row = Mapped.concat(before, row)
        add_chains(r, s.i, chains_of(row, r.src, ChainKind.MATH))
        r.last_row = (s.i, row, count)
    return True


#: what may stand between two blocks of display math of one formula: their delimiters
_DELIMITERS: Final = frozenset(" \t\n$\\[]")


def _continues(s: BlockState, block: int, row: Mapped) -> bool:
    if block != s.i - 1 or not starts_with_relation(row):
        return False
    prev = s.r.blocks[block]
    return prev.kind is BlockKind.MATH and set(s.text[prev.end : s.b.start]) <= _DELIMITERS


def _table(s: BlockState) -> bool:
    s.r.tables.append((s.i, read_table(s.r.src, s.b, s.limits)))
    return True


def _code(s: BlockState) -> bool:
    read_code(s.r, s.i, s.b, s.line_starts, s.limits)
    return True


_PROSE: Final = WORDS

#: the reading rules, in the order they run on a block (each reads the kinds it names):
#: a new notation or format adds its rule here, before or after the rule it must follow
READERS: Final[Ruler[BlockState]] = Ruler.of(
    (
        Rule("inline-math", _inline_math, _PROSE),
        Rule("latex-in-prose", _latex_in_prose, _PROSE),
        Rule("inline-code", _inline_code, _PROSE),
        Rule("text-lines", _text_lines, _PROSE),
        Rule("text-arrays", _text_arrays, _PROSE),
        Rule("plain-rows", _plain_rows, _PROSE),
        Rule("prose-numbers", _prose_numbers, _PROSE),
        Rule("text-tables", _text_tables, _PROSE),
        Rule("display-math", _display_math, frozenset({BlockKind.MATH})),
        Rule("table", _table, frozenset({BlockKind.TABLE})),
        Rule("code", _code, frozenset({BlockKind.CODE})),
    )
)


def _in_text(text: str, g: Grid) -> Placement:
    """How an array of running text is placed: an operand of an expression, or a value."""
    return Placement.OPERAND if operand(text, g) else Placement.TEXT


def _pieces(start: int, end: int, cuts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``[start, end)`` outside the sorted spans ``cuts``."""
    out = []
    cur = start
    for a, e in sorted(cuts):
        if a > cur:
            out.append((cur, min(a, end)))
        cur = max(cur, e)
    if cur < end:
        out.append((cur, end))
    return out


def _with_token(link: Link, at: int, token: str, src: Source) -> Link:
    """``k_1`` followed by ``(Thinking)`` outside the math: the link ``k_1 (Thinking)``."""
    b = MappedBuilder()
    for run, origin, length in link.where.runs():
        b.add(run, origin, length)
    b.add(" (", at, 0)
    b.add(token, at, len(token))
    b.add(")", at + len(token), 0)
    built = b.build()
    return Link(built.text, link.relation, built, src)


def _lone(body: str, r: Reading, a: int, e: int) -> ChainText | None:
    """A piece of inline math without a relation (``$k_1$``): the start a later ``$= …$``
    piece may continue."""
    m = Mapped.of(r.src.text, a, e)
    if "=" in body or "≈" in body:
        return None
    return ChainText((Link(body.strip(), LinkRelation.NONE, m, r.src),), ChainKind.MATH)


def _word_before(between: str) -> str:
    word = PROSE_WORD.regex.search(between)
    return word.group(1) if word else ""
