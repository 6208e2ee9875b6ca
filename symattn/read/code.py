"""Code blocks read, never run: Python statements parsed with :mod:`ast`, one at a time.

A code block is cut into statements (lines joined while brackets or a triple-quoted string
are open, a compound statement with its indented body); each is parsed with ``ast.parse``,
which builds a syntax tree and executes nothing. A piece that is not Python (a printed
output, a formula ``Scores = [...] = [...]``, prose in a fence) is left to the text readers.
Comments are kept with the statement they follow: ``keys = np.dot(x, w_key) #[[0,1,1],…]``
states the value of ``keys``.

Every reader here is linear in the block: one pass to cut statements, one parse each, and
statements are bounded in lines and characters.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Final

__all__ = [
    "MAX_TREE_DEPTH",
    "Statement",
    "depth_of",
    "docstrings",
    "iter_statements",
    "offset_of",
    "statements",
]

#: most lines one statement may span (a longer run is read as text)
MAX_STATEMENT_LINES: Final = 400
#: most characters one statement may hold
MAX_STATEMENT_CHARS: Final = 200_000
#: the deepest syntax tree followed (a deeper statement is "not followed (nested too deeply)")
MAX_TREE_DEPTH: Final = 64
#: a REPL prompt: ``>>> ``, ``... ``, ``In [3]: ``, ``   ...: `` (blanked, so the code parses)
_PROMPT: Final = re.compile(r"(?:>>>|\.\.\.)(?: |$)|In \[\s*\d*\s*\]: ?|\s+\.\.\.: ?")
#: the head of a REPL's output line (``Out[3]: ``), blanked
_OUT_PROMPT: Final = re.compile(r"Out\[\s*\d*\s*\]: ?")


@dataclass(frozen=True)
class Statement:
    """One statement of a code block: where it is, its syntax tree (None when it is not
    Python), the offsets of its lines, and the spans of its comments."""

    start: int
    end: int
    tree: ast.Module | None
    #: source offset of each of its lines (the first is ``start``'s line start)
    line_offsets: tuple[int, ...]
    #: lines of the parsed text that precede the statement's own (``if 1:`` wrapping)
    shift: int
    comments: tuple[tuple[int, int], ...]
    #: the statement's text (what was parsed, fences blanked)
    text: str
    #: Python nested deeper than :data:`MAX_TREE_DEPTH`: not followed (and not text either)
    deep: bool = False
    #: a line a REPL printed (after ``>>>`` lines, or ``Out[3]:``): never code
    printed: bool = False


def offset_of(st: Statement, node: ast.AST) -> int:
    """The source offset of ``node`` (its line and column, counted in characters)."""
    lineno = getattr(node, "lineno", 1) - st.shift
    col = getattr(node, "col_offset", 0)
    index = min(max(lineno - 1, 0), len(st.line_offsets) - 1)
    base = st.line_offsets[index]
    line_start = base - st.start
    line_end = st.text.find("\n", line_start)
    line = st.text[line_start : line_end if line_end >= 0 else len(st.text)]
    if not line.isascii():
        col = len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))
    return base + col


def docstrings(st: Statement) -> list[tuple[int, int]]:
    """The source spans of the docstrings in a statement (a module's, a class's or a
    function's first statement when it is a string): text inside the code."""
    if st.tree is None:
        return []
    out = []
    for node in ast.walk(st.tree):
        if not isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        first = node.body[0] if node.body else None
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
            and first.end_lineno is not None
            and first.end_col_offset is not None
        ):
            end = ast.Constant(None, lineno=first.end_lineno, col_offset=first.end_col_offset)
            out.append((offset_of(st, first), offset_of(st, end)))
    return sorted(out)


class _Lexer:
    """Brackets, strings and comments of Python text, line by line."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote = ""  # the open string's quote: ', ", ''' or """

    def line(self, text: str, a: int, b: int) -> list[tuple[int, int]]:
        """Advance over ``text[a:b]``; the comment spans in it."""
        comments: list[tuple[int, int]] = []
        i = a
        while i < b:
            ch = text[i]
            if self.quote:
                if ch == "\\":
                    i += 2
                    continue
                if text.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = ""
                    continue
                i += 1
                continue
            if ch == "#":
                comments.append((i + 1, b))
                break
            if ch in "'\"":
                triple = ch * 3
                self.quote = triple if text.startswith(triple, i) else ch
                i += len(self.quote)
                continue
            if ch in "([{":
                self.depth += 1
            elif ch in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        if self.quote in ("'", '"'):
            self.quote = ""  # a one-line string does not continue on the next line
        return comments


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _blank_fences(text: str) -> str:
    """``` runs inside a block (a fence glued to code: ```` ]``` ````) read as spaces."""
    return text.replace("```", "   ").replace("~~~", "   ")


def _repl(body: str) -> tuple[str, frozenset[int]] | None:
    """A REPL transcript's text with its prompts blanked (offsets kept), and the lines that
    are its output (no prompt); None when the block is no transcript."""
    lines = body.split("\n")
    if not any(ln.startswith((">>> ", "In [")) and _PROMPT.match(ln) for ln in lines):
        return None
    out: list[str] = []
    printed: set[int] = set()
    for k, ln in enumerate(lines):
        m = _PROMPT.match(ln)
        if m is not None:
            out.append(" " * m.end() + ln[m.end() :])
            continue
        o = _OUT_PROMPT.match(ln)
        if o is not None:
            ln = " " * o.end() + ln[o.end() :]
        printed.add(k)
        out.append(ln)
    return "\n".join(out), frozenset(printed)


