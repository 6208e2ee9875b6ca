"""Regenerate the golden files of ``symattn explain`` and the documents in docs/examples.

Run ``python -m tests.regen_golden`` from the repository root after a deliberate change to
the document model, the templates or the message catalogs; review the diff, then commit.
``python -m tests.regen_golden --check`` writes nothing and exits with 1 when a file is stale.

Golden HTML pages hold a placeholder where KaTeX's script and style sheet go (they are the
same for every page); the browser test renders them with KaTeX inlined.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from symattn.present.document import DocOptions, Document, build_document, meta_from_spec
from symattn.present.model import Detail
from symattn.present.render import render_html, render_json, render_latex, render_markdown
from symattn.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
EXAMPLES = ROOT / "docs" / "examples"
#: the seed texts as specs (also as JSON), then the examples of each kind of attention
SEEDS = ("thinking_machines", "animal_street", "fruit_dictionary")
KINDS = ("eight_tokens", "causal_four_tokens", "two_heads", "cross_attention", "tokenizer_names")
SPECS = SEEDS + KINDS
#: seeds also written with ``--check`` (errata callouts), stored as ``<seed>.check.<lang>.<suffix>``
CHECKED = ("thinking_machines", "animal_street")
CHECK_SUFFIXES = ("md", "tex")
#: specs also written with ``--detail compact``, stored as ``<name>.compact.<lang>.<suffix>``
COMPACT = ("two_heads",)
COMPACT_SUFFIXES = ("md", "tex", "html")
LANGS = ("zh", "en")
#: (suffix, render) per output format
FORMATS: tuple[tuple[str, Callable[[Document], str]], ...] = (
    ("md", render_markdown),
    ("tex", render_latex),
    ("html", render_html),
    ("json", render_json),
)
#: formats written for every spec (JSON only for the seeds)
ALL_SPEC_SUFFIXES = ("md", "tex", "html")
#: formats also copied to docs/examples
DOC_SUFFIXES = ("md", "tex")


def documents() -> Iterator[tuple[str, str, str, str]]:
    """``(name, lang, suffix, text)`` for every golden document."""
    for name in SPECS:
        spec = load_spec(EXAMPLES / f"{name}.toml")
        result = spec.run() if spec.computable else None
        for lang in LANGS:
            meta = replace(meta_from_spec(spec), lang=lang)
            doc = build_document(result, meta, DocOptions())
            for suffix, render in FORMATS:
                if suffix in ALL_SPEC_SUFFIXES or name in SEEDS:
                    yield name, lang, suffix, render(doc)
            if name in COMPACT:
                compact = build_document(result, meta, DocOptions(detail=Detail.COMPACT))
                for suffix, render in FORMATS:
                    if suffix in COMPACT_SUFFIXES:
                        yield f"{name}.compact", lang, suffix, render(compact)
            if name in CHECKED:
                checked = build_document(result, meta, DocOptions(), check=True)
                for suffix, render in FORMATS:
                    if suffix in CHECK_SUFFIXES:
                        yield f"{name}.check", lang, suffix, render(checked)


def targets(name: str, lang: str, suffix: str) -> list[Path]:
    """Where one document is stored: the golden file, plus docs/examples for md and tex."""
    out = [GOLDEN / f"{name}.{lang}.{suffix}"]
    if suffix in DOC_SUFFIXES:
        out.append(EXAMPLES / f"{name}.{lang}.{suffix}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Write every golden file and example document (``--check``: only compare them)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args not in ([], ["--check"]):
        print("usage: python -m tests.regen_golden [--check]", file=sys.stderr)
        return 2
    if args == ["--check"]:
        stale = [
            path
            for name, lang, suffix, text in documents()
            for path in targets(name, lang, suffix)
            if not path.is_file() or path.read_text(encoding="utf-8") != text
        ]
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, lang, suffix, text in documents():
        for path in targets(name, lang, suffix):
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
