"""Tests of symattn.spec.run: a spec through the exact engine."""

from __future__ import annotations

import numpy as np
import pytest

from symattn.errors import SpecError
from symattn.spec import load_spec
from tests.conftest import EXAMPLES
from tests.spec.common import spec


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


# --------------------------------------------------------------------------- other starts

SCORES = 'tokens = ["a", "b"]\nquery_tokens = ["q"]\n'


def test_run_from_scores_divides_by_the_stated_d_k() -> None:
    s = spec(SCORES + "d_k = 2\n[inputs]\nscores = [[5, 2]]\nV = [[10, 20], [30, 40]]\n")
    assert s.start.name == "scores" and s.computable and not s.uses_x
    r = s.run()
    assert _floats(r.output, 12) == [12.1408360293, 22.1408360293]
    assert r.query_labels == ("q",) and r.key_labels == ("a", "b")


def test_run_from_scores_with_scale_one_is_plain_softmax() -> None:
    s = spec(SCORES + "scale = 1\n[inputs]\nscores = [[0, 0]]\nV = [[10, 20], [30, 40]]\n")
    assert _floats(s.run().output) == [20.0, 30.0]


def test_run_from_scaled_scores_ignores_the_stated_d_k() -> None:
    s = spec(SCORES + "d_k = 4\n[inputs]\nscaled = [[2.5, 1.0]]\nV = [[10, 20], [30, 40]]\n")
    assert s.start.name == "scaled"
    assert _floats(s.run().output, 12) == [13.6485104761, 23.6485104761]


def test_scores_need_d_k_or_scale() -> None:
    with pytest.raises(SpecError, match="needs d_k or scale"):
        spec(SCORES + "[inputs]\nscores = [[5, 2]]\nV = [[10, 20], [30, 40]]\n")


def test_scores_shape_is_queries_by_tokens() -> None:
    with pytest.raises(SpecError, match="inputs.scores: rows have 3 entries, expected 2"):
        spec(SCORES + "d_k = 2\n[inputs]\nscores = [[5, 2, 1]]\nV = [[10, 20], [30, 40]]\n")


def test_inputs_of_two_starts_are_refused() -> None:
    with pytest.raises(SpecError, match="not a mix"):
        spec(
            SCORES
            + "d_k = 2\n[inputs]\nscores = [[5, 2]]\nQ = [[1, 2]]\nK = [[1, 2], [0, 1]]\n"
            + "V = [[10, 20], [30, 40]]\n"
        )


CROSS = (
    'tokens = ["a", "b"]\nquery_tokens = ["p"]\n[inputs]\nX_q = [[1, 0]]\n'
    "X = [[1, 2], [0, 1]]\nW_Q = [[1, 0], [0, 1]]\nW_K = [[1, 0], [0, 1]]\n"
    "W_V = [[10, 20], [30, 40]]\n"
)


def test_run_cross_attention_queries_from_x_q() -> None:
    s = spec(CROSS)
    assert s.cross and s.uses_x and s.needed[-1] == "X_q"
    r = s.run()
    assert r.query_labels == ("p",) and r.query.shape == (1, 2)
    assert r.start == "x" and r.trace.find("X_q") is not None


def test_cross_attention_query_tokens_need_not_be_tokens() -> None:
    assert spec(CROSS).query_tokens == ("p",)
    with pytest.raises(SpecError, match="inputs.X_q: has 1 rows, expected 2"):
        spec(CROSS.replace('query_tokens = ["p"]', 'query_tokens = ["p", "r"]'))


def test_cross_attention_multi_head_with_w_o() -> None:
    text = CROSS.replace("[inputs]", "num_heads = 2\n[inputs]") + "W_O = [[1, 0], [0, 1]]\n"
    r = spec(text).run()
    assert r.output.shape == (1, 2) and r.query_labels == ("p",)
