"""Render a :class:`~symattn.document.Document` as Markdown, LaTeX or JSON.

One jinja2 environment factory (:func:`environment`) serves every format: the search path
is ``[--templates DIR, package templates]``, so a user's ``markdown/document.md.j2`` can
``{% extends "markdown/base.md.j2" %}`` and override blocks. Every ``{{ ... }}`` passes
through the format's escape function (``finalize``); only values the renderer built itself
(:class:`markupsafe.Markup`) pass unchanged. Wording comes from the message catalog
``messages/<lang>.toml``; catalog text may contain ``$...$`` math, the rest is escaped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

import jinja2
from markupsafe import Markup

from symattn.errors import InputError
from symattn.present.messages import load_messages, search_path
from symattn.present.model import Document, Msg, Seg

# --------------------------------------------------------------------------- escaping

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
    folder: str
    escape: Callable[[str], str]
    inline: Callable[[str], str]
    display: Callable[[str], str]


FORMATS: Mapping[str, Format] = MappingProxyType(
    {
        "markdown": Format(
            "markdown", "markdown", escape_markdown, lambda m: f"${m}$", lambda m: f"$$\n{m}\n$$"
        ),
        "latex": Format(
            "latex", "latex", escape_latex, lambda m: f"${m}$", lambda m: f"\\[\n{m}\n\\]"
        ),
        "plain": Format("plain", "", lambda s: s, lambda m: f"${m}$", lambda m: f"$${m}$$"),
    }
)

_CATALOG_MATH = re.compile(r"(\$[^$]+\$)")
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class _Catalog:
    """Message lookup bound to one format."""

    def __init__(self, messages: Mapping[str, str], fmt: Format) -> None:
        self.messages = messages
        self.fmt = fmt

    def raw(self, key: str) -> str:
        try:
            return self.messages[key]
        except KeyError:
            raise InputError(f"message catalog has no entry {key!r}") from None

    def literal(self, text: str) -> str:
        """Catalog text: ``$...$`` spans kept as math, the rest escaped."""
        parts = _CATALOG_MATH.split(text)
        return "".join(
            self.fmt.inline(p[1:-1]) if i % 2 else self.fmt.escape(p) for i, p in enumerate(parts)
        )

    def seg(self, seg: Seg) -> str:
        if seg.kind == "math":
            return self.fmt.inline(seg.content) if seg.content else ""
        return self.fmt.escape(seg.content)

    def param(self, value: Seg | tuple[Seg, ...]) -> str:
        if isinstance(value, Seg):
            return self.seg(value)
        return self.literal(self.raw("list_sep")).join(self.seg(s) for s in value)

    def message(self, msg: Msg) -> str:
        text = self.raw(msg.key)
        out = []
        pos = 0
        for m in _PLACEHOLDER.finditer(text):
            out.append(self.literal(text[pos : m.start()]))
            name = m.group(1)
            if name not in msg.params:
                raise InputError(
                    f"message {msg.key!r} uses {{{name}}}, which the document does not give"
                )
            out.append(self.param(msg.params[name]))
            pos = m.end()
        out.append(self.literal(text[pos:]))
        return "".join(out)


# --------------------------------------------------------------------------- environment


def environment(fmt: str, lang: str, templates: str | Path | None = None) -> jinja2.Environment:
    """The jinja2 environment for one format and language, with every filter registered."""
    spec = FORMATS[fmt]
    catalog = _Catalog(load_messages(lang, templates), spec)

    def finalize(value: Any) -> Any:
        if isinstance(value, Markup):
            return value
        if value is None:
            return ""
        return spec.escape(str(value))

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in search_path(templates)]),
        autoescape=False,
        finalize=finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(
        msg=lambda m: Markup(catalog.message(m)),
        seg=lambda s: Markup(catalog.seg(s)),
        math=lambda m: Markup(spec.inline(m)),
        display=lambda m: Markup(spec.display(m)),
        mathtext=lambda s: Markup(math_text(s)),
        raw_message=lambda key: Markup(catalog.raw(key)),
    )
    env.globals.update(t=lambda key: Markup(catalog.literal(catalog.raw(key))))
    return env


def _render(
    doc: Document, fmt: str, name: str, templates: str | Path | None, **context: Any
) -> str:
    env = environment(fmt, doc.lang, templates)
    try:
        template = env.get_template(name)
    except jinja2.TemplateNotFound as e:
        raise InputError(
            f"template {e.name!r} not found in {', '.join(map(str, search_path(templates)))}"
        ) from e
    text = template.render(doc=doc, **context)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def render_report(
    name: str, lang: str, *, templates: str | Path | None = None, **context: Any
) -> str:
    """A Markdown report (``check_report``, ``audit_report``) through the same environment.

    Every value the template prints is escaped for Markdown unless it is marked safe.
    """
    env = environment("markdown", lang, templates)
    try:
        template = env.get_template(f"markdown/{name}.md.j2")
    except jinja2.TemplateNotFound as e:
        raise InputError(
            f"template {e.name!r} not found in {', '.join(map(str, search_path(templates)))}"
        ) from e
    text = template.render(**context)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def render_markdown(doc: Document, *, templates: str | Path | None = None) -> str:
    """The document as Markdown with ``$...$`` / ``$$...$$`` math (KaTeX and MathJax)."""
    return _render(doc, "markdown", "markdown/document.md.j2", templates)


def render_latex(
    doc: Document, fragment: bool = False, *, templates: str | Path | None = None
) -> str:
    """The document as a complete xelatex document (``ctex`` for Chinese), or a fragment."""
    return _render(doc, "latex", "latex/document.tex.j2", templates, fragment=fragment)


def _jsonable(value: Any, catalog: _Catalog) -> Any:
    if isinstance(value, Msg):
        return {"key": value.key, "text": catalog.message(value)}
    if isinstance(value, Seg):
        return {"kind": value.kind, "content": value.content}
    if is_dataclass(value):
        return {f.name: _jsonable(getattr(value, f.name), catalog) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v, catalog) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, catalog) for v in value]
    if isinstance(value, Fraction):
        return str(value)
    return value


def render_json(doc: Document, *, templates: str | Path | None = None) -> str:
    """The document model as JSON; sentences carry their key and their text (math in ``$``)."""
    catalog = _Catalog(load_messages(doc.lang, templates), FORMATS["plain"])
    data = {"schema": "symattn.document/1", **_jsonable(doc, catalog)}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
