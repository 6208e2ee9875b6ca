"""Stage 2 of reading: what each block holds, found by the reader of its kind.

- prose and headings: the formulas of their inline math (and of LaTeX environments written
  in prose), of their inline code and of their lines; arrays written in them;
- display math: its formulas, row by row (matrices are read by the grammar);
- tables: their cells (:mod:`symattn.read.tables`);
- code: Python statements (:mod:`symattn.read.code`; comments keep the arrays they state),
  and the rest as text: printed outputs, formulas, arrays side by side, plain rows.

The result, a :class:`Reading`, holds the chains, the arrays (each with the block it is in
and the text around it) and the statements; :mod:`symattn.read.census` is told which numbers
were read.
"""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass, field, replace
from typing import Final

from symattn.config import Limits
from symattn.read.arrays import Grid, plain_rows, prose_numbers, scan_arrays
from symattn.read.blocks import Block, iter_blocks
from symattn.read.census import Census
from symattn.read.code import Statement, statements
from symattn.read.extract import ChainText, Link, Skipped, chains_of, with_result_expression
from symattn.read.formulas import math_rows, text_lines
from symattn.read.layout import side_by_side, stack_rows
from symattn.read.mapped import Mapped, MappedBuilder
from symattn.read.notations import ARRAY_CALLS, INLINE_JOIN, PROSE_WORD, QUERY_HEADING
from symattn.read.python import Assigned, Defined, Shown, Step, expr_text, facts_of
from symattn.read.roles import symbol_role
from symattn.read.source import Source
from symattn.read.tables import Table, read_table, text_tables

__all__ = ["Placed", "Reading", "read"]

#: how far back (characters) the words that say what an array is are looked for
_CONTEXT_REACH = 500


@dataclass(frozen=True)
class Placed:
    """An array found outside LaTeX math, with the block it is in and how it was found
    (``code``: a literal in a Python statement; ``comment``; ``output``: printed; ``text``)."""

    grid: Grid
    block: int
    how: str
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
    literal_roles: dict[int, str] = field(default_factory=dict)
    #: blocks of code that are a program's printed output
    outputs: set[int] = field(default_factory=set)
    #: output blocks right after a block of code: what that code printed
    printed: set[int] = field(default_factory=set)
    #: where reading stopped (the end of the text, or where the budget ran out)
    end: int = -1
    #: characters of formulas read so far (the budget :data:`MAX_MATH`)
    math_read: int = 0

    def __post_init__(self) -> None:
        self._starts = [b.start for b in self.blocks]
        if self.end < 0:
            self.end = len(self.src.text)

    def section_query(self, block: int) -> str:
        """The query token the heading of ``block``'s section names (``## Query love``), or
        "" (the nearest headings are looked at, up to one of level 1 or 2 that names none)."""
        k, seen = block, 0
        while k >= 0 and seen < 12:
            b = self.blocks[k]
            if b.kind == "heading":
                seen += 1
                text = self.src.text[b.start : b.end].strip()
                m = QUERY_HEADING.find(text)
                if m is not None:
                    return m.group("token")
                if _heading_level(text) <= 2:
                    return ""
            k -= 1
        return ""

    @property
    def full(self) -> bool:
        """Whether the budget of formulas and arrays is spent."""
        return (
            len(self.chains) + len(self.grids) + len(self.tables) >= MAX_FORMULAS
            or self.math_read >= MAX_MATH
        )

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
                if pb.kind in ("prose", "heading"):
                    parts.append(text[max(pb.start, pb.end - _CONTEXT_REACH) : pb.end])
                    if pb.kind == "heading":
                        break
                    if seen_code or k < block - 1:
                        break
                elif pb.kind == "code":
                    seen_code += 1
                    if seen_code > 1:
                        break
                else:
                    break
                k -= 1
        return "\n".join(reversed(parts))


def _heading_level(text: str) -> int:
    """1 for ``#``/``\\section``, 2 for ``##``/``\\subsection``, …"""
    if text.startswith("#"):
        return len(text) - len(text.lstrip("#"))
    m = re.match(r"\\((?:sub)*)section", text)
    return 1 + len(m.group(1)) // 3 if m else 3


#: formulas, arrays and tables one text is read for (a budget: each costs a fraction of a
#: millisecond, and a hostile text of millions of them would take hours)
MAX_FORMULAS: Final = 5_000
#: characters of formulas one text is read for (a sum of tens of thousands of terms takes
#: seconds to judge exactly)
MAX_MATH: Final = 100_000


