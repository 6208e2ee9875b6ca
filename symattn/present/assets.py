"""KaTeX for HTML pages: its script and style sheet, inlined so a page works offline.

symattn ships KaTeX (MIT licence) unchanged in ``templates/assets/katex/``: ``katex.min.js``,
``katex.min.css`` and the woff2 fonts of the npm package's ``dist`` folder. The environment
variable ``SYMATTN_KATEX_DIR`` may name another ``dist`` folder (another KaTeX 0.16). The
fonts are inlined as ``data:`` URIs, so the page needs no network and no other file.
"""

from __future__ import annotations

import base64
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from symattn.errors import InputError
from symattn.present.resources import templates_dir

#: the environment variable naming KaTeX's dist folder
ENV = "SYMATTN_KATEX_DIR"
_FONT_FACE = re.compile(r"src:url\(fonts/([A-Za-z0-9_-]+)\.woff2\)[^;}]*")


@dataclass(frozen=True)
class KatexAssets:
    """KaTeX's style sheet (fonts inlined) and script, ready to inline in a page."""

    version: str
    css: str
    js: str


def katex_dir() -> Path:
    """KaTeX's ``dist`` folder; an error saying how to get it when there is none."""
    named = os.environ.get(ENV)
    folder = Path(named) if named else templates_dir() / "assets" / "katex"
    if (folder / "katex.min.js").is_file() and (folder / "katex.min.css").is_file():
        return folder
    if named:
        raise InputError(f"{ENV}={named}: no katex.min.js and katex.min.css in that folder")
    raise InputError(f"KaTeX is missing from {folder}; reinstall symattn")


@lru_cache(maxsize=4)
def _load(folder: str) -> KatexAssets:
    root = Path(folder)
    css = (root / "katex.min.css").read_text(encoding="utf-8")

    def inline(m: re.Match[str]) -> str:
        font = root / "fonts" / f"{m.group(1)}.woff2"
        data = base64.b64encode(font.read_bytes()).decode("ascii")
        return f'src:url(data:font/woff2;base64,{data}) format("woff2")'

    css = _FONT_FACE.sub(inline, css)
    js = (root / "katex.min.js").read_text(encoding="utf-8")
    if "</script" in js.lower() or "</style" in css.lower():
        raise InputError(f"{root}: this KaTeX cannot be inlined in a page")
    version = "unknown"
    for package in (root / "package.json", root.parent / "package.json"):  # shipped; npm's
        if package.is_file():
            version = str(json.loads(package.read_text(encoding="utf-8")).get("version", version))
            break
    return KatexAssets(version, css, js)


def katex_assets(folder: str | Path | None = None) -> KatexAssets:
    """KaTeX's script and style sheet, from ``folder`` or from :func:`katex_dir`."""
    root = Path(folder) if folder is not None else katex_dir()
    try:
        return _load(str(root.resolve()))
    except OSError as e:
        raise InputError(f"{root}: cannot read KaTeX: {e.strerror or e}") from None
