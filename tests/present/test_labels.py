"""Tests of symattn.present.labels: which token names may sit inside a formula."""

from __future__ import annotations

import pytest

from symattn.present.labels import is_math_safe, math_label, row_labels


@pytest.mark.parametrize("name", ["Thinking", "它", "机器 学习", "don't", "x-1", "(a)", "é"])
def test_plain_names_are_safe(name: str) -> None:
    assert is_math_safe(name)
    assert math_label(name) == r"\text{" + name + "}"


@pytest.mark.parametrize(
    "name",
    [
        r"\(\href{javascript:alert(1)}{click}\)",
        "$x$",
        "a_b",
        "{",
        "100%",
        "#1",
        "a&b",
        "~",
        "^",
        "a\u200bb",
        "a\x00",
        " lead",
        "",
        "<b>",
    ],
)
def test_names_that_could_change_a_formula_stay_out(name: str) -> None:
    assert not is_math_safe(name)
    assert math_label(name) is None


def test_long_names_stay_out() -> None:
    assert math_label("a" * 40) is None


def test_a_column_of_labels_is_all_names_or_all_numbers() -> None:
    assert row_labels(("a", "b"), "t") == (r"\text{a}", r"\text{b}")
    assert row_labels(("a", "$b$"), "t") == ("t_{1}", "t_{2}")
