"""Documents of the example specs in docs/examples, shared by the tests of present/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from symattn.engine.result import AttentionResult
from symattn.present.document import DocMeta, DocOptions, Document, build_document, meta_from_spec
from symattn.present.model import Line, RowDoc
from symattn.spec import load_spec

from ..conftest import EXAMPLES

#: the computable seed examples
SEEDS = ("thinking_machines", "animal_street")
#: an example of each kind of attention
KINDS = ("eight_tokens", "causal_four_tokens", "two_heads", "cross_attention")


def doc_of(name: str, **options: Any) -> Document:
    """The document of ``docs/examples/<name>.toml`` with ``options`` (as DocOptions)."""
    spec = load_spec(EXAMPLES / f"{name}.toml")
    return build_document(spec.run(), meta_from_spec(spec), DocOptions(**options))


def doc_for(result: AttentionResult, **options: Any) -> Document:
    """The document of a bare result (English, labels from the result)."""
    return build_document(result, DocMeta(), DocOptions(**options))


def all_lines(doc: Document) -> Iterator[Line]:
    """Every displayed line of a document."""
    for part in doc.parts:
        yield from part.data
        yield from part.projection_lines
        for p in part.projections:
            yield from p.lines
        yield from part.mask_lines
        yield from part.matrices
        for row in part.rows:
            for st in row.steps:
                yield from st.lines
    if doc.combine is not None:
        yield from doc.combine.lines
        for r in doc.combine.rows:
            yield from r.lines


def rows(doc: Document) -> list[RowDoc]:
    return [r for part in doc.parts for r in part.rows]


def relations(math: str) -> list[str]:
    """The relations of a chain, in order (``=``, ``\\approx``), outside braces."""
    out, depth, k = [], 0, 0
    while k < len(math):
        ch = math[k]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and math.startswith(r"\approx", k):
            out.append("~")
            k += len(r"\approx")
            continue
        elif depth == 0 and ch == "=":
            out.append("=")
        k += 1
    return out


def step_text(row: RowDoc, slot: str) -> str:
    st = row.step(slot)
    return "" if st is None else "\n".join(line.math for line in st.lines)


NUMBER = re.compile(r"-?\d+\.\d+")
