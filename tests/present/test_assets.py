"""Tests of symattn.present.assets: KaTeX inlined in a page."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.errors import InputError
from symattn.present.assets import ENV, katex_assets, katex_dir
from symattn.present.resources import templates_dir


def _fake_dist(root: Path, js: str = "var katex={};") -> Path:
    (root / "fonts").mkdir(parents=True)
    (root / "fonts" / "KaTeX_Main-Regular.woff2").write_bytes(b"\x00font")
    (root / "katex.min.js").write_text(js, encoding="utf-8")
    (root / "katex.min.css").write_text(
        "@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2) "
        'format("woff2"),url(fonts/KaTeX_Main-Regular.woff) format("woff")}',
        encoding="utf-8",
    )
    return root


def test_fonts_are_inlined_as_data(tmp_path: Path) -> None:
    assets = katex_assets(_fake_dist(tmp_path / "dist"))
    assert "data:font/woff2;base64,AGZvbnQ=" in assets.css and "url(fonts/" not in assets.css
    assert assets.js == "var katex={};" and assets.version == "unknown"


def test_the_environment_variable_names_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _fake_dist(tmp_path / "dist")
    monkeypatch.setenv(ENV, str(root))
    assert katex_dir() == root


def test_a_folder_without_katex_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, str(tmp_path / "absent"))
    with pytest.raises(InputError, match="SYMATTN_KATEX_DIR=.*no katex.min.js"):
        katex_dir()


def test_without_the_variable_the_shipped_copy_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert katex_dir() == templates_dir() / "assets" / "katex"


def test_a_script_that_would_end_the_page_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot be inlined"):
        katex_assets(_fake_dist(tmp_path / "dist", "a='</script>'"))


def test_the_shipped_copy_is_real_katex_with_its_licence() -> None:
    root = templates_dir() / "assets" / "katex"
    assets = katex_assets(root)
    assert assets.version.startswith("0.16") and assets.css.count("data:font/woff2") >= 10
    assert "MIT License" in (root / "LICENSE").read_text(encoding="utf-8")
