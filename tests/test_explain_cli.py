"""Tests of ``symattn explain`` on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.cli.main import main

from .conftest import EXAMPLES, require_module

TM = str(EXAMPLES / "thinking_machines.toml")


def test_thinking_machines_zh(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", TM, "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert r"\sqrt{d_k} = \sqrt{2} \approx 1.4142" in out
    assert r"o_{1} = \left[12.1408,\ 22.1408\right]" in out
    assert "本例设定 $d_k = 2$" in out


@pytest.mark.parametrize(
    ("fmt", "marker"), [("markdown", "## "), ("latex", r"\documentclass"), ("json", '"schema"')]
)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_formats_to_file(tmp_path: Path, fmt: str, marker: str, lang: str) -> None:
    out = tmp_path / "doc.out"
    assert main(["explain", TM, "--format", fmt, "--lang", lang, "-o", str(out)]) == 0
    assert marker in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--query", "nope"], "no such query token"),
        (["--digits", "-1"], "--digits"),
        (["--fragment"], "--fragment only applies"),
        (["--lang", "fr"], "no message catalog"),
        (["--templates", "/nonexistent/dir"], "not a directory"),
        (["--plot", "x.pdf"], ".svg or .png"),
        (["--limit", "max_explained_pairs=1"], "--query"),
    ],
)
def test_usage_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["explain", TM, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symattn explain: error:") and message in err


def test_missing_inputs_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(EXAMPLES / "fruit_dictionary.toml"), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Missing: $Q$, $K$, $V$." in out and "neither confirmed nor refuted" in out


def test_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_module("matplotlib")
    svg = tmp_path / "w.svg"
    assert main(["explain", TM, "--plot", str(svg)]) == 0
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert f"]({svg})" in capsys.readouterr().out.replace("\\_", "_")


def test_result_methods() -> None:
    from symattn import scaled_dot_product_attention

    r = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    assert "## The formula" in r.to_markdown() == r._repr_markdown_()
    assert r"\documentclass" in r.to_latex(lang="zh")
    assert r"\documentclass" not in r._repr_latex_()


@pytest.mark.parametrize(
    ("lang", "fmt", "marker"),
    [
        ("zh", "markdown", "> **勘误** 原文写作 $2.71$：这是截断，不是四舍五入（应为 $2.72$）。"),
        (
            "en",
            "markdown",
            "> **Erratum** The source says $2.71$: truncated, not rounded (should be $2.72$).",
        ),
        ("en", "latex", "\\begin{quote}\n\\textbf{Erratum}\\quad The source says $2.71$"),
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
