"""Code blocks read (never run): Python statements with the arrays they assign and the
comments that state values, printed outputs recognised as such and tied to the code that
printed them, and the rest of a block read as text (formulas, arrays side by side, plain
rows)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Final

from symattn.config import Limits
from symattn.numbers import parse_number
from symattn.read.arrays import Entry, Grid, plain_rows, scan_arrays
from symattn.read.blocks import Block, BlockKind
from symattn.read.code import Statement, docstrings, iter_statements
from symattn.read.dataflow import Built, built_inputs
from symattn.read.extract import ChainText, Skipped, chains_of, with_result_expression
from symattn.read.formulas import text_lines
from symattn.read.kinds import ChainKind, Placement
from symattn.read.layout import side_by_side, stack_rows
from symattn.read.mapped import Mapped
from symattn.read.messages import not_checked
from symattn.read.notations import ANNOTATION_LINK, ARRAY_CALLS, SHAPE_NOTE, TEXT_FENCES
from symattn.read.page import Placed, Reading, add_chains, operand, outside, too_long
from symattn.read.python import Assigned, Defined, Shown, Step, expr_text, facts_of
from symattn.read.roles import symbol_role

__all__ = ["NESTED_TOO_DEEPLY", "link_code", "read_code"]


def read_code(r: Reading, i: int, b: Block, line_starts: list[int], limits: Limits) -> None:
    text = r.src.text
    run: list[tuple[int, Statement]] = []  # consecutive statements that are not Python

    def flush() -> None:
        if run:
            _text_run(r, i, text, run[0][1].start, run[-1][1].end, run[0][0], line_starts, limits)
            run.clear()

    for st, after in _with_next(iter_statements(text, b.start, b.end)):
        if r.full:
            r.stop(st.start)
            break
        if st.tree is not None and after is not None and _continues(after):
            # `Scores = [0.1*0.42, ...]` then `= [0.042, ...]`: a chain written as text,
            # whose first line happens to be Python
            st = replace(st, tree=None)
        index = len(r.statements)
        r.statements.append((i, st))
        if st.deep:
            flush()
            line = r.src.line_of(st.start)
            r.skipped.append(Skipped(line, st.text.strip()[:80], NESTED_TOO_DEEPLY))
            continue
        if st.tree is None or _bare_number(st.tree):
            run.append((index, st))
            continue
        flush()
        in_comment = [(x - 1, y) for x, y in st.comments]
        docs = docstrings(st)
        for g in outside(scan_arrays(text, st.start, st.end, limits), in_comment + docs):
            r.grids.append(Placed(g, i, Placement.CODE, index))
        for g in _comment_grids(r, st, limits):
            r.grids.append(Placed(g, i, Placement.COMMENT, index))
        _comment_chains(r, i, st, limits)
        for a, z in docs:
            # (a docstring is text: its formulas and its examples' printed values)
            _text_run(r, i, text, a, z, index, line_starts, limits, ChainKind.TEXT)
    flush()


def _bare_number(tree: ast.Module) -> bool:
    """A line that is a number and nothing else (``0.3``, ``-1.5``): a value the block shows,
    read with the lines around it as text (a column of numbers is a vector), no statement."""
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return False
    v = tree.body[0].value
    if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub | ast.UAdd):
        v = v.operand
    return isinstance(v, ast.Constant) and type(v.value) in (int, float)


#: the reason a statement nested deeper than :data:`~symattn.read.code.MAX_TREE_DEPTH` gives
NESTED_TOO_DEEPLY: Final = not_checked("not-followed-deep")


def _with_next(items: Iterator[Statement]) -> Iterator[tuple[Statement, Statement | None]]:
    """Each statement with the one after it (None for the last), parsed one ahead."""
    current = next(items, None)
    while current is not None:
        after = next(items, None)
        yield current, after
        current = after


def _continues(st: Statement) -> bool:
    """Whether a line that is not Python continues the chain above it (``= [0.042, …]``,
    ``≈ 0.5``)."""
    return st.tree is None and st.text.lstrip().startswith(CONTINUATION)


#: the arrays of a code block that are printed when the block is an output
_PRINTABLE: Final = frozenset({Placement.CODE, Placement.OUTPUT})
#: how a line that continues a chain begins
CONTINUATION = ("=", "≈", "\\approx")


def _text_run(
    r: Reading,
    i: int,
    text: str,
    start: int,
    end: int,
    index: int,
    line_starts: list[int],
    limits: Limits,
    kind: ChainKind = ChainKind.CODE,
) -> None:
    """Lines of a code block that are not Python (printed output, formulas, arrays side by
    side, plain rows), read as text (a docstring's chains as prose's: ``kind``)."""
    sbs, covered = side_by_side(text, start, end, limits)
    for g in sbs:
        r.grids.append(Placed(g, i, Placement.OUTPUT, index))
    for ln in text_lines(text, start, end, covered, code=True):
        if r.full:
            r.stop(ln.at(0) if ln.starts else start)
            break
        if not too_long(r, ln, limits):
            found = chains_of(ln, r.src, kind)
            add_chains(r, i, [with_result_expression(c, r.src) for c in found])
    grids = outside(scan_arrays(text, start, end, limits, braces=True), covered)
    for g in stack_rows(text, grids, line_starts):
        how = Placement.OPERAND if operand(text, g) else Placement.OUTPUT
        r.grids.append(Placed(g, i, how, index))
    for g in outside(plain_rows(text, start, end, limits), covered):
        r.grids.append(Placed(g, i, Placement.OUTPUT, index))


def _comment_chains(r: Reading, i: int, st: Statement, limits: Limits) -> None:
    """The chains a statement's comments write (``# softmax([8, -4, -4]) ≈ [0.996, …]``),
    each comment line read as the lines of a block that are not Python are; a comment that
    only names values (``# shape=(2,6,2)``, ``# d=3``) annotates the code and computes
    nothing."""
    text = r.src.text
    for x, y in st.comments:
        for ln in text_lines(text, max(0, x - 1), y, code=True):
            if not too_long(r, ln, limits):
                found = chains_of(ln, r.src, ChainKind.TEXT)
                add_chains(r, i, [c for c in found if not _annotates(c)])


def _annotates(chain: ChainText) -> bool:
    return all(ANNOTATION_LINK.find(link.text) for link in chain.links)


def _comment_grids(r: Reading, st: Statement, limits: Limits) -> list[Grid]:
    """Arrays written in the comments of a statement (runs of comment lines joined)."""
    if not st.comments:
        return []
    joined = Mapped.join(r.src.text, st.comments)
    out = []
    for g in scan_arrays(joined.text, 0, len(joined.text), limits):
        if _a_shape(joined.text, g.start, g.end):
            continue  # `# (形状为 [6])`: a size, not the value
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


def _prompted(text: str, comments: tuple[tuple[int, int], ...], at: int) -> ast.expr | None:
    """The expression a REPL prompt in the comments names for the array at ``at``: the last
    ``>>> expr`` comment line before it (``# >>> inputs`` then ``# tensor([[…]])``); None
    when no prompt comes first, or what follows it is no Python expression."""
    lines = [(x, y) for x, y in comments if x <= at]
    for x, y in reversed(lines):
        m = _COMMENT_PROMPT.match(text, max(0, x - 1), y)
        if m is None:
            continue
        try:
            tree = ast.parse(m["expr"].strip(), mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        return tree.body
    return None


def _labelled(text: str, at: int, bound: set[str]) -> ast.expr | None:
    """The variable a comment's label names for the array at ``at`` (``# weights: [[…]]``
    under ``print(context)``), when the code assigns that name; else None."""
    start = text.rfind("\n", max(0, at - 200), at) + 1
    m = _COMMENT_LABEL.search(text, start, at)
    if m is None or m["name"] not in bound:
        return None
    return ast.Name(id=m["name"], ctx=ast.Load())


#: a comment's label just before an array: ``# weights: [[…``
_COMMENT_LABEL: Final = re.compile(r"#\s*(?P<name>[A-Za-z_]\w{0,60})\s*[:=]\s*$")
#: a comment line that is a REPL prompt: ``# >>> attn_weights[0]``
_COMMENT_PROMPT: Final = re.compile(r"#\s*>>>\s+(?P<expr>[^\n]{1,200})")


def _a_shape(text: str, start: int, end: int) -> bool:
    """Whether the array at ``text[start:end]`` is a size the words before it name
    (:data:`~symattn.read.notations.SHAPE_NOTE`: ``形状为 [6]``, ``shape: [3, 3]``)."""
    head = max(0, text.rfind("\n", 0, start) + 1, start - _SHAPE_REACH)
    return any(m.end() == end for m in SHAPE_NOTE.regex.finditer(text, head, end))


#: how far before an array the words that call it a size may start
_SHAPE_REACH: Final = 24


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


def link_code(r: Reading) -> None:
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
            # (a fence that says it holds text holds no program: nothing after it is printed)
            previous_code = not _text_fence(r.blocks[block])
    assigned: dict[int, tuple[str, ...]] = {}
    bound: set[str] = set()  # (the names the code has assigned so far)
    shown_by_block: dict[int, list[Shown]] = {}
    comments: dict[int, list[Placed]] = {}
    for placed in r.grids:
        if placed.how is Placement.COMMENT:
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
            if isinstance(fact, Step):
                bound.update(fact.unpack or (fact.name,))
            if isinstance(fact, Assigned):
                bound.update(fact.names)
                assigned[fact.at] = fact.names
            elif isinstance(fact, Shown):
                shown_by_block.setdefault(block, []).append(fact)
        own = _subject(st, said)
        if own is not None:
            subject = own
        for placed in comments.get(index, []):
            # `keys = np.dot(x, w_key) #[[0,1,1],…]`: the comment states what the statement
            # (or, on a line of its own, the one before) computed; under `# >>> inputs` in
            # the comment, what that expression is
            what = (
                _prompted(r.src.text, st.comments, placed.grid.start)
                or _labelled(r.src.text, placed.grid.start, bound)
                or subject
            )
            if what is not None:
                shown = Shown(what, "", placed.grid.start)
                r.code_facts.append((index, shown))
                r.shown[placed.grid.start] = shown
    for placed, built in _built(r):
        assigned[built.at] = built.names
        r.grids.append(placed)
    for k, placed in enumerate(r.grids):
        if placed.how is Placement.CODE and placed.grid.start in assigned:
            names = assigned[placed.grid.start]
            r.grids[k] = replace(placed, names=names)
            role = next((x.role for n in names if (x := symbol_role(n)) is not None), None)
            if role is not None:
                r.literal_roles[placed.grid.start] = role
        elif placed.block in r.outputs and placed.how in _PRINTABLE:
            r.grids[k] = replace(placed, how=Placement.OUTPUT)
    tied = _tie_inline(r)
    # printed arrays: each output block after a code block, in order
    pending: list[Shown] = []
    for i, b in enumerate(r.blocks):
        if b.kind is not BlockKind.CODE:
            continue
        if i not in r.outputs:
            pending = [
                s
                for s in shown_by_block.get(i, [])
                if not _is_shape(s) and id(s) not in tied and not _text_fence(b)
            ]
            continue
        grids = [p.grid for p in r.grids if p.block == i]
        for g in grids:
            match = next((s for s in pending if s.label and _same_label(s.label, g.label)), None)
            if match is None and pending and (not g.label or not pending[0].label):
                match = pending[0]
            if match is not None:
                pending.remove(match)
                r.shown[g.start] = match


def _text_fence(b: Block) -> bool:
    """Whether a fenced block says it holds text (```` ```text ````), not a program."""
    return b.info.strip().lower() in TEXT_FENCES.words


def _tie_inline(r: Reading) -> set[int]:
    """Printouts inside a block of code: the lines a REPL prints after ``>>> expr`` (or
    ``In [3]: expr``, then ``Out[3]:``), or lines that are not Python right after a statement
    that shows something (``Q @ K.T / 2`` then ``[[0.5 0. ] …]``): each printed array is what
    the expression before it shows. The ids of the :class:`Shown` tied so."""
    shown: dict[int, list[Shown]] = {}
    for index, fact in r.code_facts:
        if isinstance(fact, Shown) and not _is_shape(fact) and r.shown.get(fact.at) is not fact:
            # (what a comment states is already tied: it shows nothing more)
            shown.setdefault(index, []).append(fact)
    grids: dict[int, list[Placed]] = {}
    for p in r.grids:
        if p.how is Placement.OUTPUT:
            grids.setdefault(p.block, []).append(p)
    tied: set[int] = set()
    pending: list[Shown] = []
    last_block = -1
    for index, (block, st) in enumerate(r.statements):
        if block in r.outputs:
            continue
        if block != last_block:
            pending, last_block = [], block
        if st.printed or (st.tree is None and not st.deep):
            for p in sorted(grids.get(block, []), key=lambda p: p.grid.start):
                if pending and st.start <= p.grid.start < st.end:
                    s = pending.pop(0)
                    r.shown[p.grid.start] = s
                    tied.add(id(s))
            pending = []
        elif st.tree is not None:
            pending = list(shown.get(index, []))
    return tied


def _built(r: Reading) -> list[tuple[Placed, Built]]:
    """The input arrays the code builds (``Q = np.eye(2) * 0.5``), as arrays of the text at
    the names they are given: their statements become assignments of those arrays."""
    trees = [st.tree for _, st in r.statements]
    out = []
    for position, b in built_inputs(r.code_facts, trees, r.limits):
        index, fact = r.code_facts[position]
        r.code_facts[position] = (index, Assigned(b.names, b.at, "built", b.value))
        block = r.statements[index][0]
        entries = tuple(Entry(t, b.at, parse_number(t)) for t in map(spelled, b.value.data))
        grid = Grid(b.at, b.at + len(b.names[0]), entries, b.value.shape, notation="built")
        out.append((Placed(grid, block, Placement.CODE, index, b.names), b))
        del fact
    return out


def spelled(x: Fraction) -> str:
    """An exact number as a spec writes it: a terminating decimal, else ``p/q``."""
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    places = max(twos, fives)
    if places == 0:
        return str(x.numerator)
    scaled = abs(x.numerator) * 10**places // x.denominator
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if x < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


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