def read(src: Source, fmt: str, census: Census, limits: Limits) -> Reading:
    """Read the blocks of ``src`` in order, up to :data:`MAX_FORMULAS` formulas and arrays
    (the rest of the text is then not read, and said so)."""
    r = Reading(src, [])
    line_starts = list(src._line_starts)
    for i, b in enumerate(iter_blocks(src, fmt)):
        if r.full:
            line, _ = src.position(b.start)
            reason = (
                f"more than {MAX_FORMULAS} formulas and arrays, or {MAX_MATH} characters of "
                "formulas: the rest is not read"
            )
            r.skipped.append(Skipped(line, src.text[b.start : b.start + 80], reason))
            census.why_not(b.start, len(src.text), reason)
            r.end = b.start
            break
        r.blocks.append(b)  # (the readers look back at the blocks before)
        r._starts.append(b.start)
        if b.end - b.start > limits.max_file_bytes:
            continue
        if b.kind in ("prose", "heading"):
            _prose(r, i, b, fmt, line_starts, limits)
        elif b.kind == "math":
            _math(r, i, b.start, b.end, "math", limits)
        elif b.kind == "table":
            table = read_table(src, b, limits)
            r.tables.append((i, table))
        elif b.kind == "code":
            _code(r, i, b, line_starts, limits)
    _link_code(r)
    for placed in r.grids:
        for e in placed.grid.entries:
            if e.written is not None:
                census.read(e.at)
    for _, t in r.tables:
        for e in t.entries():
            census.read(e.at)
    return r


def _too_long(r: Reading, ln: Mapped, limits: Limits) -> bool:
    """Whether a line of text is over ``max_line_length`` (then it is said, not read)."""
    if len(ln.text) <= limits.max_line_length:
        return False
    line, _ = r.src.position(ln.at(0))
    reason = f"line longer than max_line_length={limits.max_line_length}"
    r.skipped.append(Skipped(line, ln.text[:80], reason))
    return True


def _add_chains(r: Reading, block: int, found: list[ChainText]) -> None:
    r.math_read += sum(len(ln.text) for c in found for ln in c.links)
    r.chains.extend(found)
    r.chain_blocks.extend([block] * len(found))


def _math(r: Reading, block: int, a: int, b: int, kind: str, limits: Limits) -> None:
    if b - a > limits.max_line_length:
        line, _ = r.src.position(a)
        r.skipped.append(
            Skipped(
                line,
                r.src.text[a : a + 80],
                f"math longer than max_line_length={limits.max_line_length}",
            )
        )
        return
    for row in math_rows(r.src.text, a, b):
        if r.full:
            break
        _add_chains(r, block, chains_of(row, r.src, kind))


