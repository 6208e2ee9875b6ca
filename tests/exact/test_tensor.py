"""Tests for symattn.exact.tensor: the refinement loop and its ceiling."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.config import Limits
from symattn.errors import InputError, PrecisionError
from symattn.exact import Ball
from symattn.exact.tensor import all_indices, check_method
from tests.exact.build import softmax_of

F = Fraction


def test_precision_ceiling_is_reported() -> None:
    w = softmax_of([[0, 1]])
    with pytest.raises(PrecisionError, match="max_precision_bits"):
        w.enclose(200, limits=Limits(max_precision_bits=128))


def test_certify_entries_decides_rational_entries_on_their_exact_ball() -> None:
    w = softmax_of([[0, 0], [0, 1]])  # row 0: 1/2 each (rational); row 1 irrational
    seen: list[Ball] = []

    def decide(b: Ball) -> str | None:
        seen.append(b)
        return str(b.round_decimals(3)) if b.round_decimals(3) is not None else None

    got = w.certify_entries([(0, 0), (1, 1)], [decide, decide])
    assert got == ["0.500", "0.731"] and seen[0] == Ball.exact(F(1, 2))


def test_refine_entries_doubles_precision_until_decided() -> None:
    w = softmax_of([[0, 1]])
    widths: list[Fraction] = []

    def decide(b: Ball) -> Fraction | None:
        widths.append(b.width)
        return b.mid if b.narrower_than(F(1, 10**60)) else None

    (mid,) = w.refine_entries([(0, 1)], [decide], start_bits=32, limits=Limits())
    assert abs(mid - F(7310585786300049, 10**16)) < F(1, 10**15)
    assert len(widths) >= 3 and widths == sorted(widths, reverse=True)


def test_method_is_checked_and_shapes_are_shown() -> None:
    w = softmax_of([[0, 1]])
    check_method("exact")
    with pytest.raises(InputError, match="method must be"):
        check_method("quick")
    assert repr(w).startswith("SoftmaxTensor([[")  # the values, as numpy prints them
    assert list(all_indices((2, 1))) == [(0, 0), (1, 0)]
