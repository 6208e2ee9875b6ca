"""Tests of symattn.read.messages: the fixed lists of audit and not-checked message keys."""

from __future__ import annotations

import tomllib
from fractions import Fraction

import pytest

from symattn.config import LANGS
from symattn.errors import InputError
from symattn.judge.findings import Message
from symattn.read.messages import (
    AUDIT_KEYS,
    UNCHECKED_KEYS,
    fraction_text,
    limit_exceeded,
    not_checked,
    plain,
    reason_of,
    say,
)
from symattn.read.syntax import parse
from symattn.read.tokens import ExprError

from ..conftest import ROOT


def test_keys_are_unique() -> None:
    assert len(AUDIT_KEYS) == len(set(AUDIT_KEYS))


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_is_in_the_catalog(lang: str) -> None:
    with (ROOT / "templates" / "messages" / f"{lang}.toml").open("rb") as f:
        audit = tomllib.load(f)["audit"]
    assert [k for k in AUDIT_KEYS if k not in audit] == []


def test_say_builds_an_audit_message() -> None:
    m = say("truncated", claimed="2.71", expected=None)
    assert (m.section, m.key, dict(m.params)) == (
        "audit",
        "truncated",
        {"claimed": "2.71", "expected": ""},
    )


def test_say_refuses_a_key_not_in_the_list() -> None:
    with pytest.raises(KeyError, match="AUDIT_KEYS"):
        say("no-such-key")


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(-7, 20), "-0.35"), (Fraction(1, 3), "1/3"), (Fraction(5), "5")],
)
def test_fraction_text(value: Fraction, text: str) -> None:
    assert fraction_text(value) == text


# --------------------------------------------------------------------------- not checked


def test_unchecked_keys_are_unique() -> None:
    assert len(UNCHECKED_KEYS) == len(set(UNCHECKED_KEYS))


@pytest.mark.parametrize("lang", LANGS)
def test_every_unchecked_key_is_in_the_catalog(lang: str) -> None:
    with (ROOT / "templates" / "messages" / f"{lang}.toml").open("rb") as f:
        table = tomllib.load(f)["unchecked"]
    assert [k for k in UNCHECKED_KEYS if k not in table] == []
    assert [k for k in table if k not in UNCHECKED_KEYS] == []


def test_not_checked_builds_a_typed_message() -> None:
    m = not_checked("unexpected", token="W_V")
    assert (m.section, m.key, dict(m.params)) == ("unchecked", "unexpected", {"token": "W_V"})
    assert dict(not_checked("closest", frame=None).params) == {"frame": ""}


def test_not_checked_refuses_a_key_not_in_the_list() -> None:
    with pytest.raises(KeyError, match="UNCHECKED_KEYS"):
        not_checked("no-such-reason")


def test_a_limit_nests_what_went_beyond_it_and_how_to_raise_it() -> None:
    what = not_checked("formula-too-long", length=40)
    m = limit_exceeded("max_formula_length", 30, what)
    assert m.key == "limit" and m.params["what"] == what
    assert (m.params["limit"], m.params["value"]) == ("max_formula_length", 30)
    assert m.params["how"] == not_checked("raise-api", limit="max_formula_length")


def test_a_parse_error_carries_its_reason() -> None:
    with pytest.raises(ExprError) as e:
        parse("1 + ?")
    assert e.value.reason == not_checked("unexpected-character", char="?", offset=4)
    assert reason_of(e.value) is e.value.reason
    assert str(e.value) == plain(e.value.reason)
    assert plain(e.value.reason) == "unchecked.unexpected-character(char='?', offset=4)"


def test_an_error_from_below_read_keeps_its_own_text() -> None:
    m = reason_of(InputError("bad shape"))
    assert m == Message("unchecked", "error", {"detail": "bad shape"})
