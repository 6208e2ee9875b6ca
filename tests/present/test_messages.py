"""Tests of symattn.present.messages: the catalogs, and typed messages in words."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from symattn.config import LANGS
from symattn.errors import InputError
from symattn.judge.findings import Join, Message
from symattn.present.messages import catalog, load_messages, say, search_path, show, text
from symattn.present.resources import templates_dir
from symattn.read.messages import UNCHECKED_KEYS, limit_exceeded, not_checked


def test_search_path_puts_the_user_folder_first(tmp_path: Path) -> None:
    assert search_path(None) == [templates_dir()]
    assert search_path(tmp_path) == [tmp_path, templates_dir()]
    with pytest.raises(InputError, match="not a directory"):
        search_path(tmp_path / "absent")


def test_catalog_tables_are_flattened() -> None:
    messages = load_messages("en")
    assert messages["h_formula"] == "The formula"
    assert messages["check.col.where"] == "Where"
    assert messages["check.cause.wrong-sign"].startswith("wrong sign")


@pytest.mark.parametrize("lang", ["fr", "EN", "../en", "e"])
def test_unknown_or_malformed_language(lang: str) -> None:
    with pytest.raises(InputError):
        load_messages(lang)


def test_user_catalog_overrides_key_by_key(tmp_path: Path) -> None:
    (tmp_path / "messages").mkdir()
    (tmp_path / "messages" / "en.toml").write_text(
        'h_formula = "F"\n[check]\nheading = "H"\n', encoding="utf-8"
    )
    messages = load_messages("en", tmp_path)
    assert messages["h_formula"] == "F" and messages["check.heading"] == "H"
    assert messages["h_data"] == "The data"


def test_a_broken_user_catalog_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "messages").mkdir()
    (tmp_path / "messages" / "en.toml").write_text("h_formula = \n", encoding="utf-8")
    with pytest.raises(InputError, match="not a valid message catalog"):
        load_messages("en", tmp_path)


def test_catalog_table_and_its_strict_lookup() -> None:
    check = catalog("en", "check")
    assert check["summary"].startswith("{checked} claims checked")
    with pytest.raises(InputError, match="no entry check.nope"):
        check["nope"]
    some = catalog("en", "check", keys=("summary", "heading"))
    assert set(some) == {"summary", "heading"} and len(some) == 2
    with pytest.raises(InputError, match="no entry 'check.nope'"):
        catalog("en", "check", keys=("nope",))


def test_text_of_a_missing_key_is_an_error_not_the_key() -> None:
    with pytest.raises(InputError, match="no entry 'nope'"):
        text(load_messages("en"), "nope")


def test_say_renders_nested_messages_and_joins() -> None:
    messages = load_messages("en")
    inner = Message("audit", "what-output", {"values": "[1, 2]"})
    joined = Join((inner, inner), Message("audit", "and"))
    assert show(joined, messages) == "the output [1, 2] and the output [1, 2]"
    assert show([1, "a"], messages) == "[1, a]" and show(None, messages) == ""
    m = Message("check", "dk-mismatch-width", {"stated": 2, "width": 3})
    assert say(m, messages) == "the stated d_k = 2 differs from the width of K = 3"


def test_say_needs_every_placeholder() -> None:
    with pytest.raises(InputError, match="uses {width}, which it is not given"):
        say(Message("check", "dk-mismatch-width", {"stated": 2}), load_messages("en"))


# --------------------------------------------------------------------------- not checked

#: the reasons that read the same in every language (an API's or a command line's spelling,
#: a function's name, an error's own text)
SAME_IN_EVERY_LANGUAGE = frozenset({"raise-api", "raise-cli", "softmax-of-matrix", "error"})


def _sample(key: str, messages: Mapping[str, str]) -> Message:
    """The reason ``key`` with each placeholder its template names given a value."""
    names = re.findall(r"\{([a-z_]+)\}", messages[f"unchecked.{key}"])
    return not_checked(key, **dict.fromkeys(names, 7))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", UNCHECKED_KEYS)
def test_every_not_checked_reason_renders(lang: str, key: str) -> None:
    messages = load_messages(lang)
    said = say(_sample(key, messages), messages)
    assert said.strip() and "{" not in said.replace("e^{", ""), said
    english = say(_sample(key, load_messages("en")), load_messages("en"))
    if lang != "en" and key not in SAME_IN_EVERY_LANGUAGE:
        assert said != english, (lang, key)


def test_a_nested_reason_is_said_in_the_language_of_the_report() -> None:
    m = not_checked("problem-not-checked", why=not_checked("unexpected", token="W_V"))
    assert say(m, load_messages("en")) == "not checked: unexpected 'W_V'"
    assert say(m, load_messages("zh")) == "未核对：无法解析的 'W_V'"
    limit = limit_exceeded("max_formulas", 3, not_checked("rest-formulas"))
    assert say(limit, load_messages("en")) == (
        "the rest is not read: the text holds formulas and arrays, more than max_formulas=3 "
        "(raise it with Limits(max_formulas=...))"
    )
    assert "Limits(max_formulas=...)" in say(limit, load_messages("zh"))
    counts = Join((2, 3), not_checked("or"))
    assert say(not_checked("keys-mismatch", width=4, counts=counts), load_messages("zh")) == (
        "它每行有 4 个元素，但文中给出的键是 2 或 3 个"
    )
