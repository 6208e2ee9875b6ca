from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symattn.cli.main import main
from symattn.cli.options import command_line_words

from .conftest import EXAMPLES, ROOT

SEED000 = str(EXAMPLES / "thinking_machines.toml")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_compute_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["compute", SEED000], capsys)
    assert code == 0 and err == ""
    assert "d_k used = 2" in out
    assert "5*sqrt(2)/2 ≈ 3.5355339059" in out  # 10 decimal places by default
    assert "≈ 12.1408360293" in out and "≈ 22.1408360293" in out


def test_compute_json_and_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "r.json"
    code, out, _ = run(
        ["compute", SEED000, "--format", "json", "--digits", "12", "-o", str(target)], capsys
    )
    assert code == 0 and out == ""
    data = json.loads(target.read_text(encoding="utf-8"))
    steps = {s["name"]: s for s in data["steps"]}
    assert steps["output"]["approx"] == [["12.140836029303", "22.140836029303"]]  # 12 places
    assert data["approx_decimals"] == 12
    assert data["spec"]["d_k_stated"] == 2


def test_compute_from_embeddings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["compute", str(EXAMPLES / "animal_street.toml"), "--digits", "7"], capsys)
    assert code == 0
    assert "它: [" in out and "≈ 0.0318595" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["compute", "does-not-exist.toml"], "does-not-exist.toml"),
        (["compute", str(EXAMPLES / "fruit_dictionary.toml")], "cannot compute"),
        (["compute", SEED000, "--digits", "-1"], "--digits"),
        (["compute", SEED000, "--limit", "max_elements=1"], "max_elements"),
    ],
)
def test_errors_are_one_line_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["compute"],
        ["nope"],
        ["compute", SEED000, "--format", "yaml"],
        ["compute", SEED000, "--limit", "x=1"],
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_bad_spec_field_through_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text(
        'tokens = ["a"]\nqueries = ["a"]\n[inputs]\nQ=[[1]]\nK=[[1]]\nV=[[1]]\n', encoding="utf-8"
    )
    code, _, err = run(["compute", str(spec)], capsys)
    assert code == 2 and "queries" in err and "s.toml" in err


def test_python_dash_m_help_and_version() -> None:
    for argv, needle in ((["--help"], "compute"), (["--version"], "symattn 0.1.0")):
        p = subprocess.run(
            [sys.executable, "-m", "symattn", *argv], capture_output=True, text=True, cwd=ROOT
        )
        assert p.returncode == 0 and needle in p.stdout


def test_huge_scores_do_not_hang_and_later_stages_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "big.toml"
    spec.write_text(
        'tokens = ["a", "b"]\nquery_tokens = ["q"]\n[inputs]\nQ = [[12345678901, 2]]\nK = [[1, 2], [0, 1]]\n'
        "V = [[10, 20], [30, 40]]\n",
        encoding="utf-8",
    )
    code, out, _ = run(["compute", str(spec), "--digits", "6"], capsys)
    assert code == 0
    assert "not written out" in out and "2^±262144" in out  # e^(8.7e9) has no printable digits
    assert "≈ 10.000000, " in out and "≈ 20.000000]" in out  # the output is exact and printed


def test_compute_exact_terms_estimate() -> None:
    """compute's size estimate: rationals cost nothing, the softmax stages grow with S."""
    from symattn import scaled_dot_product_attention
    from symattn.cli.compute import exact_terms

    result = scaled_dot_product_attention([[1, 2]] * 3, [[1, 0], [0, 1], [1, 1]], [[1, 2]] * 3)
    per_step = exact_terms(result.trace)
    terms = {s.name: per_step[s.index] for s in result.trace}
    assert terms["Q"] == terms["K"] == terms["scores"] == 0
    assert terms["exp_scores"] == 9  # 3 x 3 entries, one exp each
    assert terms["exp_sums"] == 3 * 3  # 3 rows of 3 exps
    assert terms["weights"] == 9 * (1 + 3)  # an exp over its row sum
    assert terms["output"] == 6 * (3 + 4 + 1)  # a sum over 3 keys of weights times values


def test_compute_writes_decimals_and_minus_infinity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "m.json"
    spec.write_text(
        json.dumps(
            {
                "tokens": ["a", "b"],
                "mask": [[True, False], [True, True]],
                "inputs": {"Q": [[0.2, 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1, 0], [0, 3]]},
            }
        ),
        encoding="utf-8",
    )
    code, out, _ = run(["compute", str(spec)], capsys)
    assert code == 0
    assert "a: [0.2, 0]" in out  # the scores, written as decimals (not 1/5)
    assert "-inf]" in out and "-oo" not in out and "Infinity" not in out
    code, out, _ = run(["compute", str(spec), "--limit", "max_exact_terms=1"], capsys)
    assert "-inf]" in out and "Infinity" not in out


def test_compute_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compute", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "symattn compute docs/examples/thinking_machines.toml" in out


@pytest.mark.parametrize(
    ("api", "cli"),
    [
        (
            "more than max_bits=8 (raise it with Limits(max_bits=...))",
            "more than max_bits=8 (raise it with --limit max_bits=N)",
        ),
        ("NotLimits(x=...) stays", "NotLimits(x=...) stays"),
        (
            "Limits(max_formulas=3) is a value, not the phrase",
            "Limits(max_formulas=3) is a value, not the phrase",
        ),
    ],
)
def test_limits_are_said_the_command_line_way(api: str, cli: str) -> None:
    assert command_line_words(api) == cli


def test_compute_names_a_fully_masked_row_by_its_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text(
        'schema = 1\ntokens = ["<pad>", "b"]\nmask = [[false, false], [true, true]]\n'
        "[inputs]\nQ = [[1, 0], [0, 1]]\nK = [[1, 0], [0, 1]]\nV = [[1, 2], [3, 4]]\n",
        encoding="utf-8",
    )
    code, out, _ = run(["compute", str(spec)], capsys)
    assert code == 0
    assert 'fully masked rows (weights and output are 0, as in torch 2.5+): "<pad>" (row 0)' in out
