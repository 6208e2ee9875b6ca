"""How each output format writes text and math, and how a sentence becomes text in it.

Every string a user controls (token names, titles, catalog text outside ``$...$``) passes
through the format's escape function; math is written as LaTeX inside the format's
delimiters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from symattn.errors import InputError
from symattn.present.messages import text
from symattn.present.model import Msg, Param, Seg

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

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
    }
)

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


def _escaper(table: Mapping[str, str]) -> Callable[[str], str]:
    pattern = re.compile("|".join(re.escape(k) for k in table))

    def escape(text: str) -> str:
        return pattern.sub(lambda m: table[m.group(0)], _CONTROL.sub("", text))

    return escape


escape_latex = _escaper(LATEX_SPECIALS)
escape_markdown = _escaper(MARKDOWN_SPECIALS)


def math_text(text: str) -> str:
    """A user string inside LaTeX math: ``\\text{...}`` with its content escaped."""
    return r"\text{" + escape_latex(text) + "}"


@dataclass(frozen=True)
class Format:
    """How one output format writes text, inline math and display math."""

    name: str
    escape: Callable[[str], str]
    inline: Callable[[str], str]
    display: Callable[[str], str]


FORMATS: Mapping[str, Format] = MappingProxyType(
    {
        "markdown": Format(
            "markdown", escape_markdown, lambda m: f"${m}$", lambda m: f"$$\n{m}\n$$"
        ),
        "latex": Format("latex", escape_latex, lambda m: f"${m}$", lambda m: f"\\[\n{m}\n\\]"),
        "plain": Format("plain", lambda s: s, lambda m: f"${m}$", lambda m: f"$${m}$$"),
    }
)

_CATALOG_MATH = re.compile(r"(\$[^$]+\$)")
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class Writer:
    """Catalog text and sentences of the document model, written in one format."""

    def __init__(self, messages: Mapping[str, str], fmt: Format) -> None:
        self.messages = messages
        self.fmt = fmt

    def raw(self, key: str) -> str:
        """The catalog text of ``key``, unescaped (an error when the catalog lacks it)."""
        return text(self.messages, key)

    def literal(self, catalog_text: str) -> str:
        """Catalog text: ``$...$`` spans kept as math, the rest escaped."""
        parts = _CATALOG_MATH.split(catalog_text)
        return "".join(
            self.fmt.inline(p[1:-1]) if i % 2 else self.fmt.escape(p) for i, p in enumerate(parts)
        )

    def seg(self, seg: Seg) -> str:
        """One sentence piece: math in the format's delimiters, anything else escaped."""
        if seg.kind == "math":
            return self.fmt.inline(seg.content) if seg.content else ""
        return self.fmt.escape(seg.content)

    def param(self, value: Param) -> str:
        """A parameter: one piece, or a list joined by the catalog's ``list_sep``."""
        if isinstance(value, Seg):
            return self.seg(value)
        return self.literal(self.raw("list_sep")).join(self.seg(s) for s in value)

    def message(self, msg: Msg) -> str:
        """The sentence ``msg`` with its placeholders filled."""
        template = self.raw(msg.key)
        out = []
        pos = 0
        for m in _PLACEHOLDER.finditer(template):
            out.append(self.literal(template[pos : m.start()]))
            name = m.group(1)
            if name not in msg.params:
                raise InputError(
                    f"message {msg.key!r} uses {{{name}}}, which the document does not give"
                )
            out.append(self.param(msg.params[name]))
            pos = m.end()
        out.append(self.literal(template[pos:]))
        return "".join(out)
