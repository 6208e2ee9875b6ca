"""Tests of symattn.present.formats: escaping per output format, sentences per format."""

from __future__ import annotations

import pytest

from symattn.errors import InputError
from symattn.present.formats import FORMATS, Writer, escape_latex, escape_markdown, math_text
from symattn.present.messages import load_messages
from symattn.present.model import math_seg, msg, text_seg, token_seg


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        (r"\input{x}", r"\textbackslash{}input\{x\}"),
        ("50% & $5", r"50\% \& \$5"),
        ("a_b^c~", r"a\_b\textasciicircum{}c\textasciitilde{}"),
    ],
)
def test_escape_latex(text: str, escaped: str) -> None:
    assert escape_latex(text) == escaped


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("$x$", r"\$x\$"),
        ("<script>", "&lt;script&gt;"),
        ("*a* _b_ [c]", r"\*a\* \_b\_ &#91;c&#93;"),
        ("a\\b", r"a\\b"),
    ],
)
def test_escape_markdown(text: str, escaped: str) -> None:
    assert escape_markdown(text) == escaped


def test_math_text() -> None:
    assert math_text("$x$") == r"\text{\$x\$}"


def _writer(fmt: str, lang: str = "en") -> Writer:
    return Writer(load_messages(lang), FORMATS[fmt])


def test_message_fills_placeholders_escaped_per_format() -> None:
    m = msg("dot_caption", query=token_seg("a_b"), key=token_seg("$x$"))
    assert _writer("markdown").message(m) == r"a\_b with \$x\$:"
    assert _writer("latex").message(m) == r"a\_b with \$x\$:"
    assert _writer("plain").message(m) == "a_b with $x$:"


def test_catalog_math_is_kept_and_lists_are_joined() -> None:
    w = _writer("latex")
    assert w.literal("width $d_k$ & more") == r"width $d_k$ \& more"
    assert w.param((math_seg("1"), math_seg("2"))) == "$1$, $2$"
    assert w.seg(math_seg("")) == ""


def test_a_placeholder_the_document_does_not_give_is_an_error() -> None:
    with pytest.raises(InputError, match="does not give"):
        _writer("markdown").message(msg("dot_caption", query=text_seg("q")))


def test_a_key_the_catalog_lacks_is_an_error() -> None:
    w = Writer({}, FORMATS["plain"])
    with pytest.raises(InputError, match="no entry 'h_formula'"):
        w.raw("h_formula")
