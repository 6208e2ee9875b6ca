"""Render a :class:`~symattn.present.model.Document` as Markdown, LaTeX or JSON, and the
Markdown reports of ``check`` and ``audit``.

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
import traceback
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import quote

import jinja2
from jinja2.exceptions import SecurityError
from markupsafe import Markup

from symattn.errors import InputError, SymattnError
from symattn.present.assets import KatexAssets
from symattn.present.blocks import share_edges
from symattn.present.formats import (
    FORMATS,
    LATEX_SPECIALS,
    MARKDOWN_SPECIALS,
    Format,
    Writer,
    escape_latex,
    escape_markdown,
    markdown_text,
    math_text,
)
from symattn.present.heatmap import heatmap_svg
from symattn.present.labels import shown_with
from symattn.present.messages import load_messages, search_path
from symattn.present.model import Document, Msg, Seg
from symattn.present.sandbox import BoundedSandbox, TemplateLimitError, bounded_render

__all__ = [
    "FORMATS",
    "LATEX_SPECIALS",
    "MARKDOWN_SPECIALS",
    "Format",
    "environment",
    "escape_latex",
    "escape_markdown",
    "math_text",
    "render_html",
    "render_json",
    "render_latex",
    "render_markdown",
    "render_report",
]

#: the template of the worked example, per output format
DOCUMENT_TEMPLATES: Mapping[str, str] = MappingProxyType(
    {
        "markdown": "markdown/document.md.j2",
        "latex": "latex/document.tex.j2",
        "html": "html/document.html.j2",
    }
)
_BLANK_LINES = re.compile(r"\n{3,}")
#: a file name LaTeX can include as it is (anything else: the plot is referenced, not drawn)
_LATEX_PATH = re.compile(r"[A-Za-z0-9._/-]{1,200}")


def environment(fmt: str, lang: str, templates: str | Path | None = None) -> jinja2.Environment:
    """The jinja2 environment for one format and language, with every filter registered.

    It is a :class:`~symattn.present.sandbox.BoundedSandbox` (jinja2's immutable sandbox,
    bounded): a template from ``--templates DIR`` may lay out the document model but cannot
    reach Python internals (``__globals__``, ``__class__``, ...), call methods that change
    data (``l.append(2)``), run anything, or make values, output or work past its bounds.
    """
    spec = FORMATS[fmt]
    writer = Writer(load_messages(lang, templates), spec, lang)

    def finalize(value: Any) -> Any:
        if isinstance(value, Markup):
            return value
        if value is None:
            return ""
        return spec.user(str(value))

    env = BoundedSandbox(
        loader=jinja2.FileSystemLoader([str(p) for p in search_path(templates)]),
        autoescape=False,
        finalize=finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(
        msg=lambda m: Markup(writer.message(m)),
        seg=lambda s: Markup(writer.seg(s)),
        math=lambda m: Markup(spec.inline(m)),
        display=lambda m: Markup(spec.display(m)),
        blocks=lambda lines: share_edges(tuple(lines)),
        mathtext=lambda s: Markup(math_text(s)),
        raw_message=lambda key: Markup(writer.raw(key)),
        cell=lambda s: Markup(_cell("" if s is None else str(s))),
        heatmap=lambda h: Markup(heatmap_svg(h, writer.raw("html_masked"))),
        katex_css=lambda a: Markup(a.css),
        katex_js=lambda a: Markup(a.js),
        heading=lambda level: Markup(_heading(fmt, int(level))),
        urlpath=lambda p: Markup(quote(str(p), safe="/._-~")),
        latexpath=lambda p: Markup(str(p) if _LATEX_PATH.fullmatch(str(p)) else ""),
    )
    env.globals.update(t=lambda key: Markup(writer.literal(writer.raw(key))))
    return env


def _cell(text: str) -> str:
    """User text in a Markdown table cell (a pipe never ends the cell)."""
    return markdown_text(text, in_table=True)


def _heading(fmt: str, level: int) -> str:
    """The start of a heading of ``level`` (1: the title) in ``fmt``."""
    if fmt == "latex":
        return {1: r"\section*", 2: r"\subsection*", 3: r"\subsubsection*"}.get(
            level, r"\paragraph*"
        )
    if fmt == "html":
        return f"h{min(max(level, 1), 6)}"
    return "#" * level


def _render(
    fmt: str, lang: str, name: str, templates: str | Path | None, context: Mapping[str, Any]
) -> str:
    """Template ``name`` rendered in ``fmt``, with runs of blank lines squeezed to one.

    A template that is missing, malformed or tries something the sandbox forbids is one
    clear error naming it.
    """
    env = environment(fmt, lang, templates)
    try:
        template = env.get_template(name)
        text = bounded_render(template, dict(context))
    except jinja2.TemplateNotFound as e:
        raise InputError(
            f"template {e.name!r} not found in {', '.join(map(str, search_path(templates)))}"
        ) from e
    except SecurityError as e:
        raise InputError(f"template {_where(e, name)}: refused by the sandbox: {e}") from None
    except jinja2.TemplateSyntaxError as e:
        raise InputError(f"template {e.filename or name}:{e.lineno}: {e.message}") from None
    except jinja2.UndefinedError as e:
        raise InputError(f"template {name}: {e.message}") from None
    except TemplateLimitError as e:
        raise InputError(f"template {_where(e, template.filename or name)}: {e}") from None
    except SymattnError:
        raise
    except Exception as e:  # a template's own runtime error (1/0, a bad filter argument)
        where = _where(e, None)
        if where is None:
            raise  # not raised by template code: a bug of symattn's, shown as one
        raise InputError(f"template {where}: {type(e).__name__}: {e}") from None
    return _BLANK_LINES.sub("\n\n", text).strip() + "\n"


def _where(error: BaseException, default: str | None) -> str | None:
    """``FILE:LINE`` of the template line that raised ``error`` (jinja2 rewrites tracebacks
    to the template's lines), or ``default`` when no template frame raised it."""
    frames = [
        f for f in traceback.extract_tb(error.__traceback__) if not f.filename.endswith(".py")
    ]
    if not frames:
        return default
    return f"{frames[-1].filename}:{frames[-1].lineno}"


def render_report(
    name: str, lang: str, *, templates: str | Path | None = None, **context: Any
) -> str:
    """A Markdown report (``check_report``, ``audit_report``) through the same environment.

    Every value the template prints is escaped for Markdown unless it is marked safe.
    """
    return _render("markdown", lang, f"markdown/{name}.md.j2", templates, context)


def render_markdown(doc: Document, *, templates: str | Path | None = None) -> str:
    """The document as Markdown with ``$...$`` / ``$$...$$`` math (KaTeX and MathJax)."""
    return _render("markdown", doc.lang, DOCUMENT_TEMPLATES["markdown"], templates, {"doc": doc})


def render_latex(
    doc: Document, fragment: bool = False, *, templates: str | Path | None = None
) -> str:
    """The document as a complete xelatex document (``ctex`` for Chinese), or a fragment."""
    context = {"doc": doc, "fragment": fragment}
    return _render("latex", doc.lang, DOCUMENT_TEMPLATES["latex"], templates, context)


def render_html(
    doc: Document,
    *,
    templates: str | Path | None = None,
    assets: KatexAssets | None = None,
) -> str:
    """The document as one self-contained HTML page (KaTeX inlined; works offline).

    ``assets`` are KaTeX's script and style sheet (:func:`symattn.present.assets.katex_assets`);
    without them the page holds a placeholder comment instead (for golden files).
    """
    context = {"doc": doc, "assets": assets}
    return _render("html", doc.lang, DOCUMENT_TEMPLATES["html"], templates, context)


def _jsonable(value: Any, writer: Writer) -> Any:
    if isinstance(value, Msg):
        return {"key": value.key, "text": writer.message(value)}
    if isinstance(value, Seg):
        return {"kind": value.kind, "content": value.content}
    if is_dataclass(value):
        return {
            f.name: _jsonable(getattr(value, f.name), writer)
            for f in fields(value)
            if f.metadata.get("json", True)
        }
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v, writer) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, writer) for v in value]
    if isinstance(value, Fraction):
        return str(value)
    return value


def render_json(doc: Document, *, templates: str | Path | None = None) -> str:
    """The document model as JSON; sentences carry their key and their text (math in ``$``)."""
    writer = Writer(load_messages(doc.lang, templates), FORMATS["plain"], doc.lang)
    data = {"schema": "symattn.document/2", **_jsonable(doc, writer)}
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    # a bidi control or an invisible character is written as a JSON escape: the same data,
    # but nothing that reorders or hides text where the file is shown
    return shown_with(text, lambda c: json.dumps(c)[1:-1])
