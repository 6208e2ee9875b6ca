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


def notebook_html() -> str:
    """The notebook summary (``_repr_html_``) of a padded causal example with tokenizer
    names, alone in a page: no template, no style sheet, no KaTeX."""
    from symattn import scaled_dot_product_attention

    names = ["[CLS]", "\u2581the", "x^2", "<pad>"]
    r = scaled_dot_product_attention(
        [[1, 0], [0, 1], [1, 1], [0.5, -0.5]],
        [[1, 0], [0, 1], [1, 1], [0, 0]],
        [[1, 2], [3, 4], [5, 6], [0, 0]],
        is_causal=True,
        query_labels=names,
        key_labels=names,
    )
    return '<!doctype html><meta charset="utf-8"><body>' + r._repr_html_() + "</body>"


def notebook_facts(browser: Any, path: Path, width: int, shot: Path | None = None) -> Any:
    """What the summary looks like in Chromium at ``width`` px (and a screenshot)."""
    ctx = browser.new_context(viewport={"width": width, "height": 700}, device_scale_factor=1)
    try:
        page = ctx.new_page()
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        if shot is not None:
            page.screenshot(path=str(shot), full_page=True)
        return page.evaluate(
            """() => ({
              fills: [...document.querySelectorAll('svg rect')].map(
                r => getComputedStyle(r).fill),
              texts: [...document.querySelectorAll('svg text')].map(
                t => getComputedStyle(t).fill),
              boxes: [...document.querySelectorAll('.symattn-summary .sa-box')].map(
                b => getComputedStyle(b).overflowX),
              pad: getComputedStyle(document.querySelector('.symattn-summary td')).paddingLeft,
              scrollWidth: document.documentElement.scrollWidth,
              innerWidth: window.innerWidth,
            })"""
        )
    finally:
        ctx.close()


def test_the_notebook_summary_renders_alone(browser: Any, tmp_path: Path) -> None:
    """Issue 22: the heatmap is not solid black without the page template, the tables are
    styled by the summary's own scoped style sheet, and the page never overflows."""
    path = tmp_path / "repr.html"
    path.write_text(notebook_html(), encoding="utf-8")
    for width in (1280, 390):
        f = notebook_facts(browser, path, width, tmp_path / f"repr{width}.png")
        assert f["fills"] and "rgb(0, 0, 0)" not in f["fills"], f["fills"]
        assert "rgb(201, 206, 214)" in f["fills"]  # the masked cells, greyed
        assert "rgb(11, 92, 173)" in f["fills"]  # the weights, in the heat colour
        assert set(f["boxes"]) == {"auto"} and f["pad"] != "0px"
        assert f["scrollWidth"] <= f["innerWidth"], (width, f)
        assert (tmp_path / f"repr{width}.png").stat().st_size > 1000


def test_an_eight_token_matrix_is_unsplit_and_inside_its_box_at_1000_px(
    browser: Any, tmp_path: Path
) -> None:
    spec = load_spec(EXAMPLES / "eight_tokens.toml")
    doc = build_document(spec.run(), meta_from_spec(spec), DocOptions())
    page_path = tmp_path / "eight.html"
    page_path.write_text(render_html(doc, assets=katex_assets()), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(page_path.as_uri())
        page.wait_for_load_state("load")
        f = page.evaluate(
            """() => ({
              over: [...document.querySelectorAll('.display')].filter(
                d => d.scrollWidth > d.clientWidth + 1).length,
              scrollWidth: document.documentElement.scrollWidth,
              innerWidth: window.innerWidth,
            })"""
        )
    finally:
        ctx.close()
    assert f["over"] == 0 and f["scrollWidth"] <= f["innerWidth"], f
