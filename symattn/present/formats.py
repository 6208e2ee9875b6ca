"""How each output format writes text and math, and how a sentence becomes text in it.

Every string a user controls (token names, titles, notes, catalog text outside ``$...$``)
passes through the format's functions, which first make it visible
(:func:`symattn.present.labels.visible`: a bidi control or a zero-width character is shown as
its code, ``\\u202e``); math is written as LaTeX inside the format's
delimiters, and only math this package built reaches them.

Markdown is read by two kinds of renderers: Markdown-with-math (markdown-it with a dollar-math
plugin and KaTeX) and pages that run MathJax over the HTML a plain Markdown renderer made.
MathJax looks for ``\\(``, ``\\[``, ``$$``, ``\\begin``, ``\\ref`` (and ``$`` where enabled)
in the page's text, after Markdown has removed its own escapes, so backslash-escaping is not
enough: every backslash and dollar sign of user text is written inside a code span, which both
renderers leave alone (MathJax skips ``<code>``, and a code element ends the text MathJax
searches for delimiters). Token names are whole code spans (they are set off from the prose).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from symattn.errors import InputError
from symattn.present import labels
from symattn.present.labels import visible
from symattn.present.messages import plural_key, text
from symattn.present.model import Msg, Param, Seg

#: LaTeX text-mode replacements for every special character
LATEX_SPECIALS: Mapping[str, str] = MappingProxyType(
    {
        "\\": r"\textbackslash{}",
        "{": r"\{",
        "}": r"\}",
        "$": r"\$",
        "&": r"\&",
        "#": r"\#",
        "%": r"\%",
        "_": r"\_",
        "^": r"\textasciicircum{}",
        "~": r"\textasciitilde{}",
        "<": r"\textless{}",
        ">": r"\textgreater{}",
        "|": r"\textbar{}",
        "[": "{[}",  # not read as the optional argument of a preceding \\ or command
        "]": "{]}",
        "\n": " ",
        "\r": " ",
        "\t": " ",
        # symbols a text font may lack (pdflatex has no glyph for them in text): from math
        "\u2248": r"\ensuremath{\approx}",
        "\u221a": r"\ensuremath{\surd}",
        "\u221e": r"\ensuremath{\infty}",
        "\u2192": r"\ensuremath{\rightarrow}",
        "\u2264": r"\ensuremath{\leq}",
        "\u2265": r"\ensuremath{\geq}",
        "\u2260": r"\ensuremath{\neq}",
        "\u2212": r"\ensuremath{-}",
        "\u00d7": r"\ensuremath{\times}",
        "\u22c5": r"\ensuremath{\cdot}",
    }
)

#: characters pdflatex (T1, textcomp, utf8) sets as they are: ASCII, Latin-1 and Latin
#: Extended-A, and the usual typographic punctuation
PDFTEX_CHARS = re.compile(
    "[^\x00-\x7f\u00a0-\u017f\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]"
)


def _tex_char(m: re.Match[str]) -> str:
    """A character outside :data:`PDFTEX_CHARS` as a macro of the preamble: ``\\symattncjk``
    for one xeCJK sets (xelatex: the character; pdflatex: its code), ``\\symattnchar`` for
    any other (the character where the font has it, else its code ``U+2581``)."""
    ch = m.group(0)
    wide = unicodedata.east_asian_width(ch) in ("W", "F") and unicodedata.category(ch) != "So"
    macro = "symattncjk" if wide else "symattnchar"
    return f"\\{macro}{{{ord(ch):04X}}}{{{ch}}}"


def tex_chars(text: str) -> str:
    """LaTeX (text or math) whose characters every engine can set: see :func:`_tex_char`."""
    return PDFTEX_CHARS.sub(_tex_char, text)


#: Markdown replacements: backslash escapes for Markdown syntax, entities for HTML
MARKDOWN_SPECIALS: Mapping[str, str] = MappingProxyType(
    {
        **{c: "\\" + c for c in "\\`*_{}#|$~"},
        "[": "&#91;",  # not \[ : MathJax reads \[ as display math in raw-source renderers
        "]": "&#93;",
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        "\n": " ",
        "\r": " ",
        "\t": " ",
    }
)

#: characters that, left in the text of a rendered page, MathJax may read as math
MATH_TRIGGERS = ("\\", "$")


def _escaper(table: Mapping[str, str]) -> Callable[[str], str]:
    pattern = re.compile("|".join(re.escape(k) for k in table))

    def escape(text: str) -> str:
        return pattern.sub(lambda m: table[m.group(0)], visible(text))

    return escape


escape_latex = _escaper(LATEX_SPECIALS)
escape_markdown = _escaper(MARKDOWN_SPECIALS)

#: a run this long with no space (a URL, a path) gets break opportunities in LaTeX prose
_LONG_RUN = re.compile(r"\S{25,}")
#: ... after its punctuation, and at least every :data:`_CHUNK` characters
_BREAK_AFTER = re.compile(r"(?<=[/.\-_?&=#:,;])")
_CHUNK = 20


def latex_user(text: str) -> str:
    """User text in LaTeX prose, escaped; long unbroken runs may break (``\\allowbreak``)
    after their punctuation or every few characters, so a URL does not run off the page."""
    out: list[str] = []
    pos = 0
    for m in _LONG_RUN.finditer(text):
        out.append(escape_latex(text[pos : m.start()]))
        pieces = [
            part[i : i + _CHUNK]
            for part in _BREAK_AFTER.split(m.group())
            for i in range(0, len(part), _CHUNK)
        ]
        out.append(r"\allowbreak{}".join(escape_latex(p) for p in pieces))
        pos = m.end()
    out.append(escape_latex(text[pos:]))
    return _short_lines("".join(out))


#: the longest line :func:`latex_user` writes (TeX stops at lines of its buffer size:
#: 300 KB of notes on one line was "Unable to read an entire line")
LATEX_LINE = 1000
_BREAK = r"\allowbreak{}"


def _short_lines(latex: str) -> str:
    """``latex`` with no line longer than :data:`LATEX_LINE`: a space between two words
    becomes a line end (the same space to TeX, never an empty line), or where a run has no
    space, ``%`` and a line end after an ``\\allowbreak{}`` (nothing to TeX)."""
    if len(latex) <= LATEX_LINE:
        return latex
    out: list[str] = []
    start = 0
    while len(latex) - start > LATEX_LINE:
        window = latex[start : start + LATEX_LINE]
        cut = window.rfind(" ", 1, LATEX_LINE - 1)
        while cut > 0 and (window[cut - 1].isspace() or window[cut + 1].isspace()):
            cut = window.rfind(" ", 1, cut)
        if cut > 0:
            out.append(window[:cut] + "\n")
            start += cut + 1
            continue
        cut = window.rfind(_BREAK)
        if cut <= 0:
            break  # (cannot happen: a run without a space has a break every few characters)
        out.append(window[: cut + len(_BREAK)] + "%\n")
        start += cut + len(_BREAK)
    out.append(latex[start:])
    return "".join(out)


def escape_html(text: str) -> str:
    """Text for HTML (quotes too: it may sit in an attribute)."""
    return html.escape(visible(text).replace("\r", " "), quote=True)


def code_span(text: str, in_table: bool = False) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds (one line).

    ``in_table``: a pipe would end a table cell even inside a code span, so it is escaped
    (GFM removes that backslash before the span is read).
    """
    body = visible(text).replace("\r", " ").replace("\n", " ").replace("\t", " ")
    if in_table:
        body = body.replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if body.startswith("`") or body.endswith("`") or not body.strip() else ""
    return f"{fence}{pad}{body}{pad}{fence}"


