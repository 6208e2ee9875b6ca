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
