"""Tests for symattn.exact.surd: exact square roots and p + q*sqrt(r)."""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest
import sympy

from symattn.errors import InputError, LimitError
from symattn.exact.surd import Surd, _squarefree_split, inv_sqrt, sqrt_surd

F = Fraction


@pytest.mark.parametrize(
    ("n", "m", "r"),
    [(1, 1, 1), (2, 1, 2), (4, 2, 1), (8, 2, 2), (12, 2, 3), (72, 6, 2), (97, 1, 97)],
)
def test_squarefree_split(n: int, m: int, r: int) -> None:
    assert _squarefree_split(n) == (m, r)


def test_squarefree_split_refuses_huge() -> None:
    with pytest.raises(LimitError):
        _squarefree_split(10**30)


@pytest.mark.parametrize(
    ("n", "expr"),
    [
        (2, "sqrt(2)/2"),
        (4, "1/2"),
        (64, "1/8"),
        (F(1, 4), "2"),
        (8, "sqrt(2)/4"),
        (F(3, 2), "sqrt(6)/3"),
    ],
)
def test_inv_sqrt(n: int | Fraction, expr: str) -> None:
    s = inv_sqrt(n)
    assert (
        sympy.simplify(
            s.sympy()
            - sympy.Rational(1)
            / sympy.sqrt(
                sympy.Rational(n.numerator, n.denominator) if isinstance(n, Fraction) else n
            )
        )
        == 0
    )
    assert str(s.sympy()) == expr


@pytest.mark.parametrize("bad", [0, -1, F(-1, 2)])
def test_sqrt_of_non_positive_is_an_error(bad: int | Fraction) -> None:
    with pytest.raises(InputError):
        inv_sqrt(bad)
    with pytest.raises(InputError):
        sqrt_surd(bad)


def test_surd_normalises_rational_root() -> None:
    assert Surd(F(1), F(2), 1) == Surd(F(3))
    assert Surd(F(1), F(2), 1).is_rational


def test_surd_arithmetic_and_arb() -> None:
    s = inv_sqrt(2)  # sqrt(2)/2
    assert s * 4 == Surd(F(0), F(2), 2) and 4 * s == s * 4
    assert s + F(1, 2) == Surd(F(1, 2), F(1, 2), 2) and not s.is_rational
    with flint.ctx.workprec(80):
        assert (s.arb() * s.arb() - flint.arb(1) / 2).contains(0)
    assert str(s) == "sqrt(2)/2"


@pytest.mark.parametrize(
    ("a", "b", "r", "sign"),
    [
        (Fraction(0), Fraction(1), 2, 1),
        (Fraction(3), Fraction(-2), 2, 1),  # 3 > 2 sqrt(2) = 2.83
        (Fraction(2), Fraction(-2), 2, -1),  # 2 < 2.83
        (Fraction(-3), Fraction(2), 2, -1),
        (Fraction(2), Fraction(-1), 4, 0),  # sqrt(4) = 2, exactly
        (Fraction(1), Fraction(-1), 1, 0),
        (Fraction(-1), Fraction(0), 3, -1),
    ],
)
def test_sign(a: Fraction, b: Fraction, r: int, sign: int) -> None:
    assert Surd(a, b, r).sign() == sign
    assert Surd(Fraction(0)).compare(Surd(-a, -b, r)) == sign


def test_compare_rational_with_any_radical_and_refuses_two_radicals() -> None:
    assert Surd(Fraction(1), Fraction(1), 2).compare(Surd(Fraction(5, 2))) == -1  # 2.41 < 2.5
    assert Surd(Fraction(3)).compare(Surd(Fraction(0), Fraction(2), 2)) == 1  # 3 > 2.83
    with pytest.raises(InputError):
        Surd(Fraction(0), Fraction(1), 2).compare(Surd(Fraction(0), Fraction(1), 3))