_TRIGGER_RUNS = re.compile(r"([\\$]+)")


def markdown_text(text: str, in_table: bool = False) -> str:
    """User text in Markdown prose: escaped, each run of backslashes and dollar signs a code
    span of its own (so no math renderer can pair them into a formula or a command)."""
    parts = _TRIGGER_RUNS.split(visible(text))
    return "".join(
        code_span(p, in_table) if i % 2 else escape_markdown(p) for i, p in enumerate(parts) if p
    )


def math_text(text: str) -> str:
    """A user string inside LaTeX math: ``\\text{...}`` with its content escaped."""
    return r"\text{" + labels.math_text(text) + "}"


@dataclass(frozen=True)
class Format:
    """How one output format writes catalog text, user text, tokens and math."""

    name: str
    escape: Callable[[str], str]  #: trusted text (the catalogs) outside math
    user: Callable[[str], str]  #: user text (titles, notes, finding details)
    token: Callable[[str], str]  #: a token name, set off from the prose
    inline: Callable[[str], str]
    display: Callable[[str], str]


FORMATS: Mapping[str, Format] = MappingProxyType(
    {
        "markdown": Format(
            "markdown",
            escape_markdown,
            markdown_text,
            code_span,
            lambda m: f"${m}$",
            lambda m: f"$$\n{m}\n$$",
        ),
        "latex": Format(
            "latex",
            escape_latex,
            lambda s: tex_chars(latex_user(s)),
            lambda s: r"\texttt{" + tex_chars(escape_latex(s)) + "}",
            lambda m: f"${tex_chars(m)}$",
            lambda m: f"\\[\n{tex_chars(m)}\n\\]",
        ),
        "html": Format(
            "html",
            escape_html,
            escape_html,
            lambda s: f"<code>{escape_html(s)}</code>",
            lambda m: f'<span class="math">{escape_html(m)}</span>',
            lambda m: (
                f'<div class="display"><div class="math display">{escape_html(m)}</div></div>'
            ),
        ),
        "plain": Format(
            "plain",
            lambda s: s,
            visible,
            lambda s: f"\u201c{visible(s)}\u201d",
            lambda m: f"${m}$",
            lambda m: f"$${m}$$",
        ),
    }
)

