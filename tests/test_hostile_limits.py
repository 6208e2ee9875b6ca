"""Bounded work: every field of :class:`Limits` is enforced with an error naming it and how to
raise it, and the classic bombs (a 10 MB line, 50 nested parentheses, ``10^10^10``) return fast.
"""

from __future__ import annotations

import json
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
    t0 = time.perf_counter()
    with pytest.raises(PrecisionError, match=r"undecided at 64 bits.*max_precision_bits"):
        r.output.enclose(200, limits=Limits(max_precision_bits=64))
    assert time.perf_counter() - t0 < FAST
    assert r.output.enclose(10, limits=Limits(max_precision_bits=64)).shape == (1, 2)


@pytest.mark.parametrize("fmt,text", [("json", '{"a": [[[[1]]]]}'), ("toml", "a = [[[[1]]]]")])
def test_max_nesting(fmt: str, text: str) -> None:
    with pytest.raises(LimitError, match=r"max_nesting = 2 \(raise it with --limit max_nesting=N"):
        loads_spec(text, fmt=fmt, limits=Limits(max_nesting=2))


def test_max_file_bytes(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(SPEC), encoding="utf-8")
    with pytest.raises(LimitError, match=r"max_file_bytes.*--limit max_file_bytes=N"):
        read_bytes(f, limits=Limits(max_file_bytes=10))
    with pytest.raises(LimitError, match="max_file_bytes"):
        loads_spec(json.dumps(SPEC), fmt="json", limits=Limits(max_file_bytes=10))


def test_max_line_length() -> None:
    report = audit(
        "$$ 1 + 1 = 3 $$\n1 + 1 = 3 is what it says\n", limits=Limits(max_line_length=10)
    )
    assert report.findings == ()
    assert any("max_line_length=10" in u.reason for u in report.unparsed)
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
    """Hit the limit with --limit NAME=small: one line naming it and --limit; the default passes."""
    monkeypatch.chdir(tmp_path)
    f = "in.md" if command == "audit" else "in.json"
    (tmp_path / f).write_text(content, encoding="utf-8")
    code, err = run_cli([command, f, "--limit", f"{name}={value}"], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert fragment in err and f"--limit {fragment}=N" in err, err
    code, err = run_cli([command, f], capsys)
    assert code in (0, 1), err


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
    t0 = time.perf_counter()
    code = main(["audit", "big.md"])
    elapsed = time.perf_counter() - t0
    out = capsys.readouterr().out
    assert elapsed < FAST
    assert code == 0
    assert "not checked" in out and "max_line_length=100000" in out, out


def test_fifty_level_nesting_returns_fast() -> None:
    t0 = time.perf_counter()
    report = audit("$$ x = " + "(" * 50 + "1+1" + ")" * 50 + " = 3 $$\n")
    assert time.perf_counter() - t0 < FAST
    assert report.findings == ()
    assert any("nested" in u.reason for u in report.unparsed), report


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
    t0 = time.perf_counter()
    report = audit(text + "\n")
    assert time.perf_counter() - t0 < FAST
    assert report.findings == ()
    assert report.unparsed and any(
        w in u.reason for w in ("max_", "large", "not supported") for u in report.unparsed
    ), report


def test_power_tower_in_a_spec_is_refused() -> None:
    with pytest.raises(SymattnError, match="cannot read"):
        loads_spec(spec_with("10^10^10"), fmt="json")
