"""Tests of symattn.present.formats: escaping per output format, sentences per format."""

from __future__ import annotations

import pytest

from symattn.errors import InputError
from symattn.present.formats import (
    FORMATS,
    Writer,
    code_span,
    escape_latex,
    escape_markdown,
    latex_user,
    markdown_text,
    math_text,
)
from symattn.present.messages import load_messages
from symattn.present.model import Msg, Seg, math_seg, msg, text_seg, token_seg


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
    assert math_text("$x$") == r"\text{\textdollar{}x\textdollar{}}"


def _writer(fmt: str, lang: str = "en") -> Writer:
    return Writer(load_messages(lang), FORMATS[fmt], lang)


def test_message_sets_tokens_off_escaped_per_format() -> None:
    m = msg("dot_caption", query=token_seg("a_b"), key=token_seg("$x$"))
    assert _writer("markdown").message(m) == "`a_b` with `$x$`:"
    assert _writer("latex").message(m) == r"\texttt{a\_b} with \texttt{\$x\$}:"
    assert _writer("html").message(m) == "<code>a_b</code> with <code>$x$</code>:"
    assert _writer("plain").message(m) == "\u201ca_b\u201d with \u201c$x$\u201d:"


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("plain *words*", r"plain \*words\*"),
        (r"\(\href{javascript:alert(1)}{x}\)", r"`\`(`\`href\{javascript:alert(1)\}\{x\}`\`)"),
        ("cost $5 and $$6", "cost `$`5 and `$$`6"),
        ("a `tick` b\\", "a \\`tick\\` b`\\`"),
        ("line\nbreak\x85", r"line break`\`u0085"),  # a control shown by its code
    ],
)
def test_user_text_in_markdown_is_escaped_with_triggers_in_code(text: str, out: str) -> None:
    assert markdown_text(text) == out


def test_code_span_in_a_table_escapes_pipes_and_never_breaks_out() -> None:
    assert code_span("a|b", in_table=True) == "`a\\|b`"
    assert code_span("``x``") == "``` ``x`` ```"
    assert code_span(" ") == "`   `"


def test_placeholders_are_filled_outside_math_only() -> None:
    w = Writer({"k": "value {x} and $\\frac{d_k}{x}$"}, FORMATS["plain"])
    assert (
        Msg.__name__ and w.message(msg_any("k", x=text_seg("1"))) == "value 1 and $\\frac{d_k}{x}$"
    )


def test_plural_forms_follow_the_count() -> None:
    en = _writer("markdown", "en")
    zh = _writer("markdown", "zh")
    one = msg("masked_keys", count=1, keys=(token_seg("b"),))
    two = msg("masked_keys", count=2, keys=(token_seg("b"), token_seg("c")))
    assert en.message(one).startswith("Key `b` is masked")
    assert en.message(two).startswith("Keys `b`, `c` are masked")
    assert zh.message(one).startswith("对这个查询来说，键 `b` 被遮蔽")


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
    with pytest.raises(InputError, match="no entry 'h_formula.other'"):
        w.raw("h_formula")


def msg_any(key: str, **params: Seg) -> Msg:
    """A message with any key (the model only takes listed keys)."""
    m = object.__new__(Msg)
    object.__setattr__(m, "key", key)
    object.__setattr__(m, "params", params)
    object.__setattr__(m, "count", None)
    return m


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("short words stay whole", "short words stay whole"),
        ("https://ex.org/a_b/c?x=1", r"https://ex.org/a\_b/c?x=1"),  # under 25 characters
        (
            "see https://example.org/posts/attention_101",
            r"see https:\allowbreak{}/\allowbreak{}/\allowbreak{}example.\allowbreak{}org/"
            r"\allowbreak{}posts/\allowbreak{}attention\_\allowbreak{}101",
        ),
        ("a" * 45, "a" * 20 + r"\allowbreak{}" + "a" * 20 + r"\allowbreak{}" + "a" * 5),
        ("{" * 30, r"\{" * 20 + r"\allowbreak{}" + r"\{" * 10),
    ],
)
def test_latex_user_text_breaks_long_runs_and_stays_escaped(text: str, out: str) -> None:
    assert latex_user(text) == out
