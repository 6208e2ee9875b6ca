"""Tests of symattn.present.rows: the worked computation of one query row."""

from __future__ import annotations

import re

import pytest

from symattn import attention_from_scores, scaled_dot_product_attention
from symattn.present.model import Detail

from .examples import KINDS, SEEDS, all_lines, doc_for, doc_of, relations, rows, step_text


@pytest.mark.parametrize("name", SEEDS + KINDS)
def test_rendered_numbers_come_from_the_model(name: str) -> None:
    doc = doc_of(name)
    shown = {s.text for s in doc.numbers}
    for line in all_lines(doc):
        for approx in re.findall(r"\\approx (-?\d+\.\d{4})\b", line.math):
            assert approx in shown, (approx, line.math)


@pytest.mark.parametrize("name", SEEDS + KINDS)
@pytest.mark.parametrize("exact", [False, True])
def test_no_chain_states_an_equality_after_an_approximation(name: str, exact: bool) -> None:
    for line in all_lines(doc_of(name, exact=exact)):
        rels = relations(line.math)
        if "~" in rels:
            assert "=" not in rels[rels.index("~") :], line.math


@pytest.mark.parametrize("name", SEEDS + KINDS)
def test_no_value_is_written_twice(name: str) -> None:
    for line in all_lines(doc_of(name)):
        assert not re.search(r"(= |\\approx )(-?[\d.]+) (=|\\approx) \2(?![\d.])", line.math), (
            line.math
        )


def test_steps_are_numbered_from_one_as_they_appear() -> None:
    (row,) = rows(doc_of("thinking_machines"))
    assert [s.slot for s in row.steps] == ["dots", "scaling", "exps", "weights", "outputs"]
    assert [s.heading.params["n"].content for s in row.steps] == ["1", "2", "3", "4", "5"]  # type: ignore[union-attr]
    r = attention_from_scores([[1, 2]], [[1, 0], [0, 1]], d_k=4)
    (row,) = rows(doc_for(r))
    assert [s.slot for s in row.steps] == ["scaling", "exps", "weights", "outputs"]


def test_weighted_sum_uses_exact_weights() -> None:
    # w1*10 with the exact w1 = 0.892958.. is 8.9296, not 0.8930*10 = 8.9300
    (row,) = rows(doc_of("thinking_machines"))
    assert "8.9296" in step_text(row, "outputs")


def test_exact_option_writes_exact_forms_in_token_order_before_roundings() -> None:
    (row,) = rows(doc_of("thinking_machines", exact=True))
    z = next(line.math for line in row.step("exps").lines if line.at == ("sum", 0))  # type: ignore[union-attr]
    assert r"= \exp\left(\frac{5\sqrt{2}}{2}\right) + e^{\sqrt{2}} \approx 34.3133 + 4.1133" in z
    w = row.step("weights").lines[0].math  # type: ignore[union-attr]
    assert (
        r"= \frac{\exp\left(\frac{5\sqrt{2}}{2}\right)}{\exp\left(\frac{5\sqrt{2}}{2}\right) + e^{\sqrt{2}}} \approx"
        in w
    )


def test_causal_rows_see_only_earlier_keys() -> None:
    first, second, third, _ = rows(doc_of("causal_four_tokens"))
    assert [s.slot for s in first.steps] == ["dots", "scaling", "weights", "outputs"]
    assert [m.key for m in first.step("dots").intro] == ["dot_intro", "masked_keys"]  # type: ignore[union-attr]
    assert [m.key for m in first.step("weights").intro] == ["only_visible"]  # type: ignore[union-attr]
    assert first.step("outputs").lines[0].math == r"o_{1} = v_{1} = \left[1,\ 2\right]"  # type: ignore[union-attr]
    assert first.interpretation == ()
    dots = step_text(second, "dots")
    assert r"q_{2} \cdot k_{1}" in dots and r"k_{3}" not in dots
    assert r"s_{2} \approx \left[0,\ 0.7071,\ -\infty,\ -\infty\right]" in step_text(
        second, "scaling"
    )
    assert "Z_{3} = e^{s_{3,1}} + e^{s_{3,2}} + e^{s_{3,3}}" in step_text(third, "exps")
    assert [m.key for m in third.step("exps").after] == ["exp_masked"]  # type: ignore[union-attr]


def test_a_fully_masked_row_has_zero_output() -> None:
    result = scaled_dot_product_attention(
        [[1, 0], [0, 1]],
        [[1, 0], [0, 1]],
        [[1, 2], [3, 4]],
        attn_mask=[[False, False], [True, True]],
        query_labels=["a", "b"],
        key_labels=["a", "b"],
    )
    first, second = rows(doc_for(result))
    assert first.fully_masked and not second.fully_masked
    assert [s.slot for s in first.steps] == ["dots", "scaling", "outputs"]
    assert [m.key for m in first.step("outputs").intro] == ["fully_masked", "fully_masked_output"]  # type: ignore[union-attr]
    assert step_text(first, "outputs") == r"o_{1} = \left[0,\ 0\right]"


def test_an_additive_mask_is_added_in_the_scaling() -> None:
    result = scaled_dot_product_attention(
        [[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]], attn_mask=[[0, -1]], scale=1
    )
    (row,) = rows(doc_for(result))
    assert [m.key for m in row.step("scaling").after] == ["added_mask"]  # type: ignore[union-attr]
    assert r"s_{1,2} = 0 + (-1) = -1" in step_text(row, "scaling")
    assert "e^{s_{1,2}} = e^{-1}" in step_text(row, "exps")


def test_equal_scores_give_exact_weights_and_exact_products() -> None:
    result = scaled_dot_product_attention([[1, 1]], [[1, 0], [0, 1]], [[2, 0], [0, 4]])
    (row,) = rows(doc_for(result))
    assert r"w_{1} = \left[0.5,\ 0.5\right]" in step_text(row, "weights")
    outputs = row.step("outputs")
    assert outputs is not None and [m.key for m in outputs.intro] == ["output_intro_exact"]
    assert (
        "o_{1,1} = w_{1,1} \\times 2 + w_{1,2} \\times 0 = 0.5 \\times 2 + 0.5 \\times 0 = 1 + 0 = 1"
        in step_text(row, "outputs")
    )
    assert [m.key for m in row.interpretation] == ["interp_uniform"]


def test_scaled_scores_given_start_with_the_mask_or_the_exponentials() -> None:
    r = attention_from_scores([[1, 2], [0, 0]], [[1, 0], [0, 1]], scaled=True, is_causal=True)
    first, second = rows(doc_for(r))
    assert [s.slot for s in first.steps] == ["masking", "weights", "outputs"]
    assert [s.slot for s in second.steps] == ["exps", "weights", "outputs"]


def test_a_masked_key_is_said_once_per_row() -> None:
    row = rows(doc_of("tokenizer_names"))[0]
    said = [m.key for st in row.steps for m in (*st.intro, *st.after) if m.key == "masked_keys"]
    assert said == ["masked_keys"]


def test_a_detail_compact_document_has_no_worked_rows() -> None:
    doc = doc_of("two_heads", detail=Detail.COMPACT)
    assert rows(doc) == [] and all(not p.projections for p in doc.parts)
    assert any(p.projection_lines for p in doc.parts) and any(p.matrices for p in doc.parts)
