"""Tests of symattn.present.document: the worked-example model as a whole."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from symattn import scaled_dot_product_attention
from symattn.config import Limits
from symattn.errors import InputError
from symattn.present.document import FORMULA_MASK, build_document, meta_from_spec
from symattn.spec import load_spec

from ..conftest import EXAMPLES
from .examples import doc_for, doc_of, rows


def test_thinking_machines_uses_stated_dk() -> None:
    doc = doc_of("thinking_machines")
    (part,) = doc.parts
    assert part.heading is None and part.depth == 0
    assert part.scaling_math == r"\sqrt{d_k} = \sqrt{2} \approx 1.4142"
    (row,) = part.rows
    dots = row.step("dots")
    assert dots is not None
    assert dots.lines[0].math == r"q_{1} \cdot k_{1} = 1 \times 1 + 2 \times 2 = 1 + 4 = 5"
    scaling = row.step("scaling")
    assert scaling is not None
    assert scaling.lines[0].math == (
        r"s_{1,1} = \frac{5}{\sqrt{2}} = \frac{5\sqrt{2}}{2} \approx 3.5355"
    )
    outputs = row.step("outputs")
    assert outputs is not None and outputs.lines[-1].math == (
        r"o_{1} \approx \left[12.1408,\ 22.1408\right]"
    )
    assert [m.key for m in row.interpretation][:2] == ["interp_top", "interp_up"]
    assert [m.key for m in part.intro] == ["tokens_queries", "intro_qkv"]


@pytest.mark.parametrize(
    ("name", "intro"),
    [
        ("animal_street", "intro_x"),
        ("cross_attention", "intro_cross"),
        ("eight_tokens", "intro_qkv"),
    ],
)
def test_each_start_has_its_introduction(name: str, intro: str) -> None:
    assert doc_of(name).parts[0].intro[-1].key == intro


def test_the_formula_shows_the_mask_and_the_heads() -> None:
    assert doc_of("causal_four_tokens").formula == (FORMULA_MASK,)
    assert len(doc_of("two_heads").formula) == 3


def test_query_selection_and_unknown_query() -> None:
    doc = doc_of("animal_street", queries=("动物",))
    assert [r.token for r in rows(doc)] == ["动物"]
    assert [m.key for m in doc.parts[0].rows_intro] == ["rows_some"]
    with pytest.raises(InputError, match="no such query token"):
        doc_of("animal_street", queries=("猫",))


def test_too_many_rows_asked_for_suggests_query() -> None:
    with pytest.raises(InputError, match="--query"):
        doc_of(
            "animal_street", queries=("动物", "马路", "它"), limits=Limits(max_explained_pairs=8)
        )


def test_a_large_example_works_out_the_rows_that_fit_and_says_so() -> None:
    x = np.arange(60.0).reshape(30, 2) / 60
    doc = doc_for(scaled_dot_product_attention(x, x, x), limits=Limits(max_explained_pairs=90))
    assert [r.index for r in rows(doc)] == [0, 1, 2]
    (sentence,) = doc.parts[0].rows_intro
    assert sentence.key == "rows_limited" and sentence.count == 3
    with pytest.raises(InputError, match="max_explained_pairs"):
        doc_for(scaled_dot_product_attention(x, x, x), limits=Limits(max_explained_pairs=10))


def test_batches_give_one_part_per_item_asked_for() -> None:
    q = np.arange(8.0).reshape(2, 2, 2) / 8
    r = scaled_dot_product_attention(q, q, q)
    doc = doc_for(r)
    assert [p.heading.key for p in doc.parts if p.heading] == ["h_batch_item", "h_batch_item"]
    assert all(p.depth == 1 for p in doc.parts)
    assert doc.parts[1].matrices[-1].math.startswith("O^{[2]} = A^{[2]} V^{[2]}")
    (one,) = doc_for(r, batch=((1,),)).parts
    assert one.heading is not None and one.heading.params["item"].content == "2"  # type: ignore[union-attr]
    with pytest.raises(InputError, match="batch item"):
        doc_for(r, batch=((5,),))


def test_digits_out_of_range() -> None:
    with pytest.raises(InputError, match="--digits"):
        doc_of("thinking_machines", digits=99)


def test_meta_lang_is_kept() -> None:
    spec = load_spec(EXAMPLES / "thinking_machines.toml")
    doc = build_document(spec.run(), replace(meta_from_spec(spec), lang="en"))
    assert doc.lang == "en" and doc.rounding[0].count == 4
