"""Self-check: ``symattn audit`` finds nothing (beyond info) in anything ``symattn explain`` writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.cli.main import main
from symattn.read.audit import audit
from symattn.spec import load_spec

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
SPECS = sorted(p.name for p in EXAMPLES.glob("*.toml"))
# ``NAME.LANG.md|tex`` are plain explanations; ``NAME.check.LANG.*`` (explain --check) quote the
# author's wrong numbers on purpose and are not expected to pass
COMMITTED = sorted(
    p.name
    for p in EXAMPLES.iterdir()
    if p.suffix in (".md", ".tex") and len(p.name.split(".")) == 3
)


def not_info(text: str, path: str) -> list[tuple[str, int, str]]:
    r = audit(text, path=path)
    return [(f.code, f.line, f.claimed) for f in r.findings if f.severity != "info"]


def test_there_are_three_example_specs_and_their_documents() -> None:
    assert len(SPECS) == 3
    assert len(COMMITTED) == 3 * 2 * 2


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("fmt", ["markdown", "latex"])
def test_generated_documents_pass_their_own_audit(
    tmp_path: Path, spec: str, lang: str, fmt: str
) -> None:
    out = tmp_path / f"doc.{'md' if fmt == 'markdown' else 'tex'}"
    assert (
        main(["explain", str(EXAMPLES / spec), "--lang", lang, "--format", fmt, "-o", str(out)])
        == 0
    )
    text = out.read_text(encoding="utf-8")
    assert text.strip()
    assert not_info(text, str(out)) == []
    # a spec without its inputs (fruit_dictionary) gives a document with nothing to compute
    assert (audit(text).checked > 0) == load_spec(EXAMPLES / spec).computable


@pytest.mark.parametrize("name", COMMITTED)
def test_committed_documents_pass_their_own_audit(name: str) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    assert not_info(text, name) == []
    assert (audit(text).checked > 0) == load_spec(
        EXAMPLES / (name.split(".")[0] + ".toml")
    ).computable
