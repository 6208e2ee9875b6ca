"""Regenerate the golden files of ``symattn explain`` and the documents in docs/examples.

Run ``python -m tests.regen_golden`` from the repository root after a deliberate change to
the document model, the templates or the message catalogs; review the diff, then commit.
``python -m tests.regen_golden --check`` writes nothing and exits with 1 when a file is stale.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from symattn.present.document import DocOptions, build_document, meta_from_spec
from symattn.present.render import render_json, render_latex, render_markdown
from symattn.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
EXAMPLES = ROOT / "docs" / "examples"
SEEDS = ("thinking_machines", "animal_street", "fruit_dictionary")
#: seeds also written with ``--check`` (errata callouts), stored as ``<seed>.check.<lang>.<suffix>``
CHECKED = ("thinking_machines", "animal_street")
CHECK_SUFFIXES = ("md", "tex")
LANGS = ("zh", "en")
#: (suffix, render) per output format
FORMATS = (
    ("md", render_markdown),
    ("tex", render_latex),
    ("json", render_json),
)


def documents() -> Iterator[tuple[str, str, str, str]]:
    """``(seed, lang, suffix, text)`` for every golden document."""
    for seed in SEEDS:
        spec = load_spec(EXAMPLES / f"{seed}.toml")
        result = spec.run() if spec.computable else None
        for lang in LANGS:
            meta = meta_from_spec(spec)

            doc = build_document(result, replace(meta, lang=lang), DocOptions())
            for suffix, render in FORMATS:
                yield seed, lang, suffix, render(doc)
            if seed in CHECKED:
                checked = build_document(result, replace(meta, lang=lang), DocOptions(), check=True)
                for suffix, render in FORMATS:
                    if suffix in CHECK_SUFFIXES:
                        yield f"{seed}.check", lang, suffix, render(checked)


def targets(seed: str, lang: str, suffix: str) -> list[Path]:
    """Where one document is stored: the golden file, plus docs/examples for md and tex."""
    out = [GOLDEN / f"{seed}.{lang}.{suffix}"]
    if suffix in ("md", "tex"):
        out.append(EXAMPLES / f"{seed}.{lang}.{suffix}")
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
            for seed, lang, suffix, text in documents()
            for path in targets(seed, lang, suffix)
            if not path.is_file() or path.read_text(encoding="utf-8") != text
        ]
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for seed, lang, suffix, text in documents():
        for path in targets(seed, lang, suffix):
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
