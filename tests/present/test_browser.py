"""HTML pages in a real headless browser: Debian's Chromium driven by Playwright.

Every golden page, with KaTeX inlined as ``symattn explain --format html`` writes it, must
load with no console error, render every formula (no KaTeX error), and never be wider than
the window at 1280 px and at 390 px (a phone), in the light and the dark theme.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from symattn.present.assets import katex_assets
from symattn.present.document import DocOptions, build_document, meta_from_spec
from symattn.present.render import render_html
from symattn.spec import load_spec

from .. import regen_golden
from ..conftest import EXAMPLES, require_module, require_tool

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTHS = ((1280, "light"), (390, "dark"))
HOSTILE = ("<img src=x onerror=alert(1)>", r"\(\href{javascript:alert(1)}{x}\)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync = require_module("playwright.sync_api")
    if not Path(CHROMIUM).is_file():
        require_tool("chromium")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _pages(tmp: Path) -> list[Path]:
    assets = katex_assets()
    out = []
    for name in regen_golden.SPECS:
        spec = load_spec(EXAMPLES / f"{name}.toml")
        result = spec.run() if spec.computable else None
        for lang in ("zh", "en"):
            meta = meta_from_spec(spec)
            doc = build_document(
                result, meta.__class__(**{**meta.__dict__, "lang": lang}), DocOptions()
            )
            out.append(tmp / f"{name}.{lang}.html")
            out[-1].write_text(render_html(doc, assets=assets), encoding="utf-8")
    from symattn import scaled_dot_product_attention
    from symattn.present.document import DocMeta

    r = scaled_dot_product_attention(
        [[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]], query_labels=["q"], key_labels=list(HOSTILE)
    )
    doc = build_document(r, DocMeta(title=HOSTILE[0] * 3, notes=HOSTILE[1] * 20), DocOptions())
    out.append(tmp / "hostile.html")
    out[-1].write_text(render_html(doc, assets=assets), encoding="utf-8")
    return out


def _check(browser: Any, page_path: Path, width: int, scheme: str) -> dict[str, Any]:
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: errors.append(f"dialog {d.message}"))
        page.goto(page_path.as_uri())
        page.wait_for_load_state("load")
        facts: dict[str, Any] = page.evaluate(
            """() => ({
              math: document.querySelectorAll('.math').length,
              rendered: document.querySelectorAll('.math > .katex, .math > .katex-display').length,
              katexErrors: document.querySelectorAll('.katex-error').length,
              scrollWidth: document.documentElement.scrollWidth,
              innerWidth: window.innerWidth,
              background: getComputedStyle(document.documentElement).backgroundColor,
              links: document.querySelectorAll('a[href], [src], [onerror], [onload]').length,
            })"""
        )
        facts["errors"] = errors
        return facts
    finally:
        ctx.close()


def test_every_page_loads_renders_and_fits(browser: Any, tmp_path: Path) -> None:
    for page_path in _pages(tmp_path):
        for width, scheme in WIDTHS:
            f = _check(browser, page_path, width, scheme)
            where = f"{page_path.name} at {width}px ({scheme})"
            assert f["errors"] == [], where
            assert f["math"] > 0 and f["rendered"] == f["math"], (where, f)
            assert f["katexErrors"] == 0, where
            assert f["scrollWidth"] <= f["innerWidth"], (where, f)
            assert f["links"] == 0, where
            dark = scheme == "dark"
            assert (f["background"] == "rgb(21, 24, 29)") is dark, (where, f["background"])


def test_the_theme_button_switches_light_and_dark(browser: Any, tmp_path: Path) -> None:
    page_path = _pages(tmp_path)[0]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    try:
        page = ctx.new_page()
        page.goto(page_path.as_uri())
        bg = "getComputedStyle(document.documentElement).backgroundColor"
        assert page.evaluate(bg) == "rgb(255, 255, 255)"
        page.click("#theme")
        assert page.evaluate(bg) == "rgb(21, 24, 29)"
        page.click("#theme")
        assert page.evaluate(bg) == "rgb(255, 255, 255)"
    finally:
        ctx.close()
