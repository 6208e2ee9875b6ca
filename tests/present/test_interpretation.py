"""Tests of symattn.present.interpretation: what a row's result means."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn import scaled_dot_product_attention
from symattn.errors import InputError
from symattn.exact import Surd
from symattn.present.interpretation import top_keys
from symattn.present.model import Seg

from .examples import doc_for, rows


def test_top_keys_ties_and_radicals() -> None:
    root2 = Surd(Fraction(0), Fraction(1), 2)
    assert top_keys({0: Surd(Fraction(1)), 1: root2, 2: Surd(Fraction(3, 2))}) == [2]
    assert top_keys({0: root2, 1: Surd(Fraction(0), Fraction(1, 2), 2) * 2}) == [0, 1]
    with pytest.raises(InputError, match="different radicals"):
        top_keys({0: root2, 1: Surd(Fraction(0), Fraction(1), 3)})


def test_interpretation_names_the_top_key_and_compares_the_output() -> None:
    result = scaled_dot_product_attention(
        [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]], query_labels=["q"], key_labels=["a", "b"]
    )
    (row,) = rows(doc_for(result))
    keys = [m.key for m in row.interpretation]
    assert keys == ["interp_top", "interp_up", "interp_pull"]
    assert row.interpretation[0].params["keys"] == (Seg("token", "a"),)
    assert row.interpretation[0].count == 1 and row.interpretation[1].count == 2
    assert row.interpretation[2].count == 1  # one other key: the singular sentence


def test_two_top_keys_are_plural() -> None:
    result = scaled_dot_product_attention(
        [[1, 0]], [[1, 0], [1, 0], [0, 1]], [[1, 0], [0, 1], [1, 1]]
    )
    (row,) = rows(doc_for(result))
    assert row.interpretation[0].key == "interp_top" and row.interpretation[0].count == 2
