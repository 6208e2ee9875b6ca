"""Tests of symattn.spec: the seed specs, the schema, and the errors bad specs get."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from symattn.config import Limits
from symattn.errors import LimitError, NumberError, SpecError
from symattn.numbers import NEG_INF
from symattn.spec import RowClaims, Spec, load_spec, loads_spec

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"

BASE = """
title = "t"
tokens = ["a", "b"]
[inputs]
Q = [[1, 2]]
K = [[1, 2], [0, 1]]
V = [[10, 20], [30, 40]]
"""
QT = 'query_tokens = ["a"]\n'


def spec(text: str, **kw: object) -> Spec:
    return loads_spec(text, name="spec.toml", **kw)  # type: ignore[arg-type]


def texts(ws: tuple[object, ...]) -> list[str | None]:
    return [None if w is None else w.text for w in ws]  # type: ignore[attr-defined]


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


# ----------------------------------------------------------------------------- good specs


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


def test_defaults_and_strings_in_inputs() -> None:
    s = spec(
        'tokens = ["a", "b"]\n[inputs]\nQ = [["1/3", "0.1"], [0, 1]]\n'
        "K = [[1, 2], [0, 1]]\nV = [[1], [2]]\n"
    )
    assert s.lang == "en" and s.query_tokens == s.tokens == s.explain and s.d_k is None
    assert s.inputs["Q"][0].tolist() == [Fraction(1, 3), Fraction(1, 10)]
    assert s.title == s.source == s.notes == "" and s.missing == ()
    assert not s.inputs["Q"].flags.writeable


@pytest.mark.parametrize(
    ("scale", "expected"), [("0.5", Fraction(1, 2)), ('"1/3"', Fraction(1, 3)), ("2", Fraction(2))]
)
def test_scale(scale: str, expected: Fraction) -> None:
    assert spec(QT + f"scale = {scale}\n" + BASE).scale == expected


def test_per_key_table_form() -> None:
    s = spec(QT + BASE + "[claims.rows.a]\nweights = { b = 0.18 }\nscores = [5, 2]\n")
    row = s.claims.rows["a"]
    assert isinstance(row, RowClaims)
    assert texts(row.weights) == [None, "0.18"] and texts(row.scores) == ["5", "2"]
    assert row.output == (None, None)


def test_boolean_and_additive_masks() -> None:
    s = spec(QT + "mask = [[true, false]]\n" + BASE)
    assert (
        isinstance(s.mask, np.ndarray)
        and s.mask.dtype == bool
        and s.mask.tolist() == [[True, False]]
    )
    s = spec(QT + 'mask = [[0, "-inf"]]\n' + BASE)
    assert s.mask is not None and s.mask[0, 0] == 0 and s.mask[0, 1] is NEG_INF
    s = spec(QT + "mask = [[0.5, -inf]]\n" + BASE)
    assert s.mask is not None and s.mask[0, 0] == Fraction(1, 2) and s.mask[0, 1] is NEG_INF


def test_multi_head_spec() -> None:
    s = spec(
        'tokens = ["a", "b"]\nnum_heads = 2\n[inputs]\nX = [[1, 0], [0, 1]]\n'
        "W_Q = [[1, 0], [0, 1]]\nW_K = [[1, 0], [0, 1]]\nW_V = [[1, 0], [0, 1]]\nW_O = [[1], [1]]\n"
        "[claims.rows.a]\noutput = [1]\n"
    )
    assert (
        s.num_heads == 2 and s.uses_x and s.computable and texts(s.claims.rows["a"].output) == ["1"]
    )


def test_spec_is_immutable() -> None:
    s = spec(QT + BASE)
    with pytest.raises(AttributeError):
        s.d_k = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.inputs["Q"] = s.inputs["K"]  # type: ignore[index]


# ----------------------------------------------------------------------------- bad specs

BAD = [
    # (id, text, error, words the message must contain)
    ("unknown-top", 'tokns = ["a"]\n' + BASE, SpecError, ["tokns", "did you mean 'tokens'"]),
    ("unknown-input", QT + BASE + "Kk = [[1]]\n", SpecError, ["inputs.Kk", "did you mean 'K'"]),
    (
        "unknown-claim",
        QT + BASE + "[claims.rows.a]\nweight = [1, 2]\n",
        SpecError,
        ["claims.rows.a.weight", "did you mean 'weights'"],
    ),
    (
        "unknown-token-claim",
        QT + BASE + "[claims.tokens.a]\nkey = [1, 2]\n",
        SpecError,
        ["claims.tokens.a.key", "did you mean 'k'"],
    ),
    ("schema-2", "schema = 2\n" + QT + BASE, SpecError, ["schema", "only 1"]),
    ("lang", 'lang = "fr"\n' + QT + BASE, SpecError, ["lang", "'fr'"]),
    ("title-type", QT + BASE.replace('title = "t"', "title = 3"), SpecError, ["title", "string"]),
    ("no-tokens", "[inputs]\nQ = [[1]]\n", SpecError, ["tokens", "required"]),
    (
        "ragged",
        QT + BASE.replace("K = [[1, 2], [0, 1]]", "K = [[1, 2], [0, 1, 3]]"),
        SpecError,
        ["inputs.K", "row 2 has 3 entries, expected 2"],
    ),
    (
        "width-K",
        QT + BASE.replace("K = [[1, 2], [0, 1]]", "K = [[1, 2, 3], [0, 1, 3]]"),
        SpecError,
        ["inputs.K", "3 entries, expected 2"],
    ),
    (
        "rows-V",
        QT + BASE.replace("V = [[10, 20], [30, 40]]", "V = [[10, 20]]"),
        SpecError,
        ["inputs.V", "1 rows, expected 2"],
    ),
    ("rows-Q", BASE, SpecError, ["inputs.Q", "1 rows, expected 2"]),
    (
        "vector-not-matrix",
        QT + BASE.replace("Q = [[1, 2]]", "Q = [1, 2]"),
        SpecError,
        ["inputs.Q", "row 1"],
    ),
    ("empty-row", QT + BASE.replace("Q = [[1, 2]]", "Q = [[]]"), SpecError, ["inputs.Q", "empty"]),
    (
        "bool-input",
        QT + BASE.replace("Q = [[1, 2]]", "Q = [[true, 2]]"),
        SpecError,
        ["inputs.Q", "boolean"],
    ),
    ("nan", QT + BASE.replace("Q = [[1, 2]]", "Q = [[nan, 2]]"), NumberError, ["inputs.Q", "NaN"]),
    (
        "huge",
        QT + BASE.replace("Q = [[1, 2]]", "Q = [[1e999999999, 2]]"),
        LimitError,
        ["inputs.Q", "exponent"],
    ),
    (
        "bad-string",
        QT + BASE.replace("Q = [[1, 2]]", 'Q = [["__import__", 2]]'),
        NumberError,
        ["inputs.Q"],
    ),
    ("mix", QT + BASE + "X = [[1]]\n", SpecError, ["inputs", "not a mix"]),
    (
        "missing-K",
        QT + BASE.replace("K = [[1, 2], [0, 1]]\n", ""),
        SpecError,
        ["inputs.K", "missing"],
    ),
    ("missing-and-given", 'missing = ["K"]\n' + QT + BASE, SpecError, ["inputs.K", "missing"]),
    ("missing-name", 'missing = ["k"]\n' + QT + BASE, SpecError, ["missing", "did you mean 'K'"]),
    (
        "dup-token",
        QT + BASE.replace('["a", "b"]', '["a", "a"]'),
        SpecError,
        ["tokens", "duplicate"],
    ),
    ("empty-token", QT + BASE.replace('["a", "b"]', '["a", ""]'), SpecError, ["tokens", "entry 2"]),
    (
        "control-token",
        QT + BASE.replace('["a", "b"]', '["a", "b\\n"]'),
        SpecError,
        ["tokens", "control"],
    ),
    ("explain-unknown", QT + 'explain = ["c"]\n' + BASE, SpecError, ["explain", "'c'"]),
    ("explain-near", QT + 'explain = ["aa"]\n' + BASE, SpecError, ["explain", "did you mean 'a'"]),
    (
        "claims-row-unknown",
        QT + BASE + "[claims.rows.b]\nscores = [1, 2]\n",
        SpecError,
        ["claims.rows", "'b'", "query_tokens"],
    ),
    (
        "claims-token-unknown",
        QT + BASE + "[claims.tokens.z]\nk = [1, 2]\n",
        SpecError,
        ["claims.tokens", "'z'"],
    ),
    (
        "claims-q-of-key",
        QT + BASE + "[claims.tokens.b]\nq = [1, 2]\n",
        SpecError,
        ["claims.tokens.b.q", "not a query token"],
    ),
    (
        "claims-length",
        QT + BASE + "[claims.rows.a]\nweights = [0.5, 0.3, 0.2]\n",
        SpecError,
        ["claims.rows.a.weights", "3 entries, expected 2"],
    ),
    (
        "claims-output-length",
        QT + BASE + "[claims.rows.a]\noutput = [1]\n",
        SpecError,
        ["claims.rows.a.output", "1 entries, expected 2"],
    ),
    (
        "claims-k-length",
        QT + BASE + "[claims.tokens.a]\nk = [1]\n",
        SpecError,
        ["claims.tokens.a.k", "expected 2"],
    ),
    (
        "claims-table-key",
        QT + BASE + "[claims.rows.a]\nweights = { c = 1 }\n",
        SpecError,
        ["claims.rows.a.weights", "'c'"],
    ),
    (
        "claims-bool",
        QT + BASE + "[claims.rows.a]\nsum = true\n",
        SpecError,
        ["claims.rows.a.sum", "true"],
    ),
    (
        "claims-text",
        QT + BASE + '[claims.rows.a]\nsum = "lots"\n',
        NumberError,
        ["claims.rows.a.sum", "lots"],
    ),
    ("claims-d_k", QT + BASE + '[claims]\nd_k = "four"\n', NumberError, ["claims.d_k", "four"]),
    ("dk-0", "d_k = 0\n" + QT + BASE, SpecError, ["d_k", "positive integer, got 0"]),
    ("dk-neg", "d_k = -1\n" + QT + BASE, SpecError, ["d_k", "got -1"]),
    ("dk-float", "d_k = 2.5\n" + QT + BASE, SpecError, ["d_k", "got 2.5"]),
    ("dk-text", 'd_k = "two"\n' + QT + BASE, SpecError, ["d_k", "'two'"]),
    ("dk-bool", "d_k = true\n" + QT + BASE, SpecError, ["d_k", "got true"]),
    ("scale-zero", "scale = 0\n" + QT + BASE, SpecError, ["scale", "positive"]),
    ("scale-sqrt", 'scale = "sqrt(2)"\n' + QT + BASE, NumberError, ["scale"]),
    ("causal-type", 'causal = "yes"\n' + QT + BASE, SpecError, ["causal", "true or false"]),
    ("heads-Q", "num_heads = 2\n" + QT + BASE, SpecError, ["num_heads", "X"]),
    (
        "mask-shape",
        QT + "mask = [[true, false], [true, true]]\n" + BASE,
        SpecError,
        ["mask", "(2, 2), expected (1, 2)"],
    ),
    ("mask-width", QT + "mask = [[true]]\n" + BASE, SpecError, ["mask", "expected (1, 2)"]),
    ("mask-mixed", QT + "mask = [[true, 0]]\n" + BASE, SpecError, ["mask", "column 1"]),
    ("mask-pos-inf", QT + "mask = [[0, inf]]\n" + BASE, NumberError, ["mask"]),
    (
        "mask-and-causal",
        QT + "causal = true\nmask = [[true, true]]\n" + BASE,
        SpecError,
        ["mask", "causal"],
    ),
    ("syntax", QT + BASE + "oops = [1,,]\n", SpecError, ["spec.toml", "TOML syntax error", "line"]),
    ("bare-cjk-key", QT + BASE + "[claims.rows.它]\n", SpecError, ["TOML syntax error"]),
    ("dup-key", QT + 'title = "again"\n' + BASE, SpecError, ["TOML syntax error"]),
    (
        "x-width",
        'tokens = ["a"]\n[inputs]\nX = [[1, 2]]\nW_Q = [[1]]\nW_K = [[1], [1]]\nW_V = [[1], [1]]\n',
        SpecError,
        ["inputs.W_Q", "1 rows, expected 2", "width of X"],
    ),
    (
        "x-query-subset",
        'tokens = ["a"]\nquery_tokens = ["z"]\n[inputs]\nX = [[1]]\nW_Q = [[1]]\n'
        "W_K = [[1]]\nW_V = [[1]]\n",
        SpecError,
        ["query_tokens", "'z'"],
    ),
    (
        "heads-divisible",
        'tokens = ["a"]\nnum_heads = 2\n[inputs]\nX = [[1]]\nW_Q = [[1, 2, 3]]\n'
        "W_K = [[1, 2, 3]]\nW_V = [[1, 2]]\n",
        SpecError,
        ["inputs.W_Q", "not divisible by num_heads = 2"],
    ),
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
    with pytest.raises(error) as info:
        spec(text)
    message = str(info.value)
    assert message.startswith("spec.toml: ")
    for word in words:
        assert word in message
    assert "\n" not in message.strip()


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


def test_max_elements() -> None:
    with pytest.raises(LimitError, match="inputs.K has 4 entries, more than max_elements=3"):
        spec(QT + BASE, limits=Limits(max_elements=3))


def test_limits_raised_on_purpose() -> None:
    text = QT + BASE + "[claims]\nd_k = 4\n"
    deep = text.replace("d_k = 4", "d_k = " + "[" * 10 + "4" + "]" * 10)
    with pytest.raises(LimitError):
        spec(deep)
    with pytest.raises(SpecError, match="claims.d_k"):  # past the limit, the type is checked
        spec(deep, limits=Limits(max_nesting=20))


def test_decimal_preserved_in_json() -> None:
    s = loads_spec(
        '{"tokens": ["a"], "missing": ["Q", "K", "V"], "claims": {"sqrt_d_k": 2.000}}', fmt="json"
    )
    assert s.claims.sqrt_d_k is not None and s.claims.sqrt_d_k.text == "2.000"


# ----------------------------------------------------------------------------- run()


def _floats(x: object, digits: int = 15) -> list[float]:
    arr = np.asarray(x.evalf(digits), dtype=object)  # type: ignore[attr-defined]
    return [float(v) for v in arr.reshape(-1)]


def test_run_thinking_machines() -> None:
    result = load_spec(EXAMPLES / "thinking_machines.toml").run()
    assert _floats(result.output) == pytest.approx([12.140836, 22.140836], abs=1e-6)


def test_run_animal_street() -> None:
    result = load_spec(EXAMPLES / "animal_street.toml").run()
    weights = _floats(result.weights)
    assert weights[6:9] == pytest.approx([0.33089, 0.34007, 0.32903], abs=1e-5)  # row 它
    assert _floats(result.output)[4:6] == pytest.approx([0.0318594, 0.1113354], abs=1e-7)


def test_run_not_computable() -> None:
    s = load_spec(EXAMPLES / "fruit_dictionary.toml")
    with pytest.raises(
        SpecError,
        match=r"fruit_dictionary\.toml: cannot compute: the source does not give Q, K, V"
        r" \(listed under 'missing'\)",
    ):
        s.run()


def test_effective_scale() -> None:
    assert spec(QT + "scale = 0.5\nd_k = 3\n" + BASE).effective_scale() == Fraction(1, 2)
    assert spec(QT + BASE).effective_scale() is None


SQUARE = (
    'tokens = ["a", "b"]\n{extra}[inputs]\nQ = [[1, 0], [0, 1]]\nK = [[1, 0], [0, 1]]\n'
    "V = [[1, 0], [0, 1]]\n"
)
SQUARE_X = (
    'tokens = ["a", "b"]\n{extra}[inputs]\nX = [[1, 0], [0, 1]]\nW_Q = [[1, 0], [0, 1]]\n'
    "W_K = [[1, 0], [0, 1]]\nW_V = [[1, 0], [0, 1]]\n"
)


@pytest.mark.parametrize("template", [SQUARE, SQUARE_X], ids=["QKV", "X"])
@pytest.mark.parametrize(
    "extra",
    ["causal = true\n", "mask = [[true, false], [true, true]]\n", 'mask = [[0, "-inf"], [0, 0]]\n'],
)
def test_run_passes_mask_and_causal(template: str, extra: str) -> None:
    weights = spec(template.format(extra=extra)).run().weights.evalf(6)
    assert weights[0][1] == 0 and weights[0][0] == 1 and weights[1][1] > weights[1][0] > 0


def test_run_multi_head_with_w_o() -> None:
    s = spec(SQUARE_X.format(extra="num_heads = 2\n") + "W_O = [[1], [1]]\n")
    assert [float(v) for v in s.run().output.evalf(6).reshape(-1)] == pytest.approx(
        [1.23106, 1.23106], abs=1e-5
    )
