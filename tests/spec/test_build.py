"""Tests of symattn.spec.build: the top-level fields, the inputs, shapes and masks."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from symattn.config import Limits
from symattn.errors import LimitError, NumberError, SpecError
from symattn.numbers import NEG_INF
from tests.spec.common import BASE, QT, assert_bad, spec, texts


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


def test_max_elements() -> None:
    with pytest.raises(LimitError, match="inputs.K has 4 entries, more than max_elements=3"):
        spec(QT + BASE, limits=Limits(max_elements=3))


# ----------------------------------------------------------------------------- bad specs

BAD = [
    # (id, text, error, words the message must contain)
    ("unknown-top", 'tokns = ["a"]\n' + BASE, SpecError, ["tokns", "did you mean 'tokens'"]),
    ("unknown-input", QT + BASE + "Kk = [[1]]\n", SpecError, ["inputs.Kk", "did you mean 'K'"]),
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
]


@pytest.mark.parametrize(("text", "error", "words"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_specs(text: str, error: type[Exception], words: list[str]) -> None:
    assert_bad(text, error, words)


def test_precision_and_rounded_inputs() -> None:
    s = spec(
        QT
        + 'precision = "float32"\nrounded_inputs = ["K", "V"]\n'
        + BASE.replace("V = [[10, 20], [30, 40]]", 'V = [[10.0, "20.50"], [30, "1/3"]]')
    )
    assert s.precision == "float32" and s.rounded_inputs == ("K", "V")
    assert s.half_units["K"][0, 0] == Fraction(1, 2)
    assert [list(r) for r in s.half_units["V"]] == [
        [Fraction(1, 20), Fraction(1, 200)],
        [Fraction(1, 2), Fraction(0)],
    ]
    assert "Q" not in s.half_units
    plain = spec(QT + BASE)
    assert plain.precision is None and plain.rounded_inputs == () and dict(plain.half_units) == {}


@pytest.mark.parametrize(
    ("top", "words"),
    [
        ('precision = "float31"', ["precision", "'float32'"]),
        ("precision = 32", ["precision", "expected one of"]),
        ('rounded_inputs = ["W_Q"]', ["rounded_inputs", "'W_Q' is not given"]),
        ('rounded_inputs = ["K", "K"]', ["rounded_inputs", "listed twice"]),
        ('rounded_inputs = ["k"]', ["rounded_inputs", "did you mean 'K'"]),
        ('rounded_inputs = "K"', ["rounded_inputs", "a list of input names"]),
    ],
)
def test_bad_precision_and_rounded_inputs(top: str, words: list[str]) -> None:
    with pytest.raises(SpecError) as info:
        spec(QT + top + "\n" + BASE)
    assert str(info.value).startswith("spec.toml: ") and all(w in str(info.value) for w in words)
