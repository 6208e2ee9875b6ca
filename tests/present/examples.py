"""Documents of the example specs in docs/examples, shared by the tests of present/."""

from __future__ import annotations

from typing import Any

from symattn.present.document import DocOptions, Document, build_document, meta_from_spec
from symattn.spec import load_spec

from ..conftest import EXAMPLES

#: the computable examples
SEEDS = ("thinking_machines", "animal_street")


def doc_of(seed: str, **options: Any) -> Document:
    """The document of ``docs/examples/<seed>.toml`` with ``options`` (as DocOptions)."""
    spec = load_spec(EXAMPLES / f"{seed}.toml")
    return build_document(spec.run(), meta_from_spec(spec), DocOptions(**options))
