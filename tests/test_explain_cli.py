"""Tests of ``symattn explain`` on the command line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from symattn.cli.main import build_parser, main

from .conftest import EXAMPLES, require_module

TM = str(EXAMPLES / "thinking_machines.toml")


def test_thinking_machines_zh(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", TM, "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert r"\sqrt{d_k} = \sqrt{2} \approx 1.4142" in out
    assert r"o_{1} \approx \left[12.1408,\ 22.1408\right]" in out
    assert "本例设定 $d_k = 2$" in out and "查询词元 `Thinking`" in out


@pytest.mark.parametrize(
    ("fmt", "marker"),
    [
        ("markdown", "## "),
        ("latex", r"\documentclass"),
        ("json", '"schema"'),
        ("html", "<!DOCTYPE html>"),
    ],
)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_formats_to_file(tmp_path: Path, fmt: str, marker: str, lang: str) -> None:
    out = tmp_path / "doc.out"
    assert main(["explain", TM, "--format", fmt, "--lang", lang, "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert marker in text
    if fmt == "html":
        assert "katex" in text and "data:font/woff2" in text  # KaTeX inlined: works offline


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--query", "nope"], "no such query token"),
        (["--digits", "-1"], "--digits"),
        (["--fragment"], "--fragment only applies"),
        (["--lang", "fr"], "no message catalog"),
        (["--templates", "/nonexistent/dir"], "not a directory"),
        (["--plot", "x.pdf"], ".svg or .png"),
        (["--query", "Thinking", "--limit", "max_explained_pairs=1"], "--query"),
    ],
)
def test_usage_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["explain", TM, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symattn explain: error:") and message in err


def test_help_gives_examples_and_the_meaning_of_digits(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    with pytest.raises(SystemExit):
        parser.parse_args(["explain", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "symattn explain docs/examples/" in out
    assert "decimal places" in out and "sandbox" in out


def test_missing_inputs_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(EXAMPLES / "fruit_dictionary.toml"), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Missing: $Q$, $K$, $V$." in out and "neither confirmed nor refuted" in out


def test_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_module("matplotlib")
    svg = tmp_path / "w.svg"
    assert main(["explain", TM, "--plot", str(svg)]) == 0
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert "w.svg)" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["w.svg"]  # written atomically: no temp left


def test_plot_creates_no_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 15 row 21: the plot's folder must exist; none is created."""
    require_module("matplotlib")
    target = tmp_path / "new" / "w.png"
    assert main(["explain", TM, "--plot", str(target)]) == 2
    assert "does not exist" in capsys.readouterr().err and not (tmp_path / "new").exists()


def test_plot_with_a_mathtext_token_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 15 row 21: a token named ``$\\frac$`` is text in the plot, not a traceback."""
    require_module("matplotlib")
    spec = tmp_path / "s.toml"
    spec.write_text(
        'schema = 1\ntokens = ["$\\\\frac$", "b"]\n[inputs]\n'
        "Q = [[1, 0], [0, 1]]\nK = [[1, 0], [0, 1]]\nV = [[1, 2], [3, 4]]\n",
        encoding="utf-8",
    )
    png = tmp_path / "w.png"
    assert main(["explain", str(spec), "--plot", str(png), "-o", str(tmp_path / "d.md")]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")


SCALE_SPEC = (
    'schema = 1\ntokens = ["a", "b"]\n{extra}\n[inputs]\n'
    "Q = [[1, 2], [3, 4]]\nK = [[1, 2], [0, 1]]\nV = [[10, 20], [30, 40]]\n"
)


@pytest.mark.parametrize("scale", ['"1/2"', "0.125", "1e-3", "1e-8", "1e-9", '"3e-12"'])
def test_explain_with_a_scale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scale: str
) -> None:
    """Issue 15 row 16: a spec with ``scale`` works and says what the scale is."""
    spec = tmp_path / "s.toml"
    spec.write_text(SCALE_SPEC.format(extra=f"scale = {scale}"), encoding="utf-8")
    for lang, words in (("en", "states no $d_k$"), ("zh", "没有给出 $d_k$")):
        assert main(["explain", str(spec), "--lang", lang]) == 0
        assert words in capsys.readouterr().out


def test_templates_run_in_a_sandbox(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 15 row 22: a template cannot run a command."""
    (tmp_path / "markdown").mkdir()
    payload = "{{ cycler.__init__.__globals__.os.popen('touch PWNED; id').read() }}"
    (tmp_path / "markdown" / "document.md.j2").write_text(payload, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["explain", TM, "--templates", str(tmp_path)]) == 2
    finally:
        os.chdir(cwd)
    captured = capsys.readouterr()
    assert "uid=" not in captured.out and not (tmp_path / "PWNED").exists()
    assert captured.err.startswith("symattn explain: error: template")


def test_result_methods() -> None:
    from symattn import scaled_dot_product_attention

    r = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    assert "## The formula" in r.to_markdown()
    assert r"\documentclass" in r.to_latex(lang="zh")
    assert "#" not in r._repr_markdown_() and r"\section" not in r._repr_latex_()


@pytest.mark.parametrize(
    ("lang", "fmt", "marker"),
    [
        ("zh", "markdown", "> **勘误** 原文写作 $2.71$：这是截断，不是舍入（应为 $2.72$）。"),
        (
            "en",
            "markdown",
            "> **Erratum** The source says $2.71$: truncated, not rounded (should be $2.72$).",
        ),
        ("en", "latex", "\\begin{quote}\\sloppy\n\\textbf{Erratum}\\quad The source says $2.71$"),
    ],
)
def test_check_option_marks_errata(
    capsys: pytest.CaptureFixture[str], lang: str, fmt: str, marker: str
) -> None:
    assert main(["explain", TM, "--check", "--lang", lang, "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert marker in out
    assert main(["explain", TM, "--lang", lang, "--format", fmt]) == 0
    assert "Erratum" not in capsys.readouterr().out


def test_detail_compact_writes_matrix_forms_only(capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(EXAMPLES / "two_heads.toml")
    assert main(["explain", spec, "--format", "markdown"]) == 0
    full = capsys.readouterr().out
    assert main(["explain", spec, "--format", "markdown", "--detail", "compact"]) == 0
    compact = capsys.readouterr().out
    assert "Step 1" in full and "Step 1" not in compact  # no per-key steps
    assert "q_{1} = x_{1}" not in compact.replace(" ", "")  # no projection row by row
    assert "Q = X W^{Q}" in compact and "Y = H W^{O}" in compact  # the matrix forms stay
    assert len(compact) < len(full) / 2


def test_an_unknown_detail_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["explain", TM, "--detail", "short"])
    assert e.value.code == 2 and "--detail" in capsys.readouterr().err
