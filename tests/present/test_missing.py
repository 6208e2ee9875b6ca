"""Tests of symattn.present.missing: the "cannot compute" document."""

from __future__ import annotations

from symattn.numbers.written import parse_number
from symattn.present.document import DocMeta, build_document, meta_from_spec
from symattn.present.missing import (
    ROW_CLAIM_SYMBOLS,
    SUM_CLAIM,
    claim_number,
    missing_sentences,
    unverifiable,
)
from symattn.present.model import Seg
from symattn.spec import load_spec
from symattn.stages import ROW_STAGES

from ..conftest import EXAMPLES


def test_missing_inputs_document() -> None:
    spec = load_spec(EXAMPLES / "fruit_dictionary.toml")
    doc = build_document(None, meta_from_spec(spec))
    assert not doc.computable and not doc.parts and not doc.numbers
    assert [s.content for s in doc.missing[1].params["names"]] == ["Q", "K", "V"]
    assert any(line.math == r"w = \left[0.79,\ 0.17,\ 0.04\right]" for line in doc.unverifiable)


def test_every_row_stage_has_a_symbol_or_is_the_sum() -> None:
    stages = [s.claim for s in ROW_STAGES]
    assert SUM_CLAIM in stages
    assert list(ROW_CLAIM_SYMBOLS) == [c for c in stages if c != SUM_CLAIM]


def test_claim_number_keeps_plain_decimals_as_written() -> None:
    assert claim_number(None) == "?"
    assert claim_number(parse_number("0.340")) == "0.340"
    assert claim_number(parse_number("1/3")) == r"\frac{1}{3}"


def test_missing_sentences_name_the_inputs_as_symbols() -> None:
    (_, names, _) = missing_sentences(DocMeta(missing=("X", "W_Q")))
    assert names.params["names"] == (Seg("math", "X"), Seg("math", "W^{Q}"))


def test_no_claims_no_lines() -> None:
    assert unverifiable(None) == ()
