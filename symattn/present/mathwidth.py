"""How wide a piece of LaTeX math is when typeset, estimated from glyph widths (in em).

Documents break long equations and split wide matrices in Python, before any renderer sees
them; this module says how wide each candidate line is. It reads the LaTeX this package
writes (numbers, italic letters, ``\\frac``, ``\\sqrt``, scripts, ``\\text``, matrices,
``aligned``), with the widths of Computer Modern (the math font of xelatex without
``unicode-math`` and of KaTeX): digits are 0.5 em, ``+`` is 0.778 em plus 4/18 em of space on
each side as a binary operator, ``=`` 0.778 em plus 5/18 em on each side as a relation.
Unknown commands count as 1 em. The estimate errs on the wide side, so a line it accepts
fits; the LaTeX golden test (no ``Overfull \\hbox``) checks it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

#: the tokens of LaTeX source: a command, an escaped character, a special or one character
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}^_&]|\s+|.", re.S)

#: italic letter widths (cmmi10), em; other letters use the defaults below
ITALIC: Mapping[str, float] = MappingProxyType(
    {
        "a": 0.529, "b": 0.429, "c": 0.433, "d": 0.520, "e": 0.466, "f": 0.490, "g": 0.477,
        "h": 0.576, "i": 0.345, "j": 0.412, "k": 0.521, "l": 0.298, "m": 0.878, "n": 0.600,
        "o": 0.485, "p": 0.503, "q": 0.446, "r": 0.451, "s": 0.469, "t": 0.361, "u": 0.572,
        "v": 0.485, "w": 0.716, "x": 0.572, "y": 0.490, "z": 0.465,
        "A": 0.750, "B": 0.759, "C": 0.715, "D": 0.828, "E": 0.738, "F": 0.643, "G": 0.786,
        "H": 0.831, "I": 0.440, "J": 0.555, "K": 0.849, "L": 0.681, "M": 0.970, "N": 0.803,
        "O": 0.763, "P": 0.642, "Q": 0.791, "R": 0.759, "S": 0.613, "T": 0.584, "U": 0.683,
        "V": 0.583, "W": 0.944, "X": 0.828, "Y": 0.581, "Z": 0.683,
    }
)  # fmt: skip
#: glyph widths of other characters (em)
GLYPH: Mapping[str, float] = MappingProxyType(
    {
        ".": 0.278, ",": 0.278, ";": 0.278, ":": 0.278, "!": 0.278, "?": 0.472, "'": 0.278,
        "(": 0.389, ")": 0.389, "[": 0.278, "]": 0.278, "|": 0.278, "/": 0.5, "*": 0.5,
        "@": 0.778, " ": 0.0,
    }
)  # fmt: skip
#: binary operators (glyph width); spaced by 4/18 em on each side after an ordinary atom
BINARY: Mapping[str, float] = MappingProxyType(
    {"+": 0.778, "-": 0.778, r"\times": 0.778, r"\cdot": 0.278, r"\pm": 0.778, r"\mp": 0.778}
)
#: relations (glyph width); spaced by 5/18 em on each side
RELATION: Mapping[str, float] = MappingProxyType(
    {
        "=": 0.778, "<": 0.778, ">": 0.778, r"\approx": 0.778, r"\ne": 0.778, r"\neq": 0.778,
        r"\le": 0.778, r"\leq": 0.778, r"\ge": 0.778, r"\geq": 0.778, r"\to": 1.0,
        r"\equiv": 0.778, r"\mapsto": 1.0, r"\rightarrow": 1.0,
    }
)  # fmt: skip
#: commands that are one symbol (em)
SYMBOL: Mapping[str, float] = MappingProxyType(
    {
        r"\infty": 1.0, r"\cdots": 1.172, r"\ldots": 1.172, r"\dots": 1.172, r"\vdots": 0.278,
        r"\ddots": 1.172, r"\sum": 1.444, r"\prod": 1.278, r"\quad": 1.0, r"\qquad": 2.0,
        r"\,": 0.167, r"\:": 0.222, r"\;": 0.278, r"\!": -0.167, "\\ ": 0.333, r"\{": 0.5,
        r"\}": 0.5, r"\%": 0.833, r"\_": 0.5, r"\&": 0.778, r"\#": 0.833, r"\$": 0.5,
        r"\alpha": 0.64, r"\beta": 0.566, r"\sigma": 0.571, r"\top": 0.778, r"\ast": 0.5,
        r"\textbackslash": 0.5, r"\textasciicircum": 0.5, r"\textasciitilde": 0.5,
        r"\textless": 0.778, r"\textgreater": 0.778, r"\textbar": 0.278, r"\lvert": 0.278,
        r"\rvert": 0.278, r"\vert": 0.278, r"\exp": 1.4, r"\log": 1.3, r"\max": 1.8,
    }
)  # fmt: skip
#: commands whose one argument is set as upright text (average glyph widths)
TEXT_COMMANDS = frozenset({r"\text", r"\mathrm", r"\operatorname", r"\textrm", r"\mathit"})
#: commands whose argument is typewriter text (0.525 em a glyph)
MONO_COMMANDS = frozenset({r"\texttt", r"\mathtt"})
#: commands that take one argument and add nothing to its width
TRANSPARENT = frozenset({r"\mathbf", r"\boldsymbol", r"\mathbb", r"\hphantom", r"\phantom"})
#: commands that take one argument and have no width
INVISIBLE = frozenset({r"\vphantom", r"\label", r"\tag"})
#: the space between two columns of a matrix (2 \arraycolsep), em, and a bracket's width
COLUMN_GAP = 1.0
BRACKET = 0.6
#: the width a null delimiter adds on each side of a fraction (em)
NULL_DELIMITER = 0.12
#: script sizes relative to the text: a subscript, and a script of a script
SCRIPT = 0.7
SCRIPT_SCRIPT = 0.5

_BIN_SPACE = 4 / 18
_REL_SPACE = 5 / 18


@dataclass
class _Cursor:
    tokens: list[str]
    pos: int = 0

    def peek(self) -> str | None:
        while self.pos < len(self.tokens) and self.tokens[self.pos].isspace():
            self.pos += 1
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str | None:
        tok = self.peek()
        if tok is not None:
            self.pos += 1
        return tok

    def raw_group(self) -> str:
        """The source of the next group ``{...}`` (or single token), unparsed."""
        tok = self.take()
        if tok != "{":
            return tok or ""
        depth, out = 1, []
        while self.pos < len(self.tokens):
            t = self.tokens[self.pos]
            self.pos += 1
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0:
                    break
            out.append(t)
        return "".join(out)


def text_width(text: str, mono: bool = False) -> float:
    """Width of upright text (``\\text{...}``) in em: wide (CJK) glyphs 1 em."""
    total = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            total += 1.0
        elif mono:
            total += 0.525
        elif ch == " ":
            total += 0.333
        elif ch.isupper():
            total += 0.72
        elif ch in ".,;:!'|il":
            total += 0.278
        elif ch in "mwMW":
            total += 0.833
        else:
            total += 0.5
    return total


def _unescape_text(source: str) -> str:
    """The characters an escaped ``\\text{...}`` argument prints (one per escape)."""
    return re.sub(r"\\[A-Za-z]+(\{\})?|\\.", "x", source).replace("{", "").replace("}", "")


class _Measure:
    """A recursive reading of LaTeX math that adds up widths."""

    def __init__(self, display: bool) -> None:
        self.display = display

    def group(self, cur: _Cursor, scale: float) -> float:
        """Width of the next atom or ``{...}`` group (for arguments)."""
        tok = cur.peek()
        if tok == "{":
            cur.take()
            return self.sequence(cur, scale, until="}")
        return self.sequence(_Cursor([cur.raw_group()]), scale)

    def sequence(self, cur: _Cursor, scale: float, until: str | None = None) -> float:
        total = 0.0
        prev_ord = False  # whether the previous atom can take a binary operator after it
        while True:
            tok = cur.take()
            if tok is None or tok == until:
                return total
            w, kind = self.atom(tok, cur, scale, prev_ord)
            total += w
            prev_ord = kind in ("ord", "close")

    def atom(self, tok: str, cur: _Cursor, scale: float, prev_ord: bool) -> tuple[float, str]:
        if tok in ("^", "_"):
            sub = SCRIPT if scale >= 1 else SCRIPT_SCRIPT / SCRIPT
            w = self.group(cur, scale * sub)
            nxt = cur.peek()
            if nxt in ("^", "_") and nxt != tok:  # both scripts stack: the wider one counts
                cur.take()
                w = max(w, self.group(cur, scale * sub))
            return w + 0.05 * scale, "ord"
        if tok == "{":
            return self.sequence(cur, scale, until="}"), "ord"
        if tok in BINARY:
            if prev_ord:
                return (BINARY[tok] + 2 * _BIN_SPACE) * scale, "bin"
            return BINARY[tok] * scale, "bin"
        if tok in RELATION:
            return (RELATION[tok] + 2 * _REL_SPACE) * scale, "rel"
        if tok == ",":
            return (0.278 + 0.167) * scale, "punct"
        if tok in (r"\frac", r"\dfrac", r"\tfrac"):
            full = tok == r"\dfrac" or (tok == r"\frac" and self.display and scale >= 1)
            parts = _Measure(display=False)  # numerator and denominator: one style down
            inner = scale if full else scale * (SCRIPT if scale >= 1 else 1.0)
            num = parts.group(cur, inner)
            den = parts.group(cur, inner)
            return max(num, den) + 2 * NULL_DELIMITER * scale, "ord"
        if tok == r"\sqrt":
            if cur.peek() == "[":
                while cur.take() not in (None, "]"):
                    pass
            return 0.833 * scale + self.group(cur, scale), "ord"
        if tok in (r"\left", r"\right", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr"):
            delim = cur.take()
            kind = "open" if tok.endswith(("left", "l")) else "close"
            return (0.12 if delim == "." else BRACKET) * scale, kind
        if tok in TEXT_COMMANDS:
            return text_width(_unescape_text(cur.raw_group())) * scale, "ord"
        if tok in MONO_COMMANDS:
            return text_width(_unescape_text(cur.raw_group()), mono=True) * scale, "ord"
        if tok in TRANSPARENT:
            return self.group(cur, scale), "ord"
        if tok in INVISIBLE:
            cur.raw_group()
            return 0.0, "ord"
        if tok == r"\begin":
            return self.environment(cur.raw_group(), cur, scale), "ord"
        if tok in SYMBOL:
            return SYMBOL[tok] * scale, "ord"
        if tok.startswith("\\") and len(tok) > 2:
            return 1.0 * scale, "ord"  # an unknown command: a wide symbol
        if tok.startswith("\\"):
            return 0.5 * scale, "ord"
        if tok.isdigit():
            return 0.5 * scale, "ord"
        if tok in ITALIC:
            return ITALIC[tok] * scale, "ord"
        if tok in GLYPH:
            kind = "open" if tok in "([" else "close" if tok in ")]" else "ord"
            return GLYPH[tok] * scale, kind
        return text_width(tok) * scale, "ord"

    def environment(self, name: str, cur: _Cursor, scale: float) -> float:
        """Width of ``\\begin{name} ... \\end{name}`` (the cursor is after ``{name}``)."""
        if name in ("array", "tabular"):
            cur.raw_group()  # the column specification
        rows: list[list[list[str]]] = [[[]]]
        depth = 0
        while True:
            tok = cur.take()
            if tok is None:
                break
            if tok == r"\end" and depth == 0:
                cur.raw_group()
                break
            if tok == r"\begin":
                depth += 1
            elif tok == r"\end":
                depth -= 1
            if depth == 0 and tok == "&":
                rows[-1].append([])
            elif depth == 0 and tok == "\\\\":
                rows.append([[]])
                if cur.peek() == "[":  # a row's extra space, \\[1ex]
                    while cur.take() not in (None, "]"):
                        pass
            else:
                rows[-1][-1].append(tok)
        inner = _Measure(display=name in ("aligned", "split", "gathered"))
        widths: list[float] = []
        for row in rows:
            for c, cell in enumerate(row):
                w = inner.sequence(_Cursor(cell), scale)
                if c == len(widths):
                    widths.append(w)
                else:
                    widths[c] = max(widths[c], w)
        if name in ("aligned", "split", "gathered"):
            return sum(widths)
        gaps = COLUMN_GAP * scale * max(len(widths) - 1, 0)
        brackets = 2 * BRACKET * scale if name in ("bmatrix", "pmatrix", "vmatrix") else 0.0
        outer = COLUMN_GAP * scale if name == "array" else 0.0
        return sum(widths) + gaps + brackets + outer


def width(latex: str, *, display: bool = True) -> float:
    """The estimated width of ``latex`` (math) in em at the math font size."""
    return _Measure(display).sequence(_Cursor(_TOKEN.findall(latex)), 1.0)
