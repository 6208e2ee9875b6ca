"""Tests of symattn.judge.quantities: exact values as quantities, certified decisions."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import flint

from symattn.config import Limits
from symattn.engine import scaled_dot_product_attention
from symattn.exact import Ball, Surd
from symattn.judge.quantities import (
    Computed,
    Const,
    Quantity,
    SurdQuantity,
    TensorEntry,
    certified_decimals,
    certify_value,
)
from symattn.judge.verdict import judge
from symattn.numbers import Written, parse_number


def W(text: str) -> Written:  # noqa: N802 - reads like the claim it builds
    return parse_number(text)


def test_tensor_entry_adapter() -> None:
    r = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    w = TensorEntry(r.weights, (0, 0))
    assert w.rational() is None
    assert judge(W("0.8930"), w).code is None
    assert judge(W("0.8929"), w).code == "truncated"
    assert TensorEntry(r.scores, (0, 0)).rational() == 5


def test_adapters_are_quantities() -> None:
    r = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    for q in (
        TensorEntry(r.weights, (0, 0)),
        Const(Fraction(1, 3)),
        Computed(lambda: flint.arb(2).sqrt()),
        SurdQuantity(Surd(Fraction(1), Fraction(1), 2)),
    ):
        assert isinstance(q, Quantity)
        assert q.arb(64).is_finite()


def test_const_and_surd() -> None:
    assert Const(Fraction(1, 3)).rational() == Fraction(1, 3)
    assert Fraction(1, 3) in Ball.from_arb(Const(Fraction(1, 3)).arb(64))
    assert SurdQuantity(Surd(Fraction(3))).rational() == 3
    root2 = SurdQuantity(Surd(Fraction(0), Fraction(1), 2))
    assert root2.rational() is None
    assert certified_decimals(root2, 6) == "1.414214"


def test_certify_value_refines_until_decided() -> None:
    seen: list[Fraction] = []

    def decide(b: Ball) -> Decimal | None:
        seen.append(b.width)
        return b.round_decimals(30)

    e = Computed(lambda: flint.arb(1).exp())
    assert certify_value(e, decide, start_bits=16) == Decimal("2.718281828459045235360287471353")
    assert len(seen) > 1 and seen == sorted(seen, reverse=True)


def test_certify_value_gives_up_at_the_ceiling() -> None:
    hidden = Computed(lambda: flint.arb(flint.fmpq(1, 8)) + flint.arb(0, flint.arb(2) ** -400))
    got = certify_value(
        hidden, lambda b: b.round_decimals(2), start_bits=16, limits=Limits(max_precision_bits=256)
    )
    assert got is None
    assert certified_decimals(hidden, 2, Limits(max_precision_bits=256)) == "?"


def test_rational_values_are_decided_exactly() -> None:
    assert certify_value(
        Const(Fraction(1, 8)), lambda b: b.round_decimals(2), start_bits=16
    ) == Decimal("0.12")
    assert certified_decimals(Const(Fraction(-1, 3)), 4) == "-0.3333"
