"""Tests of symattn.present.scaling: the scale and the mask of a worked example."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from symattn import attention_from_scores, scaled_dot_product_attention
from symattn.exact import Surd
from symattn.present.document import DocMeta, DocOptions, build_document
from symattn.present.keys import MASKS
from symattn.present.render import render_markdown
from symattn.spec import loads_spec

from .examples import doc_for

Q = [[1, 0], [0, 1]]
K = [[1, 0], [0, 1], [1, 1]]
V = [[1, 2], [3, 4], [5, 6]]


def test_default_scale_is_the_width_of_the_keys() -> None:
    part = doc_for(scaled_dot_product_attention(Q, K, V)).parts[0]
    assert [m.key for m in part.scaling] == ["dk_width"]
    assert part.scaling_math == r"\sqrt{d_k} = \sqrt{2} \approx 1.4142"


def test_stated_dk_that_differs_from_the_width() -> None:
    result = scaled_dot_product_attention(Q, K, V, scale=Fraction(1, 2))
    part = build_document(result, DocMeta(d_k_stated=4), DocOptions()).parts[0]
    assert [m.key for m in part.scaling] == ["dk_stated", "dk_differs"]
    assert part.scaling_math == r"\sqrt{d_k} = \sqrt{4} = 2"


def test_a_scale_not_of_the_form_one_over_root() -> None:
    result = scaled_dot_product_attention(Q, K, V, scale=Surd(Fraction(0), Fraction(-1, 3), 2))
    part = doc_for(result).parts[0]
    assert [m.key for m in part.scaling] == ["scale_given_plain"] and part.scaling_math == ""


SCALED = 'schema = 1\ntokens = ["a", "b"]\n{extra}\n[inputs]\nQ = [[1, 2], [3, 4]]\nK = [[1, 2], [0, 1]]\nV = [[10, 20], [30, 40]]\n'


@pytest.mark.parametrize(("scale", "d"), [('"1/2"', "4"), ("0.125", "64")])
def test_a_spec_scale_says_what_it_is_and_that_no_dk_is_stated(scale: str, d: str) -> None:
    from symattn.present.document import meta_from_spec

    spec = loads_spec(SCALED.format(extra=f"scale = {scale}"))
    doc = build_document(spec.run(), meta_from_spec(spec), DocOptions())
    (sentence,) = doc.parts[0].scaling
    assert sentence.key == "scale_given_dk"
    assert sentence.params["d"].content == f"d_k = {d}"  # type: ignore[union-attr]
    text = render_markdown(doc)
    assert "states no $d_k$" in text and f"$d_k = {d}$" in text


def test_a_spec_scale_with_a_stated_dk_says_which_is_used() -> None:
    from symattn.present.document import meta_from_spec

    spec = loads_spec(SCALED.format(extra='d_k = 2\nscale = "1/3"'))
    doc = build_document(spec.run(), meta_from_spec(spec), DocOptions())
    assert [m.key for m in doc.parts[0].scaling] == ["scale_overrides"]


def test_scores_and_scaled_scores_given() -> None:
    part = doc_for(attention_from_scores([[1, 2]], [[1, 0], [0, 1]], d_k=4)).parts[0]
    assert [m.key for m in part.scaling] == ["dk_stated_only"] or [m.key for m in part.scaling] == [
        "scale_given_dk"
    ]
    part = doc_for(attention_from_scores([[1, 2]], [[1, 0], [0, 1]], scaled=True)).parts[0]
    assert [m.key for m in part.scaling] == ["scaled_given"] and part.scaling_math == ""


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
    part = doc_for(scaled_dot_product_attention(Q, K, V, **kwargs)).parts[0]
    assert [m.key for m in part.mask] == ([key] if key else [])
    assert key is None or key in MASKS.values()
