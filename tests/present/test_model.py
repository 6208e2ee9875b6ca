"""Tests of symattn.present.model: the records of a document."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from symattn.errors import InputError
from symattn.present.model import DocMeta, Msg, Seg, math_seg, meta_from_spec, msg, token_seg
from symattn.spec import load_spec

from ..conftest import EXAMPLES


def test_msg_takes_only_listed_keys() -> None:
    assert msg("row_heading", token=token_seg("a")).params["token"] == Seg("token", "a")
    with pytest.raises(InputError, match="not listed in symattn.present.keys"):
        msg("no_such_sentence")
    with pytest.raises(InputError, match="not listed"):
        Msg("errata_" + "wrong_valu")


def test_msg_params_are_read_only_and_compare_by_value() -> None:
    a = Msg("rounding", {"digits": math_seg("4")})
    assert isinstance(a.params, MappingProxyType)
    assert a == msg("rounding", digits=math_seg("4"))


def test_meta_from_spec() -> None:
    spec = load_spec(EXAMPLES / "thinking_machines.toml")
    meta = meta_from_spec(spec)
    assert meta.title == "Thinking Machines" and meta.lang == "zh" and meta.d_k_stated == 2
    assert meta.tokens == ("Thinking", "Machines") and meta.query_tokens == ("Thinking",)
    assert meta.missing == () and meta.spec is spec and meta.claims is spec.claims


def test_meta_of_a_spec_with_missing_inputs() -> None:
    meta = meta_from_spec(load_spec(EXAMPLES / "fruit_dictionary.toml"))
    assert meta.missing == ("Q", "K", "V")
    assert DocMeta().spec is None
