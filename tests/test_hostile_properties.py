"""Hypothesis properties on hostile text: the parsers raise only SymattnError, and parsed
numbers round-trip (the same checks the atheris targets in ``fuzz/`` make, run on every CI)."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.errors import SymattnError
from symattn.numbers import parse_number, to_exact_array
from symattn.read.audit import audit
from symattn.spec import loads_spec

NUMBERISH = st.text(alphabet="0123456789.eE+-/ _,'½１２−∞infa√", max_size=30)


@given(st.one_of(NUMBERISH, st.text(max_size=30)))
@settings(max_examples=400, deadline=None)
def test_parse_number_only_symattn_errors_and_round_trips(text: str) -> None:
    try:
        w = parse_number(text)
    except SymattnError:
        return
    assert isinstance(w.value, Fraction)
    assert parse_number(w.text).value == w.value
    assert parse_number(f"{w.value.numerator}/{w.value.denominator}").value == w.value


@given(
    st.decimals(allow_nan=False, allow_infinity=False, places=None).filter(
        lambda d: abs(d.adjusted()) < 300
    )
)
@settings(max_examples=200, deadline=None)
def test_decimal_text_round_trips(d: Decimal) -> None:
    assert parse_number(format(d, "f") if abs(d.adjusted()) < 100 else str(d)).value == Fraction(d)


NESTED = st.recursive(
    st.one_of(st.integers(), st.floats(), st.text(max_size=8), st.booleans(), st.none()),
    lambda c: st.lists(c, max_size=4),
    max_leaves=30,
)


@given(NESTED)
@settings(max_examples=300, deadline=None)
def test_to_exact_array_only_symattn_errors(data: object) -> None:
    try:
        arr = to_exact_array(data)
    except SymattnError:
        return
    assert all(isinstance(x, Fraction) for x in arr.flat)


JSONISH = st.recursive(
    st.one_of(st.integers(), st.floats(allow_nan=False), st.text(max_size=8), st.booleans()),
    lambda c: st.one_of(
        st.lists(c, max_size=3),
        st.dictionaries(
            st.sampled_from(
                ["tokens", "inputs", "Q", "K", "V", "claims", "d_k", "title", "mask", "rows", "x"]
            ),
            c,
            max_size=4,
        ),
    ),
    max_leaves=20,
)


@given(JSONISH)
@settings(max_examples=300, deadline=None)
def test_loads_spec_only_symattn_errors(data: object) -> None:
    for fmt, text in (("json", json.dumps(data)), ("toml", str(data))):
        try:
            spec = loads_spec(text, fmt=fmt)
        except SymattnError:
            continue
        if spec.computable:
            try:
                spec.run()
            except SymattnError:
                pass


@given(
    st.lists(
        st.sampled_from(
            list("0123456789.=≈+-*/^()[]{}$\\ ,eqkvsd_ \n")
            + ["\\frac", "\\sqrt", "\\times", "softmax", "e^", "$$"]
        ),
        max_size=80,
    ).map("".join)
)
@settings(max_examples=300, deadline=None)
def test_audit_never_raises_on_mathy_text(text: str) -> None:
    report = audit(text)
    assert all(f.line >= 1 for f in report.findings)
