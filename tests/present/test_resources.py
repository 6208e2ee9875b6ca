"""Tests of symattn.present.resources: the shipped templates are found."""

from __future__ import annotations

from symattn.config import LANGS
from symattn.present.resources import templates_dir


def test_templates_dir_holds_templates_and_catalogs() -> None:
    root = templates_dir()
    assert (root / "markdown" / "document.md.j2").is_file()
    assert (root / "latex" / "document.tex.j2").is_file()
    for lang in LANGS:
        assert (root / "messages" / f"{lang}.toml").is_file()
