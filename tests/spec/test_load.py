"""Tests of symattn.spec.load: reading spec files, TOML and JSON, within the limits."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path

import pytest

from symattn.config import Limits
from symattn.errors import LimitError, NumberError, SpecError
from symattn.spec import load_spec, loads_spec
from tests.conftest import EXAMPLES
from tests.spec.common import BASE, QT, assert_bad, spec, texts

# ----------------------------------------------------------------------------- seed specs


def test_thinking_machines() -> None:
    s = load_spec(EXAMPLES / "thinking_machines.toml")
    assert (s.tokens, s.query_tokens, s.explain) == (
        ("Thinking", "Machines"),
        ("Thinking",),
        ("Thinking",),
    )
    assert (s.lang, s.d_k, s.scale, s.causal, s.mask, s.num_heads) == (
        "zh",
        2,
        None,
        False,
        None,
        1,
    )
    assert s.computable and not s.uses_x
    assert s.inputs["Q"].tolist() == [[1, 2]]
    assert s.inputs["V"].tolist() == [[10, 20], [30, 40]]
    assert s.claims.d_k is not None and s.claims.d_k.value == 4
    assert s.claims.sqrt_d_k is not None and s.claims.sqrt_d_k.value == 2
    row = s.claims.rows["Thinking"]
    assert texts(row.scores) == ["5", "2"]
    assert texts(row.scaled) == ["2.5", "1.0"]  # the written form survives
    assert texts(row.exp) == ["12.18", "2.71"]
    assert row.sum is not None and row.sum.text == "14.89"
    assert texts(row.weights) == ["0.82", "0.18"]
    assert texts(row.output) == ["13.6", "23.6"]


def test_animal_street() -> None:
    s = load_spec(EXAMPLES / "animal_street.toml")
    assert s.tokens == ("动物", "马路", "它") and s.explain == ("它",) and s.d_k == 2
    assert s.uses_x and s.computable
    assert {k: v.shape for k, v in s.inputs.items()} == {
        "X": (3, 4),
        "W_Q": (4, 2),
        "W_K": (4, 2),
        "W_V": (4, 2),
    }
    assert s.inputs["X"][0, 1] == Fraction(1, 5)
    assert texts(s.claims.tokens["动物"].q or ()) == ["0.44", "-0.35"]
    assert texts(s.claims.tokens["它"].k or ()) == ["0.235", "-0.075"]
    assert texts(s.claims.tokens["马路"].v or ()) == ["-0.075", "0.248"]
    row = s.claims.rows["它"]
    assert texts(row.scores) == ["0.12965", "0.16835", "0.1217"]
    assert texts(row.scaled) == ["0.092", "0.119", "0.086"]
    assert row.exp == (None, None, None)
    assert row.sum is not None and row.sum.text == "3.3125069954097492"
    assert row.sum.value == Fraction("3.3125069954097492")
    assert texts(row.weights) == ["0.331", "0.34", "0.329"]
    assert texts(row.output) == ["0.031", "0.111"]
    assert "11" in s.notes


def test_fruit_dictionary() -> None:
    s = load_spec(EXAMPLES / "fruit_dictionary.toml")
    assert s.tokens == ("apple", "banana", "chair") and s.query_tokens == ("fruit",)
    assert s.missing == ("Q", "K", "V") and dict(s.inputs) == {}
    assert not s.computable
    assert "3.1" in s.notes
    assert texts(s.claims.tokens["apple"].v or ()) == ["10", "50"]
    assert s.claims.tokens["apple"].q is None
    row = s.claims.rows["fruit"]
    assert texts(row.weights) == ["0.79", "0.17", "0.04"]
    assert texts(row.output) == ["9.68", "42.98"]
    assert row.scores == (None, None, None) and row.sum is None


# ----------------------------------------------------------------------------- formats


def test_json_equals_toml() -> None:
    doc = (
        '{"tokens": ["a", "b"], "query_tokens": ["a"], "d_k": 2, "inputs": {"Q": [[1, 2]],'
        ' "K": [[1, 2], [0, 1]], "V": [[10, 20], [30, 40]]},'
        ' "claims": {"rows": {"a": {"weights": [0.820, "0.18"]}}}}'
    )
    j = loads_spec(doc, fmt="json", name="s.json")
    t = spec(QT + "d_k = 2\n" + BASE + '[claims.rows.a]\nweights = [0.820, "0.18"]\n')
    assert j.inputs["K"].tolist() == t.inputs["K"].tolist()
    assert (
        texts(j.claims.rows["a"].weights) == texts(t.claims.rows["a"].weights) == ["0.820", "0.18"]
    )


def test_load_json_file(tmp_path: Path) -> None:
    p = tmp_path / "s.JSON"
    p.write_text(json.dumps({"tokens": ["x"], "inputs": {"Q": [[1]], "K": [[2]], "V": [["1/3"]]}}))
    s = load_spec(p)
    assert s.inputs["V"][0, 0] == Fraction(1, 3) and s.path == str(p)


def test_decimal_preserved_in_json() -> None:
    s = loads_spec(
        '{"tokens": ["a"], "missing": ["Q", "K", "V"], "claims": {"sqrt_d_k": 2.000}}', fmt="json"
    )
    assert s.claims.sqrt_d_k is not None and s.claims.sqrt_d_k.text == "2.000"


# ----------------------------------------------------------------------------- bad files

BAD = [
    # (id, text, error, words the message must contain)
    ("syntax", QT + BASE + "oops = [1,,]\n", SpecError, ["spec.toml", "TOML syntax error", "line"]),
    ("bare-cjk-key", QT + BASE + "[claims.rows.它]\n", SpecError, ["TOML syntax error"]),
    ("dup-key", QT + 'title = "again"\n' + BASE, SpecError, ["TOML syntax error"]),
    (
        "deep",
        QT + BASE + "[claims]\nd_k = " + "[" * 12 + "]" * 12 + "\n",
        LimitError,
        ["spec.toml", "max_nesting"],
    ),
    (
        "very-deep",
        QT + BASE + "[claims]\nd_k = " + "[" * 100_000 + "]" * 100_000 + "\n",
        LimitError,
        ["spec.toml", "nesting"],
    ),
]


@pytest.mark.parametrize(("text", "error", "words"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_specs(text: str, error: type[Exception], words: list[str]) -> None:
    assert_bad(text, error, words)


BAD_JSON = [
    ("syntax", '{"tokens": ["a"', SpecError, ["JSON syntax error"]),
    ("not-object", "[1, 2]", SpecError, ["top level"]),
    ("dup-key", '{"tokens": ["a"], "tokens": ["b"]}', SpecError, ["duplicate key 'tokens'"]),
    (
        "nan",
        '{"tokens": ["a"], "inputs": {"Q": [[NaN]], "K": [[1]], "V": [[1]]}}',
        NumberError,
        ["inputs.Q", "NaN"],
    ),
    (
        "infinity",
        '{"tokens": ["a"], "inputs": {"Q": [[1]], "K": [[-Infinity]], "V": [[1]]}}',
        NumberError,
        ["inputs.K"],
    ),
    (
        "huge",
        '{"tokens": ["a"], "inputs": {"Q": [[1e999999999]], "K": [[1]], "V": [[1]]}}',
        LimitError,
        ["inputs.Q"],
    ),
    (
        "null-claim",
        '{"tokens": ["a"], "claims": {"rows": {"a": {"sum": null}}}, "missing": ["Q", "K", "V"]}',
        SpecError,
        ["claims.rows.a.sum"],
    ),
    ("deep", '{"notes": ' + "[" * 20 + "]" * 20 + "}", LimitError, ["max_nesting"]),
    ("very-deep", '{"notes": ' + "[" * 200_000 + "]" * 200_000 + "}", LimitError, ["max_nesting"]),
    (
        "deep-strings-ok",
        '{"tokens": ["[[[[[[[[[[[[[[[[[["], "missing": ["Q", "K", "V"],'
        ' "notes": "{{{{{{{{{{{{\\"[[[[[[[["}',
        None,
        [],
    ),
]


@pytest.mark.parametrize(
    ("text", "error", "words"), [b[1:] for b in BAD_JSON], ids=[b[0] for b in BAD_JSON]
)
def test_bad_json(text: str, error: type[Exception] | None, words: list[str]) -> None:
    if error is None:
        assert loads_spec(text, fmt="json", name="spec.json").missing == ("Q", "K", "V")
        return
    with pytest.raises(error) as info:
        loads_spec(text, fmt="json", name="spec.json")
    assert str(info.value).startswith("spec.json: ")
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("name", ["spec.yaml", "spec.yml", "spec", "spec.toml.txt"])
def test_bad_extension(tmp_path: Path, name: str) -> None:
    p = tmp_path / name
    p.write_text(QT + BASE)
    with pytest.raises(SpecError, match="expected .toml or .json") as info:
        load_spec(p)
    assert str(p) in str(info.value)


def test_bad_fmt() -> None:
    with pytest.raises(SpecError, match="yaml"):
        loads_spec(BASE, fmt="yaml")


def test_undecodable_bytes(tmp_path: Path) -> None:
    p = tmp_path / "bad.toml"
    p.write_bytes(b'title = "ok"\nnotes = "\xff"\n')
    with pytest.raises(SpecError, match=r"byte offset 22") as info:
        load_spec(p)
    assert str(info.value).startswith(str(p))


def test_utf8_bom_accepted(tmp_path: Path) -> None:
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf" + (QT + BASE).encode())
    assert load_spec(p).tokens == ("a", "b")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="cannot read"):
        load_spec(tmp_path / "nope.toml")


@pytest.mark.parametrize("size", [101, 10_000])
def test_file_too_big(tmp_path: Path, size: int) -> None:
    p = tmp_path / "big.toml"
    p.write_text("#" * (size - 1) + "\n")
    with pytest.raises(LimitError, match="max_file_bytes") as info:
        load_spec(p, limits=Limits(max_file_bytes=100))
    assert str(p) in str(info.value)
    with pytest.raises(LimitError, match="max_file_bytes"):
        loads_spec("#" * size, limits=Limits(max_file_bytes=100))


def test_limits_raised_on_purpose() -> None:
    text = QT + BASE + "[claims]\nd_k = 4\n"
    deep = text.replace("d_k = 4", "d_k = " + "[" * 10 + "4" + "]" * 10)
    with pytest.raises(LimitError):
        spec(deep)
    with pytest.raises(SpecError, match="claims.d_k"):  # past the limit, the type is checked
        spec(deep, limits=Limits(max_nesting=20))


def test_equal_number_texts_are_read_once() -> None:
    """The parsers read each number text once: equal entries share one value (a matrix of
    short decimals is a pointer per entry), while ``0.5`` and ``0.50`` stay as written."""
    row = "[0.5, 0.50, 0.5, 1000, 1000]"
    for fmt, text in (
        ("json", '{"tokens": ["a"], "inputs": {"Q": %s, "K": %s, "V": %s}}' % ((f"[{row}]",) * 3)),
        ("toml", 'tokens = ["a"]\n[inputs]\n' + "".join(f"{n} = [{row}]\n" for n in "QKV")),
    ):
        s = loads_spec(text, fmt=fmt, limits=Limits())
        q = s.inputs["Q"].reshape(-1).tolist()
        assert q == [Fraction(1, 2)] * 3 + [Fraction(1000)] * 2
        assert q[0] is q[1] is q[2] and q[3] is q[4]


def test_a_json_spec_of_many_numbers_is_read_in_linear_time() -> None:
    """Rows of numbers are checked for depth and type in C-speed passes: 600 000 entries in
    well under the time the per-entry walk took (about 10 s before)."""
    n = 3125  # tokens; Q, K, V of n x 64
    row = "[" + ", ".join(["0.5"] * 64) + "]"
    matrix = "[" + ",".join([row] * n) + "]"
    tokens = json.dumps([f"t{i}" for i in range(n)])
    text = f'{{"tokens": {tokens}, "inputs": {{"Q": {matrix}, "K": {matrix}, "V": {matrix}}}}}'
    t0 = time.process_time()
    s = loads_spec(text, fmt="json")
    assert s.inputs["V"].shape == (n, 64) and time.process_time() - t0 < 5