def _prose(r: Reading, i: int, b: Block, fmt: str, line_starts: list[int], limits: Limits) -> None:
    text = r.src.text
    prev: ChainText | None = None
    prev_added = False  # whether ``prev`` is the last chain added (or a lone piece)
    prev_end = b.start
    for a, e in b.math:
        between = text[prev_end : max(prev_end, a - 1)]
        found = [
            c
            for row in math_rows(text, a, e)
            for c in chains_of(row, r.src, "math", _word_before(between))
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
                _add_chains(r, i, [joined])
            found = found[1:]
            prev, prev_added = joined, True
        _add_chains(r, i, found)
        if not found and prev_end <= a:
            # `当前注意力权重： $[0.82, 0.18]$`: an array named by the words before it
            grids = scan_arrays(text, a, e, limits)
            if (
                len(grids) == 1
                and not text[a : grids[0].start].strip()
                and not text[grids[0].end : e].strip()
            ):
                line_start = text.rfind("\n", b.start, a) + 1
                label = text[max(line_start, b.start, a - 80) : a].strip(" $:：")
                r.grids.append(Placed(replace(grids[0], label=label), i, "text"))
        if found:
            prev, prev_added = found[-1], True
        elif any(ch.isalnum() for ch in text[a:e]):
            prev, prev_added = _lone(text[a:e], r, a, e), False
        prev_end = e + 1
    skip = [(a - 2, e + 2) for a, e in b.math]
    outside = _pieces(b.start, b.end, [(a - 2, e + 2) for a, e in b.math])
    if any("\\begin" in text[a:e] for a, e in outside):
        # LaTeX environments written in prose (outside $…$): that prose is math (a stray `$`
        # of broken Markdown is not part of it)
        for a, e in outside:
            dollars = [(k, k + 1) for k in range(a, e) if text[k] == "$"]
            for x, y in _pieces(a, e, dollars):
                if text[x:y].strip():
                    _math(r, i, x, y, "math", limits)
        return
    for a, e in b.code:
        for g in scan_arrays(text, a, e, limits):
            if not g.label:
                # `**K_animal (Exact Match):** `[3, 1]``: named by the words before the code
                line_start = text.rfind("\n", b.start, a) + 1
                g = replace(g, label=text[max(line_start, b.start, a - 80) : a - 1].strip(" `:："))
            r.grids.append(Placed(g, i, "operand" if _operand(text, g) else "text"))
    # inline code is read with the prose around it (`Softmax = `[0.02, 0.12]``)
    markdown = fmt in ("markdown", "text")
    for ln in text_lines(text, b.start, b.end, skip, markdown=markdown):
        if r.full:
            break
        if _too_long(r, ln, limits):
            continue
        found = [with_result_expression(c, r.src) for c in chains_of(ln, r.src, "text")]
        _add_chains(r, i, found)
    grids = _outside(scan_arrays(text, b.start, b.end, limits), skip + [(a, e) for a, e in b.code])
    for g in stack_rows(text, grids, line_starts):
        r.grids.append(Placed(g, i, "operand" if _operand(text, g) else "text"))
    if fmt == "text":
        for g in _outside(plain_rows(text, b.start, b.end, limits), skip):
            r.grids.append(Placed(g, i, "text"))
    for g in _outside(prose_numbers(text, b.start, b.end, limits), skip):
        r.grids.append(Placed(g, i, "text"))
    for t in text_tables(r.src, b.start, b.end, limits):
        r.tables.append((i, t))


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
    return ChainText((Link(body.strip(), "", m, r.src),), "math")


def _word_before(between: str) -> str:
    word = PROSE_WORD.regex.search(between)
    return word.group(1) if word else ""


_OPERATORS = "+-*/×·÷@⊙"


def _operand(text: str, g: Grid) -> bool:
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


def _outside(grids: list[Grid], skip: list[tuple[int, int]]) -> list[Grid]:
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


def _code(r: Reading, i: int, b: Block, line_starts: list[int], limits: Limits) -> None:
    text = r.src.text
    run: list[tuple[int, Statement]] = []  # consecutive statements that are not Python

    def flush() -> None:
        if run:
            _text_run(r, i, text, run[0][1].start, run[-1][1].end, run[0][0], line_starts, limits)
            run.clear()

    for st in statements(text, b.start, b.end):
        index = len(r.statements)
        r.statements.append((i, st))
        if st.tree is None:
            run.append((index, st))
            continue
        flush()
        in_comment = [(x - 1, y) for x, y in st.comments]
        for g in _outside(scan_arrays(text, st.start, st.end, limits), in_comment):
            r.grids.append(Placed(g, i, "code", index))
        for g in _comment_grids(r, st, limits):
            r.grids.append(Placed(g, i, "comment", index))
    flush()


def _text_run(
    r: Reading,
    i: int,
    text: str,
    start: int,
    end: int,
    index: int,
    line_starts: list[int],
    limits: Limits,
) -> None:
    """Lines of a code block that are not Python (printed output, formulas, arrays side by
    side, plain rows), read as text."""
    sbs, covered = side_by_side(text, start, end, limits)
    for g in sbs:
        r.grids.append(Placed(g, i, "output", index))
    for ln in text_lines(text, start, end, covered, code=True):
        if r.full:
            break
        if not _too_long(r, ln, limits):
            _add_chains(r, i, chains_of(ln, r.src, "code"))
    grids = _outside(scan_arrays(text, start, end, limits, braces=True), covered)
    for g in stack_rows(text, grids, line_starts):
        how = "operand" if _operand(text, g) else "output"
        r.grids.append(Placed(g, i, how, index))
    for g in _outside(plain_rows(text, start, end, limits), covered):
        r.grids.append(Placed(g, i, "output", index))


def _comment_grids(r: Reading, st: Statement, limits: Limits) -> list[Grid]:
    """Arrays written in the comments of a statement (runs of comment lines joined)."""
    if not st.comments:
        return []
    joined = Mapped.join(r.src.text, st.comments)
    out = []
    for g in scan_arrays(joined.text, 0, len(joined.text), limits):
        entries = tuple(type(e)(e.text, joined.at(e.at), e.written) for e in g.entries)
        out.append(
            Grid(
                joined.at(g.start),
                joined.end_at(g.end),
                entries,
                g.dims,
                g.notes,
                g.wrapper,
                g.label,
                "comment",
            )
        )
    return out


def _is_output(r: Reading, block: int, sts: list[Statement]) -> bool:
    """Whether a code block is a program's printed output: nothing in it is Python but
    printed arrays (``tensor([...])``, ``array([...])``) and bare literals."""
    for st in sts:
        if st.tree is None:
            continue
        for stmt in st.tree.body:
            if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
                continue  # `Sum: tensor(1.0000)`: a printed label and value
            if not isinstance(stmt, ast.Expr):
                return False
            v = stmt.value
            if (
                isinstance(v, ast.Call)
                and expr_text(v.func).rsplit(".", 1)[-1] in ARRAY_CALLS.words
            ):
                continue
            if isinstance(v, ast.Constant | ast.List | ast.Tuple | ast.UnaryOp):
                continue
            return False
    return any(st.tree is None for st in sts) or bool(sts)


def _link_code(r: Reading) -> None:
    """Names for the arrays code assigns, output blocks found, printed arrays linked to what
    the code before them shows."""
    by_block: dict[int, list[Statement]] = {}
    for block, st in r.statements:
        by_block.setdefault(block, []).append(st)
    previous_code = False
    for block in range(len(r.blocks)):
        sts = by_block.get(block)
        if sts is None:
            previous_code = False
            continue
        if _is_output(r, block, sts):
            r.outputs.add(block)
            if previous_code:
                r.printed.add(block)
        else:
            previous_code = True
    assigned: dict[int, tuple[str, ...]] = {}
    shown_by_block: dict[int, list[Shown]] = {}
    comments: dict[int, list[Placed]] = {}
    for placed in r.grids:
        if placed.how == "comment":
            comments.setdefault(placed.statement, []).append(placed)
    subject: ast.expr | None = None  # what the last statement of the block computed
    last_block = -1
    for index, (block, st) in enumerate(r.statements):
        if block in r.outputs:
            continue
        if block != last_block:
            subject, last_block = None, block
        said = list(facts_of(st))
        for fact in said:
            r.code_facts.append((index, fact))
            if isinstance(fact, Assigned):
                assigned[fact.at] = fact.names
            elif isinstance(fact, Shown):
                shown_by_block.setdefault(block, []).append(fact)
        own = _subject(st, said)
        if own is not None:
            subject = own
        for placed in comments.get(index, []):
            # `keys = np.dot(x, w_key) #[[0,1,1],…]`: the comment states what the statement
            # (or, on a line of its own, the one before) computed
            if subject is not None:
                shown = Shown(subject, "", placed.grid.start)
                r.code_facts.append((index, shown))
                r.shown[placed.grid.start] = shown
    for k, placed in enumerate(r.grids):
        if placed.how == "code" and placed.grid.start in assigned:
            names = assigned[placed.grid.start]
            r.grids[k] = replace(placed, names=names)
            role = next((x.role for n in names if (x := symbol_role(n)) is not None), "")
            r.literal_roles[placed.grid.start] = role
        elif placed.block in r.outputs and placed.how in ("code", "output"):
            r.grids[k] = replace(placed, how="output")
    # printed arrays: each output block after a code block, in order
    pending: list[Shown] = []
    for i, b in enumerate(r.blocks):
        if b.kind != "code":
            continue
        if i not in r.outputs:
            pending = [s for s in shown_by_block.get(i, []) if not _is_shape(s)]
            continue
        grids = [p.grid for p in r.grids if p.block == i]
        for g in grids:
            match = next((s for s in pending if s.label and _same_label(s.label, g.label)), None)
            if match is None and pending and (not g.label or not pending[0].label):
                match = pending[0]
            if match is not None:
                pending.remove(match)
                r.shown[g.start] = match


def _subject(st: Statement, said: list[Assigned | Defined | Shown | Step]) -> ast.expr | None:
    """What a statement computes, for a comment after it: what it shows, else the one name it
    assigns."""
    if st.tree is None or not st.tree.body:
        return None
    shown = [f for f in said if isinstance(f, Shown)]
    if shown:
        return shown[0].expr
    body = st.tree.body
    if st.shift and len(body) == 1 and isinstance(body[0], ast.If):
        body = body[0].body  # the `if 1:` an indented statement was parsed in
    last = body[-1]
    if (
        isinstance(last, ast.Assign)
        and len(last.targets) == 1
        and isinstance(last.targets[0], ast.Name)
    ):
        return ast.Name(id=last.targets[0].id, ctx=ast.Load())
    return None


def _is_shape(s: Shown) -> bool:
    text = expr_text(s.expr)
    return text.endswith((".shape", ".size()", ".shape)")) or text.startswith(("len(", "type("))


def _label_words(text: str) -> str:
    return re.sub(r"[^\w]+", " ", text).strip().lower()


def _same_label(a: str, b: str) -> bool:
    return bool(_label_words(a)) and _label_words(a) == _label_words(b)
