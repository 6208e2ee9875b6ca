"""Tests of symattn.present.render: golden files, hostile strings, the sandbox, KaTeX, xelatex."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from symattn import scaled_dot_product_attention
from symattn.errors import InputError
from symattn.present.assets import KatexAssets
from symattn.present.document import DocMeta, DocOptions, Document, build_document
from symattn.present.render import render_html, render_json, render_latex, render_markdown

from .. import regen_golden
from ..conftest import ROOT, require_tool

DOCS = list(regen_golden.documents())
HOSTILE = (
    r"\input{/etc/passwd}",
    "$x$",
    "<script>alert(1)</script>",
    "a_b^c~%#&",
    "[link](http://x)",
)
#: an overfull box wider than this (pt) fails the LaTeX test
OVERFULL_PT = 1.0


@pytest.mark.parametrize(
    ("name", "lang", "suffix", "text"), DOCS, ids=[f"{d[0]}.{d[1]}.{d[2]}" for d in DOCS]
)
def test_golden(name: str, lang: str, suffix: str, text: str) -> None:
    for path in regen_golden.targets(name, lang, suffix):
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is stale: run python -m tests.regen_golden"
        )


def test_every_kind_of_attention_has_golden_files() -> None:
    names = {(d[0], d[1], d[2]) for d in DOCS}
    for name in regen_golden.SPECS:
        for lang in ("zh", "en"):
            assert {(name, lang, s) for s in ("md", "tex", "html")} <= names


def _hostile_doc(lang: str = "en") -> Document:
    result = scaled_dot_product_attention(
        [[1, 0]],
        [[1, 0], [0, 1]],
        [[1, 2], [3, 4]],
        query_labels=[HOSTILE[0]],
        key_labels=list(HOSTILE[:2]),
    )
    return build_document(
        result, DocMeta(title=HOSTILE[2], lang=lang, notes=HOSTILE[3] + HOSTILE[4]), DocOptions()
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_names_markdown(lang: str) -> None:
    text = render_markdown(_hostile_doc(lang))
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "`\\input{/etc/passwd}`" in text and "`$x$`" in text  # set off as code, never math
    assert "](http" not in text
    spans = re.findall(r"\$\$(.*?)\$\$", text, re.S)
    for span in spans:
        # user text inside a formula only as escaped \text{}: no command, no dollar of its own
        assert "\\input" not in span and "$" not in span
    name = "\\textbackslash{}input\\textbraceleft{}/etc/passwd\\textbraceright{}"
    assert any(name in span for span in spans)  # the name as it is, in the formulas too


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_names_latex(lang: str) -> None:
    text = render_latex(_hostile_doc(lang))
    assert r"\input{" not in text and r"\textbackslash{}input\{/etc/passwd\}" in text
    assert r"\$x\$" in text and r"a\_\allowbreak{}b\textasciicircum{}c" in text


def test_hostile_names_html() -> None:
    page = render_html(_hostile_doc())
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert "<code>\\input{/etc/passwd}</code>" in page


def test_fragment_has_no_preamble() -> None:
    text = render_latex(_hostile_doc(), fragment=True)
    assert r"\documentclass" not in text and r"\end{document}" not in text and r"\[" in text


def test_json_is_the_model() -> None:
    data = json.loads(render_json(_hostile_doc()))
    assert data["schema"] == "symattn.document/2"
    row = data["parts"][0]["rows"][0]
    assert row["token"] == HOSTILE[0]
    assert row["heading"]["text"] == f"Query \u201c{HOSTILE[0]}\u201d"


def test_unknown_language() -> None:
    doc = build_document(None, DocMeta(lang="fr"))
    with pytest.raises(InputError, match="available: en, zh"):
        render_markdown(doc)


def test_user_template_overrides_a_block(tmp_path: Path) -> None:
    (tmp_path / "markdown").mkdir()
    (tmp_path / "markdown" / "document.md.j2").write_text(
        '{% extends "markdown/base.md.j2" %}\n'
        "{% block rounding %}CUSTOM {{ doc.title }}{% endblock %}\n"
        "{% block row %}ROW {{ row.token }}{% endblock %}\n",
        encoding="utf-8",
    )
    text = render_markdown(_hostile_doc(), templates=tmp_path)
    assert "CUSTOM &lt;script&gt;" in text and "About the numbers" not in text
    assert "ROW `\\`input\\{/etc/passwd\\}" in text


def test_user_catalog_overrides_a_message(tmp_path: Path) -> None:
    (tmp_path / "messages").mkdir()
    (tmp_path / "messages" / "en.toml").write_text('h_formula = "Die Formel"\n', encoding="utf-8")
    assert "## Die Formel" in render_markdown(_hostile_doc(), templates=tmp_path)


@pytest.mark.parametrize(
    "payload",
    [
        "{{ cycler.__init__.__globals__.os.popen('id').read() }}",
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ doc.__class__.__init__.__globals__ }}",
    ],
)
def test_user_templates_run_in_a_sandbox(tmp_path: Path, payload: str) -> None:
    """Issue 15 row 22: a template cannot reach Python internals or run a command."""
    (tmp_path / "markdown").mkdir()
    (tmp_path / "markdown" / "document.md.j2").write_text(payload, encoding="utf-8")
    with pytest.raises(InputError, match="refused by the sandbox|undefined"):
        render_markdown(_hostile_doc(), templates=tmp_path)


def test_a_broken_user_template_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "markdown").mkdir()
    (tmp_path / "markdown" / "document.md.j2").write_text("{% if %}", encoding="utf-8")
    with pytest.raises(InputError, match=r"document\.md\.j2:1"):
        render_markdown(_hostile_doc(), templates=tmp_path)


def test_html_inlines_the_assets_it_is_given() -> None:
    page = render_html(_hostile_doc())
    assert "<!-- KaTeX script (inlined when the page is written) -->" in page
    assets = KatexAssets("0", ".katex{color:red}", "var katex = 1;")
    page = render_html(_hostile_doc(), assets=assets)
    assert "<style>.katex{color:red}</style>" in page and "<script>var katex = 1;</script>" in page
    assert not re.search(r"\b(href|src)\s*=", page)


def test_math_spans_render_in_katex(tmp_path: Path) -> None:
    node = require_tool("node")
    if not (ROOT / ".ci" / "node" / "node_modules" / "katex").is_dir():
        require_tool("katex-from-.ci-node")  # skips off CI, fails on CI
    files = []
    for name, lang, suffix, text in DOCS:
        if suffix == "md":
            files.append(tmp_path / f"{name}.{lang}.md")
            files[-1].write_text(text, encoding="utf-8")
    files.append(tmp_path / "hostile.md")
    files[-1].write_text(render_markdown(_hostile_doc()), encoding="utf-8")
    run = subprocess.run(
        [node, str(ROOT / "tests" / "katex_check.js"), *map(str, files)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr


def test_katex_check_fails_on_bad_math(tmp_path: Path) -> None:
    node = require_tool("node")
    if not (ROOT / ".ci" / "node" / "node_modules" / "katex").is_dir():
        require_tool("katex-from-.ci-node")
    bad = tmp_path / "bad.md"
    bad.write_text("ok $x^2$ then $\\frac{1}$\n", encoding="utf-8")
    run = subprocess.run(
        [node, str(ROOT / "tests" / "katex_check.js"), str(bad)], capture_output=True, text=True
    )
    assert run.returncode == 1 and "bad.md" in run.stderr and "\\frac{1}" in run.stderr


LATEX_DOCS = [d for d in DOCS if d[2] == "tex"]
#: every LaTeX document with each engine that must compile it: English ones with pdflatex
#: (the default of Overleaf and of most installations) and xelatex, Chinese ones with xelatex
LATEX_RUNS = [
    (*d, e) for d in LATEX_DOCS for e in ("pdflatex", "xelatex") if d[1] == "en" or e == "xelatex"
]


def overfull_boxes(log: str) -> list[float]:
    """The widths (pt) by which each overfull box of a LaTeX log is too wide."""
    return [float(w) for w in re.findall(r"Overfull \\[hv]box \(([0-9.]+)pt too", log)]


def compile_latex(tmp_path: Path, text: str, engine: str = "xelatex") -> tuple[str, str]:
    """Run ``engine`` (no shell escape) on ``text`` in ``tmp_path``; its stdout and its log.
    The run must succeed and write a PDF."""
    tex = require_tool(engine)
    (tmp_path / "doc.tex").write_text(text, encoding="utf-8")
    run = subprocess.run(
        [tex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0
    return run.stdout, (tmp_path / "doc.log").read_text(encoding="utf-8", errors="replace")


def test_overfull_boxes_are_read_from_the_log() -> None:
    log = "Overfull \\hbox (12.5pt too wide) in paragraph\nOverfull \\hbox (0.3pt too wide)\n"
    assert overfull_boxes(log) == [12.5, 0.3]


@pytest.mark.parametrize(
    ("name", "lang", "suffix", "text", "engine"),
    LATEX_RUNS,
    ids=[f"{d[0]}.{d[1]}.{d[4]}" for d in LATEX_RUNS],
)
def test_latex_compiles_and_nothing_overflows(
    tmp_path: Path, name: str, lang: str, suffix: str, text: str, engine: str
) -> None:
    _, log = compile_latex(tmp_path, text, engine)
    assert [w for w in overfull_boxes(log) if w > OVERFULL_PT] == []
    assert "Missing character" not in log


def test_a_long_source_url_and_title_fit_the_page(tmp_path: Path) -> None:
    url = "https://example.org/" + "/".join(f"section_{i}" for i in range(12)) + "?q=" + "x" * 60
    result = scaled_dot_product_attention([[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]])
    meta = DocMeta(title="A" * 90, source=url, notes="see " + url, lang="en")
    _, log = compile_latex(tmp_path, render_latex(build_document(result, meta)))
    assert [w for w in overfull_boxes(log) if w > OVERFULL_PT] == []


def test_hostile_latex_compiles(tmp_path: Path) -> None:
    stdout, _ = compile_latex(tmp_path, render_latex(_hostile_doc("zh")))
    assert not re.search(r"\(/etc/passwd", stdout)


def test_regen_golden_check_finds_nothing_stale(capsys: pytest.CaptureFixture[str]) -> None:
    assert regen_golden.main(["--check"]) == 0
    assert capsys.readouterr().out == ""
    assert regen_golden.main(["--bogus"]) == 2


def test_user_html_template_extends_the_page(tmp_path: Path) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "document.html.j2").write_text(
        '{% extends "html/base.html.j2" %}\n{% block rounding %}<p>MINE</p>{% endblock %}\n',
        encoding="utf-8",
    )
    page = render_html(_hostile_doc(), templates=tmp_path)
    assert "<p>MINE</p>" in page and "About the numbers" not in page


def test_a_large_example_stays_small_and_fits_the_page(tmp_path: Path) -> None:
    """40 tokens, d = 32: summarised matrices, sums and keys; nothing overflows."""
    import numpy as np

    rng = np.random.default_rng(5)
    x = np.round(rng.standard_normal((40, 32)), 2)
    names = [f"w{i}" for i in range(40)]
    r = scaled_dot_product_attention(
        x, x, x, query_labels=names, key_labels=names, read_floats="shortest"
    )  # two decimals
    doc = build_document(r, DocMeta(), DocOptions(queries=("w7",)))
    text = render_latex(doc)
    assert len(text) < 80_000 and r"\cdots" in text
    (row,) = doc.parts[0].rows
    dots = row.step("dots")
    assert dots is not None and [m.key for m in dots.after][0] == "keys_elided"
    _, log = compile_latex(tmp_path, text)
    assert [w for w in overfull_boxes(log) if w > OVERFULL_PT] == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("suffix", ["html", "tex", "md"])
def test_the_eight_by_eight_page_has_no_split_matrix(lang: str, suffix: str) -> None:
    """Issue 22: an 8 x 8 matrix fits A4 and the 800 px column, so it is never cut in blocks."""
    text = (regen_golden.GOLDEN / f"eight_tokens.{lang}.{suffix}").read_text(encoding="utf-8")
    assert "\\right." not in text and "\\left." not in text
    assert text.count("bmatrix") >= 2 * 7  # Q, K, V, scores, scaled, weights, output


@pytest.mark.parametrize("suffix", ["html", "tex", "md"])
def test_tokenizer_names_are_shown_as_they_are(suffix: str) -> None:
    text = (regen_golden.GOLDEN / f"tokenizer_names.en.{suffix}").read_text(encoding="utf-8")
    assert "(1)" not in text and "(2)" not in text
    assert r"\text{\textless{}pad\textgreater{}}" in text  # in the formulas, escaped
    assert "\u0120a" in text and "x^2" in text.replace("\\textasciicircum{}", "^")
