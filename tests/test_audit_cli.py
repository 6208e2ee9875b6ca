"""Tests of ``symattn audit`` on the command line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from symattn.cli.main import main

FIXTURES = Path(__file__).parent / "fixtures"
SEEDS = FIXTURES / "seeds"
SEED_000 = SEEDS / "000_089920b9c8cb4dc4.txt"


def test_text_output_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(SEED_000), "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert f"{SEED_000}:69:23: truncated claimed 2.71, exact 2.71828… — " in out
    assert f"{SEED_000}:48:33: conflicting-definition" in out
    assert "The text holds 97 number(s)" in out  # the coverage


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_directory_json(capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    assert main(["audit", str(SEEDS), "--format", "json", "--jobs", jobs]) == 1
    data = json.loads(capsys.readouterr().out)
    paths = [Path(f["path"]).name for f in data["files"]]
    assert paths == sorted(paths) and len(paths) == 3
    by = {Path(f["path"]).name: f for f in data["files"]}
    assert [x["code"] for x in by["001_b0b3fceff32b9228.txt"]["findings"]] == [
        "interpretation",
        "approximate-constant",
        "precision-mixed",
        "precision-mixed",  # the same weights written again as the output's coefficients
        "truncated",
    ]
    assert by["001_b0b3fceff32b9228.txt"]["recognised"]["source"] == "embeddings"
    assert [x["code"] for x in by["004_a00461eb897f5725.txt"]["findings"]] == ["missing-input"]
    assert by["004_a00461eb897f5725.txt"]["recognised"] is None
    assert by["000_089920b9c8cb4dc4.txt"]["recognised"]["Q"] == ["Thinking"]


def test_lang_defaults_to_the_texts_language(capsys: pytest.CaptureFixture[str]) -> None:
    main(["audit", str(SEED_000), "--format", "markdown"])
    assert capsys.readouterr().out.startswith("# 勘误表")  # the seed is written in Chinese
    main(["audit", str(FIXTURES / "audit" / "exercise_en.md"), "--format", "markdown"])
    assert capsys.readouterr().out.startswith("# Errata")


def test_json_has_the_coverage(capsys: pytest.CaptureFixture[str]) -> None:
    main(["audit", str(SEED_000), "--format", "json"])
    (f,) = json.loads(capsys.readouterr().out)["files"]
    cov = f["coverage"]
    assert cov["numbers"] >= cov["read"] >= cov["judged"] > 0
    assert sum(cov["not_read"].values()) == cov["numbers"] - cov["read"]
    assert f["lang"] == "zh"


def test_every_text_line_is_one_linter_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "breaks.md"
    doc.write_text("\\(=\\]&\\frac{1}{2}1\u2028$=\\)\n$5! = 1\x0c20$\n", encoding="utf-8")
    main(["audit", str(doc)])
    out = capsys.readouterr().out
    for line in out.splitlines():
        assert line.startswith(f"{doc}:"), line


def test_directory_links_out_of_the_tree_are_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "secret.env"
    secret.write_text("$1 + 1 = 3$ TOKEN=hunter2\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "other.md").write_text("$2 + 2 = 5$\n", encoding="utf-8")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "post.md").write_text("$1 + 1 = 2$\n", encoding="utf-8")
    (tree / "notes.md").symlink_to(secret)
    (tree / "linked").symlink_to(outside, target_is_directory=True)
    (tree / "inside.md").symlink_to(tree / "post.md")
    assert main(["audit", str(tree)]) == 0
    out = capsys.readouterr().out
    assert "hunter2" not in out and "notes.md" not in out and "other.md" not in out
    assert f"{tree / 'post.md'}:" in out and f"{tree / 'inside.md'}:" in out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_markdown_errata(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    assert main(["audit", str(SEED_000), "--format", "markdown", "--lang", lang]) == 1
    out = capsys.readouterr().out
    assert out.startswith("# 勘误表" if lang == "zh" else "# Errata")
    assert "| 69 | 23 | truncated | 2.71 |" in out


@pytest.mark.parametrize(("pattern", "code"), [("clean_*", 0), ("exercise_*", 1)])
def test_fixture_exit_codes(capsys: pytest.CaptureFixture[str], pattern: str, code: int) -> None:
    files = sorted(str(p) for p in (FIXTURES / "audit").glob(pattern))
    assert len(files) == 2
    assert main(["audit", *files]) == code
    out = capsys.readouterr().out
    assert ("wrong-value" in out) == (code == 1)
    assert ("recognised vectors: Q cat; K cat, sat, on" in out) == (code == 1)


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = b"$1 + 1 = 3$\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["audit", "-"]) == 1
    assert "<stdin>:1:10: wrong-value claimed 3" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv", [["audit", "no/such/file.md"], ["audit", str(SEED_000), "--jobs", "0"]]
)
def test_input_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("symattn audit: error:")


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["audit", str(SEED_000), "--format", "xml"])
    assert exc.value.code == 2


def test_markdown_escapes_document_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "evil.md"
    doc.write_text("$\\text{<script>|x} = 1 + 1 = 3$\n", encoding="utf-8")
    main(["audit", str(doc), "--format", "markdown"])
    out = capsys.readouterr().out
    assert "<script>" not in out


def test_precision_mixed_has_no_exact_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    """``precision-mixed`` is about how a number is written, not its value: no ``exact -``."""
    main(["audit", str(SEEDS / "001_b0b3fceff32b9228.txt"), "--lang", "en"])
    lines = [ln for ln in capsys.readouterr().out.splitlines() if " precision-mixed " in ln]
    assert len(lines) == 2  # (the weights, and the same weights written again on line 108)
    for line in lines:
        assert ": precision-mixed claimed 0.34 — " in line and "exact" not in line


def test_emit_spec_writes_specs_that_check_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 19: ``--emit-spec DIR`` writes what was read as specs; check gives the findings."""
    out = tmp_path / "specs"
    seed = SEEDS / "001_b0b3fceff32b9228.txt"
    assert main(["audit", str(seed), str(SEEDS), "--emit-spec", str(out)]) == 1
    err = capsys.readouterr().err
    written = sorted(p.name for p in out.iterdir())
    # (the seed named twice: its second copy's spec gets a suffix instead of replacing it)
    assert written == ["000_089920b9c8cb4dc4.1.toml", "001_b0b3fceff32b9228.1-2.toml",
                       "001_b0b3fceff32b9228.1.toml"]  # fmt: skip
    assert f"wrote {out / '001_b0b3fceff32b9228.1.toml'}" in err
    assert "004_a00461eb897f5725.txt: no attention problem to write as a spec" in err
    assert main(["check", str(out / "001_b0b3fceff32b9228.1.toml"), "--lang", "en"]) == 1
    checked = capsys.readouterr().out
    assert ":24:5: truncated output[它,0] claimed 0.031" in checked  # (its line in the spec)


def test_emit_spec_into_a_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "f").write_text("", encoding="utf-8")
    assert main(["audit", str(SEED_000), "--emit-spec", str(tmp_path / "f")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot create the folder" in err[0]
