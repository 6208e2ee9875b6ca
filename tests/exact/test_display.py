"""Tests of symattn.exact.display: exact tensors printed as numpy prints arrays."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np

import symattn
from symattn.exact import RationalTensor
from symattn.exact.display import EDGE, decide_entries, tensor_repr, tensor_values


def test_exact_entries_print_exactly_others_rounded() -> None:
    r = symattn.scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    assert repr(r.scores).endswith("Tensor(shape=(1, 2))\n[[5 2]]")
    assert repr(r.weights) == "SoftmaxTensor(shape=(1, 2))\n[[0.89295820 0.10704180]]"


def test_nested_axes_and_minus_infinity() -> None:
    q = np.ones((2, 2, 1))
    r = symattn.scaled_dot_product_attention(q, q, q, is_causal=True)
    text = repr(r.masked_scores)
    assert text.splitlines()[1:] == [
        "[[[   1 -inf]",
        "  [   1    1]]",
        "",
        " [[   1 -inf]",
        "  [   1    1]]]",
    ]


def test_large_tensors_show_their_edges() -> None:
    t = RationalTensor(np.array([[Fraction(i * 50 + j, 4) for j in range(50)] for i in range(50)]))
    lines = tensor_repr(t).splitlines()
    assert lines[0] == "RationalTensor(shape=(50, 50))" and len(lines) == 1 + 2 * EDGE + 1
    assert lines[1].startswith("[[") and "..." in lines[1] and lines[EDGE + 1].strip() == "..."


def test_a_repr_never_raises() -> None:
    class Broken(RationalTensor):
        def rational(self, index: tuple[int, ...]) -> Fraction | None:
            raise RuntimeError("boom")

    t = Broken(np.array([[Fraction(1)]]))
    assert repr(t) == "Broken(shape=(1, 1))"


def test_a_few_entries_of_a_large_tensor_are_decided_from_floats_soundly() -> None:
    rng = np.random.default_rng(0)
    x = rng.random((40, 8))
    r = symattn.scaled_dot_product_attention(x, x, x)
    idx = [(0, 0), (39, 39), (5, 7)]

    def decide(b):  # type: ignore[no-untyped-def]
        return b.round_decimals(12)

    fast = decide_entries(r.weights, idx, decide)
    slow = r.weights.certify_entries(idx, [decide] * 3)
    assert fast == slow and all(isinstance(v, Decimal) for v in fast)
    assert tensor_values(r.output, [(0, 0)])[(0, 0)] == format(r.output.evalf(8)[0, 0], "f")
