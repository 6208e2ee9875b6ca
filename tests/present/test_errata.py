"""Tests of symattn.present.errata: each finding of a check next to the step it concerns."""

from __future__ import annotations

from dataclasses import replace

import pytest

from symattn.errors import InputError
from symattn.judge.check import check
from symattn.present.document import DocOptions, Document, build_document, meta_from_spec
from symattn.present.errata import number_seg, param_seg
from symattn.present.model import Seg
from symattn.present.render import render_markdown
from symattn.spec import load_spec, loads_spec

from ..conftest import EXAMPLES
from .examples import doc_of


def _notes(doc: Document) -> list[tuple[str, str]]:
    """(where, code) of every callout in the document."""
    out = [("other", n.code) for n in doc.other_notes]
    for part in doc.parts:
        out += [("scaling", n.code) for n in part.scaling_notes]
        for line in part.data + part.projection_lines:
            out += [("data", n.code) for n in line.notes]
        for r in part.rows:
            for st in r.steps:
                for line in st.lines:
                    where = (
                        f"{st.slot}[{line.at[1]}]" if line.at and line.at[0] != "sum" else st.slot
                    )
                    out += [(where if line.at else f"{st.slot}:vector", n.code) for n in line.notes]
                out += [(f"{st.slot}:step", n.code) for n in st.notes]
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
                ("exps", "propagated-rounding"),
            ],
        ),
        (
            "animal_street",
            [
                ("exps", "approximate-constant"),
                ("weights[1]", "precision-mixed"),
                ("outputs[0]", "truncated"),
            ],
        ),
    ],
)
def test_check_places_each_finding_next_to_its_step(
    seed: str, expected: list[tuple[str, str]]
) -> None:
    doc = doc_of(seed, digits=4)
    assert _notes(doc) == [] and doc.errata == ()
    spec = load_spec(EXAMPLES / f"{seed}.toml")
    checked = build_document(spec.run(), meta_from_spec(spec), DocOptions(), check=True)
    assert sorted(_notes(checked)) == sorted(expected)
    assert checked.errata[0].key == "errata_intro"


def test_check_frame_note_shows_this_documents_value() -> None:
    spec = load_spec(EXAMPLES / "thinking_machines.toml")
    doc = build_document(spec.run(), meta_from_spec(spec), DocOptions(), check=True)
    exps = doc.parts[0].rows[0].step("exps")
    assert exps is not None
    note = exps.lines[1].notes[0]
    assert [m.key for m in note.body] == ["errata_truncated", "errata_frame"]
    assert note.body[1].params["here"].content == "4.1133"  # type: ignore[union-attr]  # one Seg, not a list
    assert note.body[0].params["expected"].content == "2.72"  # type: ignore[union-attr]  # one Seg, not a list


def test_check_accepts_a_report_and_needs_a_spec_for_true() -> None:
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
    ("text", "seg"),
    [
        ("0.82", Seg("math", "0.82")),
        (" -3 ", Seg("math", "-3")),
        ("sqrt(2)", Seg("math", r"\sqrt{2}")),
        ("e^2", Seg("text", "e^2")),
    ],
)
def test_number_seg(text: str, seg: Seg) -> None:
    assert number_seg(text) == seg


def test_param_seg() -> None:
    assert param_seg("symbol", "d_k") == Seg("math", "d_k")
    assert param_seg("values", ["1", "x"]) == (Seg("math", "1"), Seg("text", "x"))
    assert param_seg("values", []) == Seg("text", "—")
    assert param_seg("weights", "[0.5, 0.25]") == Seg("math", r"\left[0.5,\ 0.25\right]")
    assert param_seg("weights", "[a, 1]") == Seg("text", "[a, 1]")


DIVISOR_SPEC = """
schema = 1
tokens = ["a", "b"]
d_k = 2
[inputs]
Q = [[1, 2], [0, 1]]
K = [[1, 2], [0, 1]]
V = [[10, 20], [30, 40]]
[claims]
sqrt_d_k = -2
"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_divisor_with_no_frame_gets_its_erratum(lang: str) -> None:
    spec = loads_spec(DIVISOR_SPEC)
    meta = replace(meta_from_spec(spec), lang=lang)
    doc = build_document(spec.run(), meta, DocOptions(), check=True)
    (note,) = doc.parts[0].scaling_notes
    assert note.code == "dk-mismatch" and note.label.key == "errata_label_error"
    assert [m.key for m in note.body] == ["errata_dk_mismatch_divisor"]
    assert note.body[0].params["root"] == Seg("math", r"\sqrt{2}")
    assert "-2" in render_markdown(doc)


def test_a_finding_message_with_no_erratum_is_an_error() -> None:
    spec = load_spec(EXAMPLES / "thinking_machines.toml")
    report = check(spec)
    f = report.findings[0]
    odd = replace(f, message=replace(f.message, key="no-such-message"))
    with pytest.raises(InputError, match="no message for finding message 'no-such-message'"):
        build_document(
            spec.run(), meta_from_spec(spec), DocOptions(), check=replace(report, findings=(odd,))
        )


def test_check_takes_a_report_or_true_only() -> None:
    spec = load_spec(EXAMPLES / "thinking_machines.toml")
    with pytest.raises(InputError, match="takes a CheckReport or True"):
        build_document(spec.run(), meta_from_spec(spec), DocOptions(), check="yes")  # type: ignore[arg-type]  # the wrong type on purpose
