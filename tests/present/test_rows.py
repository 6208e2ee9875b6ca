"""Tests of symattn.present.rows: the worked computation of one query row."""

from __future__ import annotations

import re

import pytest

from symattn import scaled_dot_product_attention
from symattn.present.document import DocMeta, DocOptions, build_document

from .examples import SEEDS, doc_of


@pytest.mark.parametrize("seed", SEEDS)
def test_rendered_numbers_come_from_the_model(seed: str) -> None:
    doc = doc_of(seed)
    shown = {s.text for s in doc.numbers}
    for row in doc.rows:
        for line in row.exps + row.weights + row.outputs + (row.exp_sum,):
            for approx in re.findall(r"\\approx (-?\d+\.\d{4})\b", line.math):
                assert approx in shown, (approx, line.math)


def test_weighted_sum_uses_exact_weights() -> None:
    # w1*10 with the exact w1 = 0.892958.. is 8.9296, not 0.8930*10 = 8.9300
    doc = doc_of("thinking_machines")
    assert "8.9296" in doc.rows[0].outputs[0].math


@pytest.mark.parametrize("causal", [True, False])
def test_causal_mask_is_explained(causal: bool) -> None:
    result = scaled_dot_product_attention(
        [[1, 0], [0, 1]],
        [[1, 0], [0, 1]],
        [[1, 2], [3, 4]],
        is_causal=causal,
        query_labels=["a", "b"],
        key_labels=["a", "b"],
    )
    doc = build_document(result, DocMeta(), DocOptions())
    first = doc.rows[0]
    assert (tuple(m.key for m in doc.mask) == ("mask_causal",)) is causal
    assert ("masked_key" in [m.key for m in first.masking]) is causal
    assert (first.weights[1].math == "w_{2} = 0") is causal


def test_a_fully_masked_row_has_zero_weights_and_output() -> None:
    result = scaled_dot_product_attention(
        [[1, 0], [0, 1]],
        [[1, 0], [0, 1]],
        [[1, 2], [3, 4]],
        attn_mask=[[False, False], [True, True]],
        query_labels=["a", "b"],
        key_labels=["a", "b"],
    )
    first, second = build_document(result, DocMeta(), DocOptions()).rows
    assert first.fully_masked and not second.fully_masked
    assert [m.key for m in first.masking] == ["masked_key", "masked_key", "fully_masked"]
    assert first.exp_sum is None and first.weights == () and first.outputs == ()
    assert first.output_vector == r"o_{1} = \left[0,\ 0\right]"
    assert [m.key for m in first.interpretation] == ["fully_masked_output"]
    assert all(line.math.endswith("= 0") for line in first.exps)


def test_an_additive_mask_changes_the_exponent() -> None:
    result = scaled_dot_product_attention(
        [[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]], attn_mask=[[0, -1]], scale=1
    )
    row = build_document(result, DocMeta(), DocOptions()).rows[0]
    assert [m.key for m in row.masking] == ["added_mask"]
    assert row.exps[1].math.startswith("e^{s_{2}} = e^{-1}")
