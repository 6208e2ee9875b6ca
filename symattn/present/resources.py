"""Locate data shipped with symattn (the jinja2 templates)."""

from __future__ import annotations

import importlib.resources
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # the symattn package


def templates_dir() -> Path:
    """Return the folder holding the templates.

    In an installed wheel this is ``symattn/templates`` inside the package; in a source
    checkout or an editable install it is the top-level ``templates/`` folder of the repo.
    """
    installed = _PACKAGE_DIR / "templates"
    if installed.is_dir():
        return installed
    checkout = _PACKAGE_DIR.parent / "templates"
    if checkout.is_dir():
        return checkout
    try:
        found = importlib.resources.files("symattn.templates")
    except ModuleNotFoundError:
        found = None
    if isinstance(found, Path) and found.is_dir():
        return found
    raise FileNotFoundError(
        f"symattn templates not found (looked in {installed} and {checkout}); reinstall symattn"
    )
