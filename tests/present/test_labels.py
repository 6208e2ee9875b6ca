"""Tests of symattn.present.labels: token names are shown as they are, visibly, in math."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symattn.present.labels import (
    MATH_TEXT_SPECIALS,
    code_of,
    is_hidden,
    math_label,
    math_text,
    row_labels,
    shown_with,
    visible,
)

#: names real tokenizers produce, and how each is set inside ``\text{}``
TOKENIZER_NAMES = (
    ("[CLS]", r"\text{[CLS]}"),
    ("<pad>", r"\text{\textless{}pad\textgreater{}}"),
    ("</s>", r"\text{\textless{}/s\textgreater{}}"),
    ("<s>", r"\text{\textless{}s\textgreater{}}"),
    ("\u2581the", "\\text{\u2581the}"),
    ("\u0120the", "\\text{\u0120the}"),
    ("a_b", r"\text{a\textunderscore{}b}"),
    ("#1", r"\text{\#1}"),
    ("x^2", r"\text{x\textasciicircum{}2}"),
    ("100%", r"\text{100\%}"),
    ("a&b", r"\text{a\&b}"),
    ("~", r"\text{\textasciitilde{}}"),
    ("{", r"\text{\textbraceleft{}}"),
    ("$x$", r"\text{\textdollar{}x\textdollar{}}"),
    ("a|b", r"\text{a\textbar{}b}"),
    ("\\", r"\text{\textbackslash{}}"),
    ("机器 学习", r"\text{机器 学习}"),
    ("\U0001f600", "\\text{\U0001f600}"),
    ("don't", r"\text{don't}"),
)


@pytest.mark.parametrize(("name", "label"), TOKENIZER_NAMES, ids=[n for n, _ in TOKENIZER_NAMES])
def test_every_tokenizer_name_is_shown_as_it_is(name: str, label: str) -> None:
    assert math_label(name) == label


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("a\u200bb", "a\\u200bb"),  # zero-width space
        ("\u202eevil", "\\u202eevil"),  # right-to-left override
        ("\u2066x\u2069", "\\u2066x\\u2069"),  # isolates
        ("\u200f", "\\u200f"),  # right-to-left mark
        ("\ufeff", "\\ufeff"),  # byte order mark
        ("\u00ad", "\\u00ad"),  # soft hyphen
        ("a\x00", "a\\u0000"),
        ("\U000e0041", "\\U000e0041"),  # a tag character
        ("\ufe0f", "\\ufe0f"),  # a variation selector
    ],
)
def test_invisible_and_reordering_characters_are_shown_by_code(name: str, shown: str) -> None:
    assert visible(name) == shown
    assert math_label(name) == r"\text{" + shown.replace("\\", r"\textbackslash{}") + "}"


def test_ordinary_text_is_left_alone() -> None:
    text = "注意力 Ω √2 ≈ 1.41 — “quotes”\ttab\nline"
    assert visible(text) is text
    assert not any(is_hidden(c) for c in text)
    assert code_of("\U0001f600") == "\\U0001f600"


def test_every_special_character_is_written_by_name_or_escaped() -> None:
    for ch, written in MATH_TEXT_SPECIALS.items():
        assert math_text(ch) == written


def test_a_long_name_is_cut_not_numbered() -> None:
    label = math_label("a" * 40)
    assert label.startswith(r"\text{aaaa") and label.endswith(r"}\ldots")


def test_row_labels_are_the_names() -> None:
    assert row_labels(("a", "$b$")) == (r"\text{a}", r"\text{\textdollar{}b\textdollar{}}")


@given(
    st.text(
        alphabet=st.one_of(
            st.characters(),
            st.sampled_from(["\u200b", "\u202e", "\u2066", "\ufe0f", "\u3164", "\u3000", "\xa0"]),
        )
    )
)
def test_visible_is_its_character_by_character_definition(text: str) -> None:
    """The C-speed shortcut for printable runs changes nothing: every hidden character, and
    only those, is written as its code."""
    from_chars = "".join(code_of(c) if is_hidden(c) else c for c in text)
    assert visible(text) == from_chars
    assert shown_with(text, code_of) == from_chars
