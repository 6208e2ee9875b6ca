"""Tests of symattn.present.document: the worked-example model as a whole."""

from __future__ import annotations

from dataclasses import replace

import pytest

from symattn.config import Limits
from symattn.errors import InputError
from symattn.present.document import build_document, meta_from_spec
from symattn.spec import load_spec

from ..conftest import EXAMPLES
from .examples import doc_of


def test_thinking_machines_uses_stated_dk() -> None:
    doc = doc_of("thinking_machines")
    assert doc.scaling_math == r"\sqrt{d_k} = \sqrt{2} \approx 1.4142"
    row = doc.rows[0]
    assert row.dots[0].math.endswith("= 1 \\times 1 + 2 \\times 2 = 1 + 4 = 5")
    assert row.scaling[0].math == r"s_{1} = \frac{5}{\sqrt{2}} = \frac{5\sqrt{2}}{2} \approx 3.5355"
    assert row.output_vector == r"o_{1} = \left[12.1408,\ 22.1408\right]"
    assert [m.key for m in row.interpretation][:2] == ["interp_top", "interp_up"]
    assert row.interpretation[0].params["keys"][0].content == "Thinking"


def test_query_selection_and_unknown_query() -> None:
    doc = doc_of("animal_street", queries=("动物",))
    assert [r.token for r in doc.rows] == ["动物"]
    with pytest.raises(InputError, match="no such query token"):
        doc_of("animal_street", queries=("猫",))


def test_too_many_pairs_suggests_query() -> None:
    with pytest.raises(InputError, match="--query"):
        doc_of(
            "animal_street", queries=("动物", "马路", "它"), limits=Limits(max_explained_pairs=8)
        )


def test_exact_option_adds_symbolic_forms() -> None:
    doc = doc_of("thinking_machines", exact=True)
    assert r"\frac{e^{\frac{5 \sqrt{2}}{2}}}" in doc.rows[0].weights[0].math


def test_digits_out_of_range() -> None:
    with pytest.raises(InputError, match="--digits"):
        doc_of("thinking_machines", digits=99)


def test_meta_lang_is_kept() -> None:
    spec = load_spec(EXAMPLES / "thinking_machines.toml")
    doc = build_document(spec.run(), replace(meta_from_spec(spec), lang="en"))
    assert doc.lang == "en"
