"""Bounded work: every field of :class:`Limits` is enforced with an error naming it and how to
raise it, and the classic bombs (a 10 MB line, 50 nested parentheses, ``10^10^10``) return fast.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from symattn import Limits, scaled_dot_product_attention
from symattn.cli.main import main
from symattn.errors import LimitError, PrecisionError, SymattnError
from symattn.io import read_bytes
from symattn.numbers import parse_number, to_exact_array
from symattn.present.document import DocOptions, build_document, meta_from_spec
from symattn.read.audit import audit
from symattn.spec import loads_spec

from .conftest import english

#: generous wall-time bound for "returns within a few seconds" on a slow CI machine
FAST = 20.0
SPEC = {
    "tokens": ["a", "b"],
    "inputs": {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]},
}


def spec_with(q00: object) -> str:
    d = json.loads(json.dumps(SPEC))
    d["inputs"]["Q"][0][0] = q00
    return json.dumps(d)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("n", [401, 4000, 100_000])
def test_max_literal_length(n: int) -> None:
    with pytest.raises(LimitError, match=r"max_literal_length=400.*Limits\(max_literal_length"):
        parse_number("1" * n)
    raised = Limits(max_literal_length=n)
    if n <= 4300:  # Python's default int_max_str_digits
        assert parse_number("1" * n, limits=raised).value == (10**n - 1) // 9
    else:  # raised past what int() converts: still a LimitError, never a bare ValueError
        with pytest.raises(LimitError, match="int_max_str_digits"):
            parse_number("1" * n, limits=raised)


@pytest.mark.parametrize(
    "text", ["1e401", "1e-999999999", "1E999999999999999999999999", "-2.5e+100000"]
)
def test_max_decimal_exponent(text: str) -> None:
    with pytest.raises(LimitError, match="max_decimal_exponent"):
        parse_number(text)


def test_max_decimal_exponent_raised() -> None:
    assert parse_number("1e500", limits=Limits(max_decimal_exponent=500)).value == 10**500


def test_max_elements() -> None:
    with pytest.raises(LimitError, match=r"max_elements=3.*Limits\(max_elements"):
        to_exact_array([[1, 2], [3, 4]], limits=Limits(max_elements=3))
    assert to_exact_array([[1, 2], [3, 4]], limits=Limits(max_elements=4)).shape == (2, 2)


def test_max_elements_engine() -> None:
    with pytest.raises(LimitError, match="max_elements"):
        scaled_dot_product_attention(
            [[1, 2]], [[1, 2], [0, 1]], [[1, 2], [3, 4]], limits=Limits(max_elements=3)
        )


def test_max_precision_bits_stops_refinement() -> None:
    r = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    t0 = time.process_time()
    with pytest.raises(PrecisionError, match=r"undecided at 64 bits.*max_precision_bits"):
        r.output.enclose(200, limits=Limits(max_precision_bits=64))
    assert time.process_time() - t0 < FAST
    assert r.output.enclose(10, limits=Limits(max_precision_bits=64)).shape == (1, 2)


@pytest.mark.parametrize("fmt,text", [("json", '{"a": [[[[1]]]]}'), ("toml", "a = [[[[1]]]]")])
def test_max_nesting(fmt: str, text: str) -> None:
    with pytest.raises(LimitError, match=r"max_nesting = 2 \(raise it with --limit max_nesting=N"):
        loads_spec(text, fmt=fmt, limits=Limits(max_nesting=2))


def test_max_file_bytes(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(SPEC), encoding="utf-8")
    with pytest.raises(LimitError, match=r"max_file_bytes.*Limits\(max_file_bytes=\.\.\.\)"):
        read_bytes(f, limits=Limits(max_file_bytes=10))
    with pytest.raises(LimitError, match="max_file_bytes"):
        loads_spec(json.dumps(SPEC), fmt="json", limits=Limits(max_file_bytes=10))


def test_max_line_length() -> None:
    report = audit(
        "$$ 1 + 1 = 3 $$\n1 + 1 = 3 is what it says\n", limits=Limits(max_line_length=10)
    )
    assert report.findings == ()
    assert any("max_line_length=10" in english(u.reason) for u in report.unparsed)
    assert audit("$$ 1 + 1 = 3 $$\n").findings  # within the default limit it is checked


def test_max_explained_pairs() -> None:
    spec = loads_spec(json.dumps(SPEC), fmt="json")
    with pytest.raises(SymattnError, match=r"max_explained_pairs=3.*--limit max_explained_pairs=N"):
        build_document(
            spec.run(), meta_from_spec(spec), DocOptions(limits=Limits(max_explained_pairs=3))
        )
    assert build_document(
        spec.run(), meta_from_spec(spec), DocOptions(limits=Limits(max_explained_pairs=4))
    )


#: a text of three formulas, for audit's reading budgets
THREE_FORMULAS = "$$ 1 + 1 = 2 $$\n\n$$ 2 + 2 = 4 $$\n\n$$ 3 + 3 = 6 $$\n"


@pytest.mark.parametrize(
    "name,value,command,content,fragment",
    [
        ("max_literal_length", "10", "compute", spec_with("0.123456789"), "max_literal_length"),
        ("max_decimal_exponent", "2", "compute", spec_with("1e3"), "max_decimal_exponent"),
        ("max_elements", "3", "compute", json.dumps(SPEC), "max_elements"),
        ("max_nesting", "1", "check", json.dumps(SPEC), "max_nesting"),
        ("max_file_bytes", "10", "explain", json.dumps(SPEC), "max_file_bytes"),
        ("max_explained_pairs", "1", "explain", json.dumps(SPEC), "max_explained_pairs"),
        ("max_file_bytes", "10", "audit", "$$ 1 + 1 = 2 $$\n", "max_file_bytes"),
        # audit's reading budgets: what is past them is said "not checked", the rest is judged
        ("max_formulas", "1", "audit", THREE_FORMULAS, "max_formulas"),
        ("max_math_length", "5", "audit", THREE_FORMULAS, "max_math_length"),
        ("max_formula_length", "5", "audit", THREE_FORMULAS, "max_formula_length"),
        ("max_read_length", "20", "audit", THREE_FORMULAS, "max_read_length"),
    ],
)
def test_limits_on_the_command_line(
    name: str,
    value: str,
    command: str,
    content: str,
    fragment: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Hit the limit with --limit NAME=small: one line naming it and --limit; the default passes.
    A reading budget of audit ends no command: the text past it is reported as not checked,
    naming the limit."""
    monkeypatch.chdir(tmp_path)
    f = "in.md" if command == "audit" else "in.json"
    (tmp_path / f).write_text(content, encoding="utf-8")
    if name in READING_BUDGETS:
        code = main([command, f, "--limit", f"{name}={value}"])
        out = capsys.readouterr().out
        assert code == 0
        assert re.search(rf"not checked: .*{fragment}={value}\b", out), out
        assert f"--limit {name}=N" in out and "Limits(" not in out, out
        assert main([command, f]) == 0
        out = capsys.readouterr().out
        assert "not checked" not in out and "3 claim(s): 3 judged." in out, out
        return
    code, err = run_cli([command, f, "--limit", f"{name}={value}"], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert fragment in err and f"--limit {fragment}=N" in err, err
    code, err = run_cli([command, f], capsys)
    assert code in (0, 1), err


#: the limits of audit's reading (the rest of a text is then said not checked)
READING_BUDGETS = ("max_formulas", "max_math_length", "max_formula_length", "max_read_length")


@pytest.mark.parametrize(
    "bad", ["max_elements", "max_elements=-1", "max_elements=x", "nope=3", "max_elements=1e9"]
)
def test_bad_limit_option(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["compute", "x.json", "--limit", bad])
    assert exc.value.code == 2
    assert "NAME=N" in capsys.readouterr().err or "whole number" in capsys.readouterr().err


def test_ten_megabyte_line_returns_fast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.md").write_text("$$ x = " + "1+" * 5_000_000 + "1 = 3 $$", encoding="utf-8")
    t0 = time.process_time()
    code = main(["audit", "big.md"])
    elapsed = time.process_time() - t0
    out = capsys.readouterr().out
    assert elapsed < FAST
    assert code == 0
    assert "not checked" in out and "max_line_length=100000" in out, out


def test_fifty_level_nesting_returns_fast() -> None:
    t0 = time.process_time()
    report = audit("$$ x = " + "(" * 50 + "1+1" + ")" * 50 + " = 3 $$\n")
    assert time.process_time() - t0 < FAST
    assert report.findings == ()
    assert any("nested" in english(u.reason) for u in report.unparsed), report


@pytest.mark.parametrize(
    "text",
    [
        "$$ 10^10^10 = 5 $$",
        "$10^{10^{10}} = 3$",
        "$$ e^{10^{10}} = 1 $$",
        "$$ 2^{2^{2^{2^{2^{2}}}}} = 1 $$",
    ],
)
def test_power_towers_return_fast(text: str) -> None:
    t0 = time.process_time()
    report = audit(text + "\n")
    assert time.process_time() - t0 < FAST
    assert report.findings == ()
    assert report.unparsed and any(
        w in english(u.reason) for w in ("max_", "large", "not supported") for u in report.unparsed
    ), report


def test_power_tower_in_a_spec_is_refused() -> None:
    with pytest.raises(SymattnError, match="cannot read"):
        loads_spec(spec_with("10^10^10"), fmt="json")


# -- issue 15 ----------------------------------------------------------------------------------


def _spec_file(tmp_path: Path, data: dict[str, object]) -> str:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    return str(f)


HUGE_EXP = {  # e^10000 and e^9900: values near 2^14427, past int_max_str_digits (4300 digits)
    "tokens": ["a", "b"],
    "query_tokens": ["a"],
    "inputs": {"Q": [[100]], "K": [[100], [99]], "V": [[1], [2]]},
    "claims": {"rows": {"a": {"exp": [3, 4], "scores": [10000, 9900]}}},
}


@pytest.mark.parametrize(
    "argv",
    [
        ["compute"],
        ["compute", "--format", "json"],
        ["explain"],
        ["explain", "--format", "latex"],
        ["explain", "--format", "json"],
        ["explain", "--check"],
        ["check"],
        ["check", "--format", "json"],
    ],
)
def test_row11_huge_exp_in_a_spec(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Row 11: spec Q = K = [[100]] once ended every command in int_max_str_digits; now the
    values are rounded exactly (no str(int)) and the claims decided."""
    spec = _spec_file(tmp_path, HUGE_EXP)
    code = main([argv[0], spec, *argv[1:]])
    out, err = capsys.readouterr()
    assert code == (1 if argv[0] == "check" else 0), err
    assert err == ""
    if argv[0] == "check":
        assert out.count("wrong-value") == 2  # e^10000 is not 3, e^9900 is not 4


@pytest.mark.parametrize(
    "text",
    [
        "$$ e^{10000} = 3 $$",
        "$$ \\sqrt{3}^{20000} = 3 $$",
        "$$ 3^{9000} = 3 $$",
        "$$ e^{9000} \\approx 3 $$",
        "$$ 2^{14300} = 1.5 $$",
    ],
)
def test_row10_huge_values_in_a_document(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Row 10: a document claim about a value of thousands of digits: judged or "not checked",
    never a traceback, and fast."""
    monkeypatch.chdir(tmp_path)
    Path("p.md").write_text(text + "\n", encoding="utf-8")
    t0 = time.process_time()
    for fmt in ("text", "json", "markdown"):
        code = main(["audit", "p.md", "--format", fmt])
        out, err = capsys.readouterr()
        assert code in (0, 1) and err == "", err
    assert time.process_time() - t0 < FAST
    report = audit(text + "\n")
    assert len(report.findings) + len(report.unparsed) >= 1  # never silently dropped


def _compute_spec(n: int, d: int) -> dict[str, object]:
    values = [f"0.{(7 * i + 3) % 100:02d}" for i in range(n * d)]
    rows = [values[i * d : (i + 1) * d] for i in range(n)]
    return {"tokens": [f"t{i}" for i in range(n)], "inputs": {"Q": rows, "K": rows, "V": rows}}


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_row19_compute_output_is_bounded(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Row 19: compute on 100 tokens, d = 64 (once > 120 s, cubic output) returns in seconds;
    the exact forms of the weights and the output (each holds a row sum) are left out beyond
    max_exact_terms, with a line saying so; the decimals are all there."""
    spec = _spec_file(tmp_path, _compute_spec(100, 64))
    t0 = time.process_time()
    assert main(["compute", spec, "--format", fmt]) == 0
    elapsed = time.process_time() - t0
    out = capsys.readouterr().out
    assert elapsed < FAST
    assert len(out) < 4_000_000  # about 20 characters per certified decimal
    assert "max_exact_terms=20000" in out and "--limit max_exact_terms=N" in out
    if fmt == "json":
        steps = {s["name"]: s for s in json.loads(out)["steps"]}
        assert "exact" in steps["scores"] and "exact" not in steps["weights"]
        assert len(steps["weights"]["approx"]) == 100
        assert "exact_omitted" in steps["output"]


def test_row19_max_exact_terms_decides_per_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec_file(tmp_path, _compute_spec(3, 2))
    assert main(["compute", spec]) == 0
    assert "decimals only" not in capsys.readouterr().out  # a small example: everything exact
    assert main(["compute", spec, "--limit", "max_exact_terms=12"]) == 0
    out = capsys.readouterr().out
    weights = out[out.index("weights  softmax:") :]
    assert "decimals only" in weights and "exp(" not in weights
    assert "decimals only" not in out[: out.index("weights")].replace("exp_sums", "")
    assert "exp(" in out[: out.index("weights")]  # the exps (one term each) stay exact


def test_row20_max_bits_for_one_number() -> None:
    """Row 20: a number beyond max_bits is a LimitError naming the limit (API and text)."""
    from fractions import Fraction

    from symattn.numbers import as_written, to_fraction

    huge = Fraction(1, 3**20000)  # 31700 bits
    for read in (to_fraction, as_written):
        with pytest.raises(LimitError, match=r"max_bits=1000 .*Limits\(max_bits=\.\.\.\)"):
            read(huge, limits=Limits(max_bits=1000))
        assert read(huge) is not None
    with pytest.raises(LimitError, match="max_bits"):
        parse_number("0." + "3" * 300, limits=Limits(max_bits=1000))
    with pytest.raises(LimitError, match="max_bits"):
        scaled_dot_product_attention([[huge]], [[1]], [[1]], limits=Limits(max_bits=1000))


def test_row20_limit_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec_file(tmp_path, json.loads(spec_with("0." + "3" * 30)))
    code, err = run_cli(["compute", spec, "--limit", "max_bits=64"], capsys)
    assert code == 2 and "max_bits=64" in err and err.count("--limit max_bits=N") == 1
    assert run_cli(["compute", spec], capsys)[0] == 0


def test_row27_security_doc_lists_every_limit_with_its_default() -> None:
    """Row 27: docs/security.md's table of limits is the code's (names and defaults)."""
    from dataclasses import fields

    from .conftest import ROOT

    doc = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(max_\w+)` \| ([^|]+) \|", doc, flags=re.MULTILINE))
    defaults = {f.name: f.default for f in fields(Limits)}
    assert set(rows) == set(defaults)
    for name, shown in rows.items():
        value = defaults[name]
        written = shown.strip().replace(" ", "").replace("\u202f", "")
        assert written in (str(value), f"2**{int(value).bit_length() - 1}", f"{value:,}"), (
            name,
            shown,
            value,
        )


def test_row27_every_limit_error_says_limit_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Row 27: "raise it with --limit X or --limit X" is gone: each limit named once."""
    monkeypatch.chdir(tmp_path)
    Path("s.json").write_text(json.dumps(SPEC), encoding="utf-8")
    Path("p.md").write_text("$$ 1 + 1 = 2 $$\n", encoding="utf-8")
    for argv in (["audit", "p.md"], ["compute", "s.json"], ["explain", "s.json"]):
        code, err = run_cli([*argv, "--limit", "max_file_bytes=5"], capsys)
        assert code == 2 and err.count("--limit max_file_bytes=N") == 1, err


def test_row20_the_issues_spec_is_refused_fast() -> None:
    """Row 20: a spec of 30-digit entries beyond max_bits (the issue's 3000 x 64 took 92 s and
    2.4 GB) is refused after reading one array, naming the limit; within it, it runs."""
    digits = "1234567890" * 3

    def spec(n: int) -> str:
        rows = "[" + ",".join("[" + ",".join([f"0.{digits}"] * 64) + "]" for _ in range(n)) + "]"
        tokens = json.dumps([f"t{i}" for i in range(n)])
        return f'{{"tokens": {tokens}, "inputs": {{"Q": {rows}, "K": {rows}, "V": {rows}}}}}'

    limits = Limits(max_bits=64 * 100 * 200)  # 100 tokens of ~200-bit entries
    t0 = time.process_time()
    with pytest.raises(
        LimitError, match=r"inputs\.Q holds \d+ bits of numbers, more than max_bits"
    ):
        loads_spec(spec(300), fmt="json", limits=limits)
    assert time.process_time() - t0 < FAST
    result = loads_spec(spec(20), fmt="json", limits=limits).run()
    assert result.trace.find("output").value.to_numpy().shape == (20, 64)


def test_row27_every_test_named_in_the_promise_table_exists() -> None:
    """Row 27: the table of promises in docs/security.md names tests that exist."""
    from .conftest import ROOT

    doc = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    table = doc[doc.index("## The promises and their tests") : doc.index("## 1.")]
    named = 0
    for line in table.splitlines():
        if not line.startswith("| ") or line.startswith("| promise"):
            continue
        module = None
        for ref in re.findall(r"`([\w/.*:]+)`", line.rsplit(" | ", 1)[-1]):
            path, _, name = ref.partition("::")
            if path.endswith(".py"):
                module = ROOT / "tests" / path
                if not module.exists():  # benchmarks/… or fuzz/…
                    module = ROOT / path
                assert module.exists(), ref
            if name:
                assert module is not None, ref
                pattern = re.escape(name).replace(r"\*", r"\w*")
                assert re.search(rf"^def {pattern}\(", module.read_text("utf-8"), re.M), ref
                named += 1
    assert named >= 25