_CATALOG_MATH = re.compile(r"(\$[^$]+\$)")
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class Writer:
    """Catalog text and sentences of the document model, written in one format."""

    def __init__(self, messages: Mapping[str, str], fmt: Format, lang: str = "en") -> None:
        self.messages = messages
        self.fmt = fmt
        self.lang = lang

    def raw(self, key: str, count: int | None = None) -> str:
        """The catalog text of ``key`` (its plural form for ``count``), unescaped."""
        return text(self.messages, plural_key(self.messages, key, count, self.lang))

    def literal(self, catalog_text: str) -> str:
        """Catalog text: ``$...$`` spans kept as math, the rest escaped."""
        parts = _CATALOG_MATH.split(catalog_text)
        return "".join(
            self.fmt.inline(p[1:-1]) if i % 2 else self.fmt.escape(p) for i, p in enumerate(parts)
        )

    def seg(self, seg: Seg) -> str:
        """One sentence piece: math in the format's delimiters, a token set off, text escaped."""
        if seg.kind == "math":
            return self.fmt.inline(seg.content) if seg.content else ""
        if seg.kind == "token":
            return self.fmt.token(seg.content)
        return self.fmt.user(seg.content)

    def param(self, value: Param) -> str:
        """A parameter: one piece, or a list joined by the catalog's ``list_sep``."""
        if isinstance(value, Seg):
            return self.seg(value)
        return self.literal(self.raw("list_sep")).join(self.seg(s) for s in value)

    def message(self, msg: Msg) -> str:
        """The sentence ``msg`` with its placeholders filled (placeholders outside math only:
        braces inside ``$...$`` are LaTeX)."""
        out = []
        for i, part in enumerate(_CATALOG_MATH.split(self.raw(msg.key, msg.count))):
            if i % 2:
                out.append(self.fmt.inline(part[1:-1]))
                continue
            pos = 0
            for m in _PLACEHOLDER.finditer(part):
                out.append(self.fmt.escape(part[pos : m.start()]))
                name = m.group(1)
                if name not in msg.params:
                    raise InputError(
                        f"message {msg.key!r} uses {{{name}}}, which the document does not give"
                    )
                out.append(self.param(msg.params[name]))
                pos = m.end()
            out.append(self.fmt.escape(part[pos:]))
        return "".join(out)
