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
    assert repr(r.scores).endswith("Tensor([[5, 2]])")
    assert repr(r.weights) == "SoftmaxTensor([[0.8929582, 0.1070418]])"


def test_nested_axes_and_minus_infinity() -> None:
    q = np.ones((2, 2, 1))
    r = symattn.scaled_dot_product_attention(q, q, q, is_causal=True)
    text = repr(r.masked_scores)
    assert text.splitlines() == [
        "LinearSurdTensor([[[   1, -inf],",
        "                   [   1,    1]],",
        "",
        "                  [[   1, -inf],",
        "                   [   1,    1]]])",
    ]


def test_large_tensors_show_their_edges() -> None:
    t = RationalTensor(np.array([[Fraction(i * 50 + j, 4) for j in range(50)] for i in range(50)]))
    lines = tensor_repr(t).splitlines()
    assert lines[0].startswith("RationalTensor([[") and len(lines) == 2 * EDGE + 1
    assert "..." in lines[0] and lines[EDGE].strip() == "...,"


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


def test_one_number_format_per_array_as_numpy_chooses() -> None:
    """Issue 22: a causal array never mixes ``1``, ``0`` and ``0.00029538722``."""
    r = symattn.scaled_dot_product_attention(
        [[1, 0], [0, 1], [3, 4]], [[1, 0], [0, 1], [9, 9]], [[1, 2], [3, 4], [5, 6]], is_causal=True
    )
    assert repr(r.weights).splitlines() == [
        "SoftmaxTensor([[1.0000000e+00, 0.0000000e+00, 0.0000000e+00],",
        "               [3.3023845e-01, 6.6976155e-01, 0.0000000e+00],",
        "               [3.7535794e-19, 7.6126906e-19, 1.0000000e+00]])",
    ]
    # fixed point: a rounded entry is rounded again to the array's decimals, never padded
    assert repr(r.masked_scores).splitlines()[2].split() == [
        "[",
        "2.12132034,",
        "2.82842712,",
        "44.54772721]])",
    ]
    ints = RationalTensor(np.array([[Fraction(3), Fraction(-1)]]))
    assert repr(ints) == "RationalTensor([[ 3, -1]])"
    assert repr(r.weights.exact()[1, 1]) != repr(r.weights)  # exact forms from .exact()
