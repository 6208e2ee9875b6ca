"""Tests of symattn.judge.messages: the fixed list of [check] keys, in every catalog."""

from __future__ import annotations

import tomllib
from typing import get_args

import pytest

from symattn.config import LANGS
from symattn.judge.codes import SEVERITY
from symattn.judge.messages import (
    CAUSE_KEYS,
    CHECK_KEYS,
    DIVISOR_KEYS,
    SECTION,
    Cause,
    FindingKey,
    cause_message,
    finding_message,
)
from tests.conftest import ROOT


def _keys(lang: str) -> set[str]:
    """The ``[check]`` keys of a catalog, nested tables flattened to dotted keys."""
    path = ROOT / "templates" / "messages" / f"{lang}.toml"
    table = tomllib.loads(path.read_text(encoding="utf-8"))[SECTION]

    def flat(t: dict[str, object], prefix: str) -> set[str]:
        out: set[str] = set()
        for k, v in t.items():
            out |= flat(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
        return out

    return flat(table, "")


def test_keys_are_listed_once() -> None:
    assert len(set(CHECK_KEYS)) == len(CHECK_KEYS)
    assert set(CAUSE_KEYS) == set(get_args(Cause))
    assert set(CHECK_KEYS) == set(get_args(FindingKey)) | set(CAUSE_KEYS.values()) | set(
        DIVISOR_KEYS.values()
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", CHECK_KEYS)
def test_every_key_is_in_every_catalog(lang: str, key: str) -> None:
    assert key in _keys(lang), f"[{SECTION}] {key} missing in {lang}.toml"


def test_codes_without_their_own_key() -> None:
    # every finding code is its own message key, but for propagated-rounding, which is
    # always explained (propagated-exact or propagated-interval)
    assert set(SEVERITY) - set(get_args(FindingKey)) == {"propagated-rounding"}


def test_messages() -> None:
    m = finding_message("truncated", {"claimed": "2.71"})
    assert (m.section, m.key, dict(m.params)) == ("check", "truncated", {"claimed": "2.71"})
    c = cause_message("wrong-sign", {})
    assert (c.section, c.key) == ("check", "cause.wrong-sign")
