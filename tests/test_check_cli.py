"""Tests of the ``symattn check`` command line: formats, languages, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symattn.cli.main import main

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


@pytest.mark.parametrize(
    ("name", "rc"), [("thinking_machines", 1), ("animal_street", 1), ("fruit_dictionary", 0)]
)
def test_exit_codes(name: str, rc: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EXAMPLES / f"{name}.toml")]) == rc
    out = capsys.readouterr().out
    assert "claims checked" in out or "个数" in out


def test_text_lines(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "animal_street.toml")
    main(["check", path, "--lang", "en"])
    lines = capsys.readouterr().out.splitlines()
    truncated = next(line for line in lines if " truncated output[它,0] " in line)
    assert truncated.startswith(f"{path}:")
    assert " truncated output[它,0] claimed 0.031, exact 0.031859… — " in truncated
    assert lines[-1] == (f"{path}: 30 claim(s): 30 judged. Errors: 2. Warnings: 1. Notes: 0.")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_json(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(EXAMPLES / "thinking_machines.toml"), "--format", "json", "--lang", lang])
    data = json.loads(capsys.readouterr().out)["specs"][0]
    assert data["checked"] == 13
    assert {f["code"] for f in data["findings"]} >= {"dk-mismatch", "truncated"}


def test_markdown_to_file(tmp_path: Path) -> None:
    out = tmp_path / "errata.md"
    rc = main(
        [
            "check",
            str(EXAMPLES / "animal_street.toml"),
            "--format",
            "markdown",
            "--lang",
            "zh",
            "-o",
            str(out),
        ]
    )
    assert rc == 1
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# 勘误表") and "approximate-constant" in text


def test_rounding_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text(
        'title = "t"\ntokens = ["a", "b"]\nquery_tokens = ["q"]\nd_k = 2\n[inputs]\nQ = [[1, 2]]\n'
        "K = [[1, 2], [0, 1]]\nV = [[10, 20], [30, 40]]\n[claims.rows.q]\nweights = [0.8929, 0.1070]\n",
        encoding="utf-8",
    )
    assert main(["check", str(spec)]) == 1
    assert main(["check", str(spec), "--rounding", "truncate"]) == 0
    assert main(["check", str(spec), "--rounding", "half-even", "--rounding", "truncate"]) == 0


@pytest.mark.parametrize(
    "argv", [["check", "missing.toml"], ["check", "x.toml", "--rounding", "sideways"]]
)
def test_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        rc = main(argv)
        raise SystemExit(rc)
    assert e.value.code == 2


CORPUS = Path(__file__).resolve().parent / "corpus" / "specs"


@pytest.mark.parametrize(
    ("name", "rc", "codes"),
    [
        ("en12_rodrigocesar-walkthrough-multihead", 0, set()),  # two heads, W_O, float32
        ("en13_rodrigocesar-printed-random-w", 0, {"rounded-inputs"}),
        ("zh19_aigenius-innovation-dk-divided-by-3", 1, {"dk-mismatch", "propagated-error"}),
        ("en19_ashiknazar-cross-attention-start", 1, {"wrong-value", "propagated-error"}),
    ],
)
def test_corpus_specs(
    name: str, rc: int, codes: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(CORPUS / f"{name}.toml"), "--format", "json"]) == rc
    data = json.loads(capsys.readouterr().out)["specs"][0]
    assert codes <= {f["code"] for f in data["findings"]}


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "examples:" in capsys.readouterr().out