def depth_of(tree: ast.AST, limit: int = MAX_TREE_DEPTH) -> int:
    """How deep ``tree`` is nested (counted without recursion, up to ``limit + 1``)."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            break
        stack.extend((child, d + 1) for child in ast.iter_child_nodes(node))
    return deepest


def statements(text: str, start: int, end: int) -> list[Statement]:
    """The statements of the code block ``text[start:end]`` in order."""
    return list(iter_statements(text, start, end))


def iter_statements(text: str, start: int, end: int) -> Iterator[Statement]:
    """:func:`statements`, parsed as they are asked for (a reader whose budget is spent
    parses no further)."""
    body = _blank_fences(text[start:end])
    repl = _repl(body)
    printed: frozenset[int] = frozenset()
    if repl is not None:
        body, printed = repl
    lines: list[tuple[int, int]] = []
    pos = 0
    while pos <= len(body):
        eol = body.find("\n", pos)
        eol = len(body) if eol < 0 else eol
        lines.append((pos, eol))
        pos = eol + 1
    lexer = _Lexer()
    i = 0
    while i < len(lines):
        a, b = lines[i]
        if not body[a:b].strip():
            i += 1
            continue
        group_start = i
        if i in printed:
            # a REPL's output lines: one piece, read as text
            j = i + 1
            while j < len(lines) and j in printed:
                j += 1
            ga, gb = lines[i][0], lines[j - 1][1]
            starts = [lines[k][0] for k in range(i, j)]
            st = _parse(body, ga, gb, start, [], starts, python=False)
            yield replace(st, printed=True)
            i = j
            continue
        if body[a:b].lstrip().startswith("#"):
            # a run of comment lines is one piece (an array may span them)
            comments = lexer.line(body, a, b)
            j = i + 1
            while j < len(lines) and body[lines[j][0] : lines[j][1]].lstrip().startswith("#"):
                comments += _Lexer().line(body, *lines[j])
                j += 1
            lexer = _Lexer()
            ga, gb = lines[group_start][0], lines[j - 1][1]
            starts = [lines[k][0] for k in range(group_start, j)]
            yield _parse(body, ga, gb, start, comments, starts)
            i = j
            continue
        comments = lexer.line(body, a, b)
        header_indent = _indent(body[a:b])
        j = i + 1
        compound = body[a:b].rstrip().endswith(":") and lexer.depth == 0
        while j < len(lines) and j - group_start < MAX_STATEMENT_LINES and j not in printed:
            la, lb = lines[j]
            line = body[la:lb]
            open_ = lexer.depth > 0 or lexer.quote or body[a:b].rstrip().endswith("\\")
            if open_:
                comments += lexer.line(body, la, lb)
                a, b = la, lb
                j += 1
                continue
            if compound and (not line.strip() or _indent(line) > header_indent):
                comments += lexer.line(body, la, lb)
                a, b = la, lb
                j += 1
                continue
            if compound and line.strip().startswith(("else", "elif", "except", "finally")):
                comments += lexer.line(body, la, lb)
                a, b = la, lb
                j += 1
                continue
            break
        lexer = _Lexer()
        ga, gb = lines[group_start][0], lines[j - 1][1]
        yield _parse(body, ga, gb, start, comments, [lines[k][0] for k in range(group_start, j)])
        i = j


#: signs of math that Python allows inside a name (U+00B7 continues an identifier)
_MATH_IN_NAMES: Final = frozenset("·")


def _math_names(tree: ast.Module) -> bool:
    """Whether a name of the statement holds a sign of math: it is a formula, not code."""
    return any(
        isinstance(n, ast.Name) and not _MATH_IN_NAMES.isdisjoint(n.id) for n in ast.walk(tree)
    )


def _type_like(node: ast.expr) -> bool:
    """Whether an annotation is written as a type: a name, ``np.ndarray``, ``list[float]``,
    ``"Tensor"``, ``int | None``."""
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.BitOr) and _type_like(node.left) and _type_like(node.right)
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, str)
    return isinstance(node, ast.Name | ast.Attribute | ast.Subscript)


def _labelled_formula(tree: ast.Module) -> bool:
    """Whether a statement is a labelled formula that Python reads as an annotated
    assignment: ``sum: 2.028 + 4.113 = 8.170``, ``exp: [e^0.7, e^1.4] = [2.01, 4.06]`` (its
    "annotation" no type; ``Sum: tensor(1.0)``, with no value, is a printed label)."""
    return any(
        isinstance(n, ast.AnnAssign) and n.value is not None and not _type_like(n.annotation)
        for n in tree.body
    )


def _parse(
    body: str,
    a: int,
    b: int,
    origin: int,
    comments: list[tuple[int, int]],
    line_starts: list[int],
    python: bool = True,
) -> Statement:
    snippet = body[a:b]
    shift = 0
    tree: ast.Module | None = None
    deep = False
    if python and len(snippet) <= MAX_STATEMENT_CHARS:
        source = snippet
        if _indent(snippet.split("\n", 1)[0]) > 0:
            source, shift = "if 1:\n" + snippet, 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(source)
        except (RecursionError, MemoryError):
            tree, deep = None, True
        except (SyntaxError, ValueError, OverflowError):
            tree = None
        if tree is not None and depth_of(tree) > MAX_TREE_DEPTH:
            tree, deep = None, True
        if tree is not None and (_math_names(tree) or _labelled_formula(tree)):
            tree = None  # (``q_2·k_1 = 0.72``: a formula, whose product sign Python allows)
    return Statement(
        origin + a,
        origin + b,
        tree,
        tuple(origin + s for s in line_starts),
        shift,
        tuple((origin + x, origin + y) for x, y in comments),
        snippet,
        deep,
    )
