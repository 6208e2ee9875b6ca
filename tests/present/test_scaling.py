"""Tests of symattn.present.scaling: the scale and the mask of a worked example."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from symattn import scaled_dot_product_attention
from symattn.exact import Surd
from symattn.present.document import DocMeta, DocOptions, build_document
from symattn.present.keys import MASKS

Q = [[1, 0], [0, 1]]
K = [[1, 0], [0, 1], [1, 1]]
V = [[1, 2], [3, 4], [5, 6]]


def test_default_scale_is_the_width_of_the_keys() -> None:
    doc = build_document(scaled_dot_product_attention(Q, K, V), DocMeta(), DocOptions())
    assert [m.key for m in doc.scaling] == ["dk_width"]
    assert doc.scaling_math == r"\sqrt{d_k} = \sqrt{2} \approx 1.4142"


def test_stated_dk_that_differs_from_the_width() -> None:
    result = scaled_dot_product_attention(Q, K, V, scale=Fraction(1, 2))
    doc = build_document(result, DocMeta(d_k_stated=4), DocOptions())
    assert [m.key for m in doc.scaling] == ["dk_stated", "dk_differs"]
    assert doc.scaling_math == r"\sqrt{d_k} = \sqrt{4} = 2"


def test_a_scale_not_of_the_form_one_over_root() -> None:
    result = scaled_dot_product_attention(Q, K, V, scale=Surd(Fraction(0), Fraction(-1, 3), 2))
    doc = build_document(result, DocMeta(), DocOptions())
    assert [m.key for m in doc.scaling] == ["scale_given"] and doc.scaling_math == ""


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"is_causal": True}, "mask_causal"),
        ({"attn_mask": [[True, False, True], [True, True, False]]}, "mask_boolean"),
        ({"attn_mask": [[0, float("-inf"), 1], [0, 0, 0]]}, "mask_additive"),
        ({}, None),
    ],
)
def test_each_mask_kind_has_its_sentence(kwargs: dict[str, Any], key: str | None) -> None:
    result = scaled_dot_product_attention(Q, K, V, **kwargs)
    doc = build_document(result, DocMeta(), DocOptions())
    assert [m.key for m in doc.mask] == ([key] if key else [])
    assert key is None or key in MASKS.values()
