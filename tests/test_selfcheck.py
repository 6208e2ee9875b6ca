"""Self-check: ``symattn audit`` finds nothing (beyond info) in anything ``symattn explain``
writes: the example specs and the committed documents, and documents of every kind (several
queries, causal, masked, cross-attention, ``--exact``), in both languages and both formats."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.cli.main import main
from symattn.read.audit import audit, understand
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

_QKV = """
tokens = ["I", "love", "cats"]
d_k = 2
[inputs]
Q = [[1, 0], [0, 1], [1, 1]]
K = [[1, 0], [0, 1], [1, 1]]
V = [[1, 2], [3, 4], [5, 6]]
"""

#: documents of every kind explain writes, from small specs (name -> spec text)
KINDS: dict[str, str] = {
    "three-queries": _QKV,
    "causal": _QKV.replace("d_k = 2", "d_k = 2\ncausal = true"),
    "masked": _QKV.replace(
        "d_k = 2", 'd_k = 2\nmask = [[0, "-inf", 0], [0, 0, "-inf"], [0, 0, 0]]'
    ),
    "embeddings": """
tokens = ["I", "love"]
[inputs]
X = [[1, 0], [1, 1]]
W_Q = [[1, 0], [0, 1]]
W_K = [[1, 0], [0, 1]]
W_V = [[1, 2], [3, 4]]
""",
    "cross-attention": """
tokens = ["je", "suis"]
query_tokens = ["I", "am"]
[inputs]
X = [[1, 0], [0, 1]]
X_q = [[1, 1], [0, 1]]
W_Q = [[1, 0], [0, 1]]
W_K = [[1, 0], [0, 1]]
W_V = [[1, 2], [3, 4]]
""",
}

#: what explain itself writes wrong (requested from its owner; the audit is right to say so)
EXPLAIN_BUGS: dict[str, str] = {}


def not_info(text: str, path: str) -> list[tuple[str, int, str]]:
    r = audit(text, path=path)
    return [(f.code, f.line, f.claimed) for f in r.findings if f.severity != "info"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cross_attention_documents_keep_the_names_of_their_rows(lang: str) -> None:
    """Regression (f043852, reverted in 28b1cb9): a rule that blanked every matrix of words
    lost the names the label columns give the rows of X and X_q (I, am, happy; Je, suis);
    without them the two sequences looked like one, the problem was built from X alone
    (self-attention), and audit accused 6 right scores. A column of labels names rows."""
    path = EXAMPLES / f"cross_attention.{lang}.md"
    text = path.read_text(encoding="utf-8")
    assert not_info(text, str(path)) == []
    u = understand(text, fmt="markdown")
    names = {f.name: f.row_names for f in u.facts if f.name in ("X", "X_q")}
    assert names == {"X": ("I", "am", "happy"), "X_q": ("Je", "suis")}


def test_the_example_specs_and_their_documents() -> None:
    assert len(SPECS) >= 3
    assert len(COMMITTED) == len(SPECS) * 2 * 2


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


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(k, marks=pytest.mark.xfail(reason=EXPLAIN_BUGS[k], strict=True))
        if k in EXPLAIN_BUGS
        else k
        for k in KINDS
    ],
)
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("fmt", ["markdown", "latex"])
@pytest.mark.parametrize("exact", [False, True], ids=["rounded", "exact"])
def test_every_kind_of_document_passes_its_own_audit(
    tmp_path: Path, kind: str, lang: str, fmt: str, exact: bool
) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(f'schema = 1\ntitle = "{kind}"\nlang = "{lang}"\n' + KINDS[kind], "utf-8")
    out = tmp_path / f"doc.{'md' if fmt == 'markdown' else 'tex'}"
    argv = ["explain", str(spec), "--format", fmt, "-o", str(out)] + (["--exact"] if exact else [])
    assert main(argv) == 0
    text = out.read_text(encoding="utf-8")
    r = audit(text, path=str(out))
    assert r.recognised is not None, "the problem behind the document is rebuilt"
    assert r.checked > 20
    assert [(f.code, f.line, f.claimed) for f in r.findings if f.severity != "info"] == []
