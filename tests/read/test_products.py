"""Tests of symattn.read.products: a row written out as the products of its factors."""

from __future__ import annotations

from fractions import Fraction

from symattn.read.products import Array, factors, product_row
from symattn.read.syntax import parse

F = Fraction


def _array(rows: list[list[str]]) -> Array:
    return (len(rows), len(rows[0])), tuple(F(x) for r in rows for x in r)


WEIGHTS = _array([["0.2", "0.8"], ["0.6", "0.4"]])
V = _array([["1", "2"], ["3", "4"]])
Q = _array([["1", "0"], ["0", "1"]])
K = _array([["2", "5"], ["3", "7"]])


def test_a_vector_of_sums_of_products_has_a_shared_factor() -> None:
    left, cols = factors(parse("[0.6(1) + 0.4(3), 0.6(2) + 0.4(4)]")) or ((), ())
    assert left == (F("0.6"), F("0.4")) and cols == ((1, 3), (2, 4))
    # (written the other way round: the shared factor on the right)
    assert factors(parse("[1(0.6) + 3(0.4), 2(0.6) + 4(0.4)]")) == (left, cols)


def test_no_shared_factor_or_no_products_is_no_factoring() -> None:
    assert factors(parse("[0.6(1) + 0.4(3), 0.5(2) + 0.4(4)]")) is None
    assert factors(parse("[0.6 + 1.2, 0.8 + 1.6]")) is None
    assert factors(parse("[0.6(1) - 0.4(3), 0.6(2) - 0.4(4)]")) is None


def test_a_weights_row_times_v_is_that_rows_output() -> None:
    node = parse("[0.6(1) + 0.4(3), 0.6(2) + 0.4(4)]")
    assert product_row(node, {"weights": [WEIGHTS], "v": [V]}) == ("output", 1)
    # (factors that are not the text's arrays, or no V: nothing is said)
    assert product_row(node, {"weights": [WEIGHTS]}) is None
    assert (
        product_row(parse("[0.7(1) + 0.3(3), 0.7(2) + 0.3(4)]"), {"weights": [WEIGHTS], "v": [V]})
        is None
    )


def test_a_row_of_q_times_the_rows_of_k_is_that_rows_scores() -> None:
    node = parse("[0(2) + 1(5), 0(3) + 1(7)]")
    assert product_row(node, {"q": [Q], "k": [K]}) == ("scores", 1)


def test_a_factor_that_is_two_rows_decides_nothing() -> None:
    same = _array([["0.5", "0.5"], ["0.5", "0.5"]])
    node = parse("[0.5(1) + 0.5(3), 0.5(2) + 0.5(4)]")
    assert product_row(node, {"weights": [same], "v": [V]}) is None
