"""Tests of symattn.document: the worked-example model, its numbers and its decisions."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest

from symattn import scaled_dot_product_attention
from symattn.config import Limits
from symattn.errors import InputError
from symattn.exact import Surd
from symattn.numbers.rounding import round_decimals
from symattn.present.certified import certified_round
from symattn.present.document import (
    DocMeta,
    DocOptions,
    Document,
    build_document,
    meta_from_spec,
)
from symattn.present.numbers import rational_latex, short_surd_latex
from symattn.spec import load_spec

from ..conftest import EXAMPLES

SEEDS = ("thinking_machines", "animal_street")


def _doc(seed: str, **kw: object) -> Document:
    spec = load_spec(EXAMPLES / f"{seed}.toml")
    return build_document(spec.run(), meta_from_spec(spec), DocOptions(**kw))


@pytest.mark.parametrize(
    ("value", "latex"),
    [
        (Fraction(5), "5"),
        (Fraction(5, 2), "2.5"),
        (Fraction(-7, 20), "-0.35"),
        (Fraction(1, 3), r"\frac{1}{3}"),
        (Fraction(-2, 7), r"-\frac{2}{7}"),
    ],
)
def test_rational_latex(value: Fraction, latex: str) -> None:
    assert rational_latex(value) == latex


@pytest.mark.parametrize(
    ("surd", "latex"),
    [
        (Surd(Fraction(0), Fraction(1), 2), r"\sqrt{2}"),
        (Surd(Fraction(0), Fraction(5, 2), 2), r"\frac{5\sqrt{2}}{2}"),
        (Surd(Fraction(0), Fraction(-1, 2), 3), r"-\frac{\sqrt{3}}{2}"),
        (Surd(Fraction(0), Fraction(2593, 40000), 2), None),
        (Surd(Fraction(5, 2)), "2.5"),
    ],
)
def test_short_surd_latex(surd: Surd, latex: str | None) -> None:
    assert short_surd_latex(surd) == latex


def test_thinking_machines_uses_stated_dk() -> None:
    doc = _doc("thinking_machines")
    assert doc.scaling_math == r"\sqrt{d_k} = \sqrt{2} \approx 1.4142"
    row = doc.rows[0]
    assert row.dots[0].math.endswith("= 1 \\times 1 + 2 \\times 2 = 1 + 4 = 5")
    assert row.scaling[0].math == r"s_{1} = \frac{5}{\sqrt{2}} = \frac{5\sqrt{2}}{2} \approx 3.5355"
    assert row.output_vector == r"o_{1} = \left[12.1408,\ 22.1408\right]"
    assert [m.key for m in row.interpretation][:2] == ["interp_top", "interp_up"]
    assert row.interpretation[0].params["keys"][0].content == "Thinking"


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


@pytest.mark.parametrize("seed", SEEDS)
def test_rendered_numbers_come_from_the_model(seed: str) -> None:
    doc = _doc(seed)
    shown = {s.text for s in doc.numbers}
    for row in doc.rows:
        for line in row.exps + row.weights + row.outputs + (row.exp_sum,):
            for approx in re.findall(r"\\approx (-?\d+\.\d{4})\b", line.math):
                assert approx in shown, (approx, line.math)


def test_weighted_sum_uses_exact_weights() -> None:
    # w1*10 with the exact w1 = 0.892958.. is 8.9296, not 0.8930*10 = 8.9300
    doc = _doc("thinking_machines")
    assert "8.9296" in doc.rows[0].outputs[0].math


def test_query_selection_and_unknown_query() -> None:
    doc = _doc("animal_street", queries=("动物",))
    assert [r.token for r in doc.rows] == ["动物"]
    with pytest.raises(InputError, match="no such query token"):
        _doc("animal_street", queries=("猫",))


def test_too_many_pairs_suggests_query() -> None:
    with pytest.raises(InputError, match="--query"):
        _doc("animal_street", queries=("动物", "马路", "它"), limits=Limits(max_explained_pairs=8))


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


def test_uniform_weights_are_exact() -> None:
    result = scaled_dot_product_attention([[1, 1]], [[1, 0], [0, 1]], [[2, 0], [0, 4]])
    doc = build_document(result, DocMeta(), DocOptions())
    row = doc.rows[0]
    assert row.weight_vector == r"w = \left[0.5,\ 0.5\right]"
    assert row.output_vector == r"o_{1} = \left[1,\ 2\right]"
    assert [m.key for m in row.interpretation] == ["interp_uniform"]


def test_missing_inputs_document() -> None:
    spec = load_spec(EXAMPLES / "fruit_dictionary.toml")
    doc = build_document(None, meta_from_spec(spec))
    assert not doc.computable and not doc.rows and not doc.numbers
    assert [s.content for s in doc.missing[1].params["names"]] == ["Q", "K", "V"]
    assert any(line.math == r"w = \left[0.79,\ 0.17,\ 0.04\right]" for line in doc.unverifiable)


def test_exact_option_adds_symbolic_forms() -> None:
    doc = _doc("thinking_machines", exact=True)
    assert r"\frac{e^{\frac{5 \sqrt{2}}{2}}}" in doc.rows[0].weights[0].math


def test_certified_round_of_products() -> None:
    result = scaled_dot_product_attention(
        [[1, 2]], [[1, 2], [0, 1]], [[10, 20], [30, 40]], scale=Surd(Fraction(0), Fraction(1, 2), 2)
    )
    got = certified_round(
        result.weights, [((0, 0), Fraction(10)), ((0, 1), Fraction(-3))], 4, Limits()
    )
    assert got == [Decimal("8.9296"), Decimal("-0.3211")]


def test_digits_out_of_range() -> None:
    with pytest.raises(InputError, match="--digits"):
        _doc("thinking_machines", digits=99)


def test_meta_lang_is_kept() -> None:
    spec = load_spec(EXAMPLES / "thinking_machines.toml")
    doc = build_document(spec.run(), replace(meta_from_spec(spec), lang="en"))
    assert doc.lang == "en"


# --------------------------------------------------------------------------- --check


def _notes(doc: Document) -> list[tuple[str, str]]:
    """(where, code) of every callout in the document."""
    out = [("scaling", n.code) for n in doc.scaling_notes] + [
        ("other", n.code) for n in doc.other_notes
    ]
    for tb in doc.tables:
        out += [("table", n.code) for n in tb.notes]
    for r in doc.rows:
        for attr in ("dots", "scaling", "exps", "weights", "outputs"):
            for j, line in enumerate(getattr(r, attr)):
                out += [(f"{attr}[{j}]", n.code) for n in line.notes]
        if r.exp_sum is not None:
            out += [("exp_sum", n.code) for n in r.exp_sum.notes]
        out += [("weight_vector", n.code) for n in r.weight_notes]
    return out


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        (
            "thinking_machines",
            [
                ("scaling", "conflicting-definition"),
                ("scaling", "dk-mismatch"),
                ("exps[1]", "truncated"),
                ("exp_sum", "propagated-rounding"),
            ],
        ),
        (
            "animal_street",
            [
                ("exp_sum", "approximate-constant"),
                ("weights[1]", "precision-mixed"),
                ("outputs[0]", "truncated"),
            ],
        ),
    ],
)
def test_check_places_each_finding_next_to_its_step(
    seed: str, expected: list[tuple[str, str]]
) -> None:
    doc = _doc(seed, digits=4)
    assert _notes(doc) == [] and doc.errata == ()
    spec = load_spec(EXAMPLES / f"{seed}.toml")
    checked = build_document(spec.run(), meta_from_spec(spec), DocOptions(), check=True)
    assert sorted(_notes(checked)) == sorted(expected)
    assert checked.errata[0].key == "errata_intro"


def test_check_frame_note_shows_this_documents_value() -> None:
    spec = load_spec(EXAMPLES / "thinking_machines.toml")
    doc = build_document(spec.run(), meta_from_spec(spec), DocOptions(), check=True)
    note = doc.rows[0].exps[1].notes[0]
    assert [m.key for m in note.body] == ["errata_truncated", "errata_frame"]
    assert note.body[1].params["here"].content == "4.1133"  # type: ignore[union-attr]
    assert note.body[0].params["expected"].content == "2.72"  # type: ignore[union-attr]


def test_check_accepts_a_report_and_needs_a_spec_for_true() -> None:
    from symattn.judge.check import check

    spec = load_spec(EXAMPLES / "animal_street.toml")
    report = check(spec)
    a = build_document(spec.run(), meta_from_spec(spec), DocOptions(), check=report)
    b = build_document(spec.run(), meta_from_spec(spec), DocOptions(), check=True)
    assert a == b
    with pytest.raises(InputError, match="needs the spec"):
        build_document(
            spec.run(), replace(meta_from_spec(spec), spec=None), DocOptions(), check=True
        )


def test_check_on_missing_inputs_says_nothing_can_be_checked() -> None:
    spec = load_spec(EXAMPLES / "fruit_dictionary.toml")
    doc = build_document(None, meta_from_spec(spec), DocOptions(), check=True)
    assert [m.key for m in doc.errata] == ["errata_unchecked"]


@pytest.mark.parametrize(
    ("seed", "tables"),
    [
        ("thinking_machines", ["table_q", "table_kv"]),
        ("animal_street", ["table_x", "table_w", "table_w", "table_w", "table_qkv_x"]),
    ],
)
def test_queries_given_apart_get_their_own_table(seed: str, tables: list[str]) -> None:
    doc = _doc(seed)
    assert [t.caption.key for t in doc.tables] == tables
    names = [
        row[0].content
        for t in doc.tables
        for row in t.rows
        if t.caption.key in ("table_q", "table_kv")
    ]
    assert names == (["Thinking", "Thinking", "Machines"] if seed == "thinking_machines" else [])
