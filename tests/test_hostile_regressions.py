"""Inputs the fuzzers in ``fuzz/`` found that once crashed symattn, kept as regression tests.

Each case names the target that found it. Crash = an exception that is not a SymattnError.
"""

from __future__ import annotations

import pytest

from symattn.cli.main import main
from symattn.errors import SymattnError
from symattn.spec import loads_spec

from .conftest import EXAMPLES

# fuzz_spec, first run: Decimal("333.3E333333333333333333333333") raised decimal.InvalidOperation
# from inside json.loads / tomllib.loads (parse_float=Decimal).
SPEC_CRASHES = [
    (
        "json",
        '{"tokens": ["a", "b"], "d_k": 2, "inputs": {"Q": [[333.3E333333333333333333333333.333333333]]}}',
    ),
    ("json", '{"d_k": 1E3333333333333333333333333}'),
    ("json", '{"d_k": -1e-3333333333333333333333333}'),
    ("toml", "d_k = 1E3333333333333333333333333"),
    ("toml", "[inputs]\nQ = [[1e-99999999999999999999999]]"),
]


@pytest.mark.parametrize("fmt,text", SPEC_CRASHES)
def test_spec_crashes(fmt: str, text: str) -> None:
    with pytest.raises(SymattnError, match="max_decimal_exponent|syntax"):
        loads_spec(text, fmt=fmt)


# test_hostile_limits, while writing it: with max_literal_length raised above 4300, int() of
# the digits raised Python's bare ValueError (int_max_str_digits) instead of a LimitError.
@pytest.mark.parametrize(
    "text", ["1" * 5000, "1" * 4400 + "/3", "3/" + "7" * 4400, "0." + "5" * 4400]
)
def test_long_literal_with_raised_limit(text: str) -> None:
    from symattn.config import Limits
    from symattn.errors import LimitError
    from symattn.numbers import parse_number

    with pytest.raises(LimitError, match="int_max_str_digits"):
        parse_number(text, limits=Limits(max_literal_length=10_000))


# fuzz_render: control characters and a trailing newline in notes; the JSON document trims
# surrounding whitespace (by design), the LaTeX and Markdown drop control characters. Since
# issue 15 a spec refuses control characters in its text fields (row 13); a document built
# from the API with such notes still never carries them into LaTeX or Markdown.
def test_render_control_characters_in_notes() -> None:
    import dataclasses
    import json

    from symattn.present.document import DocOptions, build_document, meta_from_spec
    from symattn.present.render import render_json, render_latex, render_markdown

    notes = "x\x03e\nm\x03e'\n"
    data = {
        "notes": notes,
        "tokens": ["x", "x\u2063"],
        "inputs": {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]},
    }
    with pytest.raises(SymattnError, match="notes: contains the control character U\\+0003"):
        loads_spec(json.dumps(data), fmt="json")
    spec = dataclasses.replace(
        loads_spec(json.dumps({**data, "notes": ""}), fmt="json"), notes=notes
    )
    doc = build_document(spec.run(), meta_from_spec(spec), DocOptions())
    assert json.loads(render_json(doc))["notes"] == notes.strip()
    for text in (render_latex(doc), render_markdown(doc)):
        assert "\x03" not in text


# issue 24 row 19: `check` named entry 0 of the weights `weights[1]`, while input errors and
# docs/spec.md count from 0. Every index in a message now counts from 0.
def test_issue24_row19_check_names_entries_from_0(capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(EXAMPLES / "animal_street.toml")
    main(["check", spec, "--lang", "en"])
    out = capsys.readouterr().out
    assert " output[它,0] claimed 0.031," in out  # the first output component
    assert "output[它,2]" not in out  # (the output is 2 wide: entries 0 and 1)
