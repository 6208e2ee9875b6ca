"""Tests of symattn.read.messages: the fixed list of audit message keys."""

from __future__ import annotations

import tomllib
from fractions import Fraction

import pytest

from symattn.config import LANGS
from symattn.read.messages import AUDIT_KEYS, fraction_text, say

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
