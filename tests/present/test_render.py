"""Tests of symattn.present.render: golden files, hostile strings, KaTeX and xelatex."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from symattn import scaled_dot_product_attention
from symattn.errors import InputError
from symattn.present.document import DocMeta, DocOptions, Document, build_document
from symattn.present.render import render_json, render_latex, render_markdown

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


@pytest.mark.parametrize(
    ("seed", "lang", "suffix", "text"), DOCS, ids=[f"{d[0]}.{d[1]}.{d[2]}" for d in DOCS]
)
def test_golden(seed: str, lang: str, suffix: str, text: str) -> None:
    for path in regen_golden.targets(seed, lang, suffix):
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is stale: run python -m tests.regen_golden"
        )


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
    assert r"\input{" not in text and r"\\input\{/etc/passwd\}" in text
    assert "$x$" not in text and r"\$x\$" in text
    assert "](http" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_names_latex(lang: str) -> None:
    text = render_latex(_hostile_doc(lang))
    assert r"\input{" not in text and r"\textbackslash{}input\{/etc/passwd\}" in text
    assert r"\$x\$" in text and "a\\_b\\textasciicircum{}c" in text


def test_fragment_has_no_preamble() -> None:
    text = render_latex(_hostile_doc(), fragment=True)
    assert r"\documentclass" not in text and r"\end{document}" not in text and r"\[" in text


def test_json_is_the_model() -> None:
    data = json.loads(render_json(_hostile_doc()))
    assert data["schema"] == "symattn.document/1"
    assert data["rows"][0]["token"] == HOSTILE[0]
    assert data["rows"][0]["heading"]["text"] == f"Query {HOSTILE[0]}"


def test_unknown_language() -> None:
    doc = build_document(None, DocMeta(lang="fr"))
    with pytest.raises(InputError, match="available: en, zh"):
        render_markdown(doc)


def test_user_template_overrides_a_block(tmp_path: Path) -> None:
    (tmp_path / "markdown").mkdir()
    (tmp_path / "markdown" / "document.md.j2").write_text(
        '{% extends "markdown/base.md.j2" %}\n'
        "{% block rounding %}CUSTOM {{ doc.title }}{% endblock %}\n",
        encoding="utf-8",
    )
    text = render_markdown(_hostile_doc(), templates=tmp_path)
    assert "CUSTOM &lt;script&gt;" in text and "About the numbers" not in text


def test_user_catalog_overrides_a_message(tmp_path: Path) -> None:
    (tmp_path / "messages").mkdir()
    (tmp_path / "messages" / "en.toml").write_text('h_formula = "Die Formel"\n', encoding="utf-8")
    assert "## Die Formel" in render_markdown(_hostile_doc(), templates=tmp_path)


def test_math_spans_render_in_katex(tmp_path: Path) -> None:
    node = require_tool("node")
    if not (ROOT / ".ci" / "node" / "node_modules" / "katex").is_dir():
        require_tool("katex-from-.ci-node")  # skips off CI, fails on CI
    files = []
    for seed, lang, suffix, text in DOCS:
        if suffix == "md":
            files.append(tmp_path / f"{seed}.{lang}.md")
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


@pytest.mark.parametrize(
    ("seed", "lang", "suffix", "text"), LATEX_DOCS, ids=[f"{d[0]}.{d[1]}" for d in LATEX_DOCS]
)
def test_latex_compiles(tmp_path: Path, seed: str, lang: str, suffix: str, text: str) -> None:
    xelatex = require_tool("xelatex")
    (tmp_path / "doc.tex").write_text(text, encoding="utf-8")
    run = subprocess.run(
        [xelatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0


def test_hostile_latex_compiles(tmp_path: Path) -> None:
    xelatex = require_tool("xelatex")
    (tmp_path / "doc.tex").write_text(render_latex(_hostile_doc("zh")), encoding="utf-8")
    run = subprocess.run(
        [xelatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert not re.search(r"\(/etc/passwd", run.stdout)
    assert shutil.which("xelatex")


def test_regen_golden_check_finds_nothing_stale(capsys: pytest.CaptureFixture[str]) -> None:
    assert regen_golden.main(["--check"]) == 0
    assert capsys.readouterr().out == ""
    assert regen_golden.main(["--bogus"]) == 2
