"""Tests of symattn.present.certified: roundings and signs decided from exact values."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from symattn import scaled_dot_product_attention
from symattn.config import Limits
from symattn.exact import Surd
from symattn.numbers.rounding import round_decimals
from symattn.present.certified import certified_round, certified_sign
from symattn.present.document import DocOptions, build_document, meta_from_spec
from symattn.spec import load_spec

from ..conftest import EXAMPLES
from .examples import SEEDS


def test_certified_round_of_products() -> None:
    result = scaled_dot_product_attention(
        [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]], scale=Surd(Fraction(0), Fraction(1, 2), 2)
    )
    got = certified_round(
        result.weights, [((0, 0), Fraction(10)), ((0, 1), Fraction(-3))], 4, Limits()
    )
    assert got == [Decimal("8.9296"), Decimal("-0.3211")]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("digits", [2, 4, 7])
def test_every_shown_number_is_the_rounding_of_its_exact_value(seed: str, digits: int) -> None:
    spec = load_spec(EXAMPLES / f"{seed}.toml")
    result = spec.run()
    doc = build_document(result, meta_from_spec(spec), DocOptions(digits=digits))
    assert doc.numbers
    for shown in doc.numbers:
        tensor = (
            result.masked_scores if shown.stage == "masked_scores" else result.stage(shown.stage)
        )
        ball = tensor.enclose(digits + 30)[shown.index]  # independent: a narrow certified ball
        lo = round_decimals(ball.lower * shown.factor, digits)
        hi = round_decimals(ball.upper * shown.factor, digits)
        assert lo == hi == Decimal(shown.text), shown
        assert len(shown.text.split(".")[1]) == digits if digits else "." not in shown.text


def test_certified_sign_exact_and_irrational() -> None:
    result = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    assert certified_sign(result.scores, (0, 0), Fraction(5), Limits()) == 0
    assert certified_sign(result.scores, (0, 1), Fraction(5), Limits()) == -1
    assert certified_sign(result.output, (0, 0), Fraction(10), Limits()) == 1
    assert certified_sign(result.output, (0, 0), Fraction(30), Limits()) == -1


def test_certified_round_of_negative_factors_orders_the_ball() -> None:
    result = scaled_dot_product_attention([[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]])
    (pos,) = certified_round(result.weights, [((0, 0), Fraction(1))], 6, Limits())
    (neg,) = certified_round(result.weights, [((0, 0), Fraction(-1))], 6, Limits())
    assert neg == -pos


def test_huge_numbers_are_written_in_scientific_notation() -> None:
    from symattn.present.document import DocMeta

    result = scaled_dot_product_attention([[30, 0]], [[30, 0], [0, 1]], [[1, 0], [0, 1]], scale=1)
    doc = build_document(result, DocMeta(), DocOptions())
    texts = {s.text for s in doc.numbers if s.stage == "exp_scores"}
    assert r"7.3288 \times 10^{390}" in texts  # e^900
    assert [m.key for m in doc.rounding] == ["rounding", "rounding_large", "rounding_sums"]
