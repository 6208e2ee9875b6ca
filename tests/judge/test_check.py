"""Tests of symattn.judge.check: the seed specs' acceptance findings and each finding code."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.engine import scaled_dot_product_attention
from symattn.judge.check import check
from symattn.numbers.rounding import Rounding
from symattn.present.reports import check_json, check_markdown, check_text, message
from symattn.spec import loads_spec
from tests.judge.common import codes, run, seed

# --------------------------------------------------------------------------- seeds


def test_seed_000_dk_mismatch_and_truncated_only() -> None:
    r = seed("thinking_machines")
    errors = codes(r, "error")
    assert ("dk-mismatch", "2") in errors
    assert [c for c in errors if c[0] == "truncated"] == [("truncated", "2.71")]
    assert set(e[0] for e in errors) <= {"dk-mismatch", "truncated", "conflicting-definition"}
    flagged_error = {f.claimed for f in r.findings if f.severity == "error"}
    for ok in ("12.18", "14.89", "0.82", "0.18", "13.6", "23.6"):
        assert ok not in flagged_error
    mismatch = next(f for f in r.findings if f.code == "dk-mismatch")
    assert mismatch.params["weights"] == "[0.8930, 0.1070]"
    assert mismatch.params["output"] == "[12.1408, 22.1408]"
    assert mismatch.params["author_d_k"] == 4
    assert {"12.18", "0.82", "0.18", "13.6", "23.6"} <= set(mismatch.params["held_author"])  # type: ignore[arg-type]


def test_seed_001() -> None:
    r = seed("animal_street")
    assert codes(r, "error") == [
        ("approximate-constant", "3.3125069954097492"),
        ("truncated", "0.031"),
    ]
    mixed = [f for f in r.findings if f.code == "precision-mixed"]
    assert [(f.claimed, f.severity) for f in mixed] == [("0.34", "warning")]
    ac = next(f for f in r.findings if f.code == "approximate-constant")
    assert ac.params["constant"] == "e ≈ 2.718"
    assert (
        ac.params["computation"]
        == "2.718**0.092 + 2.718**0.119 + 2.718**0.086 = 3.3125069954097492"
    )
    assert str(ac.params["own"]).startswith("3.312541")
    trunc = next(f for f in r.findings if f.code == "truncated")
    assert trunc.exact == "0.031859" and trunc.expected == "0.032"


def test_seed_001_double_precision_fact() -> None:
    assert repr(2.718**0.092 + 2.718**0.119 + 2.718**0.086) == "3.3125069954097492"


def test_seed_004_missing_input_no_error() -> None:
    r = seed("fruit_dictionary")
    assert r.findings and all(
        f.code == "missing-input" and f.severity == "info" for f in r.findings
    )
    assert r.checked == len(r.findings) == 7
    assert not r.has_errors


# --------------------------------------------------------------------------- small specs


@pytest.mark.parametrize(
    ("rows", "code", "claimed", "extra"),
    [
        ("weights = [0.8930, 0.1070]", None, None, {}),
        ("weights = [0.8929, 0.1070]", "truncated", "0.8929", {}),
        ("weights = [0.8390, 0.1070]", "wrong-value", "0.8390", {"cause": "transposed-digits"}),
        ("weights = [0.893, 0.170]", "wrong-value", "0.170", {}),
        ("weights = [0.70, 0.40]", "not-normalized", "0.70 + 0.40", {}),
        ("scores = [5, -2]", "wrong-value", "-2", {"cause": "wrong-sign"}),
        ("scores = [2, 2]", "wrong-value", "2", {"cause": "swapped-operand"}),
        ("weights = [0.893, 0.11]", "precision-mixed", "0.11", {}),
        ('output = ["12.1408", "22.1408"]', None, None, {}),
        ('output = ["12.141", "22.14"]', "precision-mixed", "22.14", {}),
        ('output = ["12.14094", "22.14"]', "wrong-value", "12.14094", {}),
        # misread inputs: reproduced exactly at the written precision, else no cause
        ("output = [9.2507, 22.1408]", "wrong-value", "9.2507", {"cause": "misread-dropped-digit"}),
        ("scores = [5, 3]", "wrong-value", "3", {"cause": "misread-neighbour"}),
        ("scores = [5, 12]", "wrong-value", "12", {"cause": None}),
        ("scores = [5, 1]", "wrong-value", "1", {"cause": "misread-swapped"}),
        ("scores = [5, 22]", "wrong-value", "22", {"cause": "misread-doubled-digit"}),
        ("output = [12.1408, 10.3]", "wrong-value", "10.3", {"cause": None}),
        # rounded roots in the scaling step
        ("scaled = [3.546, 1.418]", "approximate-constant", "1.418", {}),
        ("scaled = [3.54, 1.42]", "approximate-constant", "1.42", {}),
        ("scaled = [3.53557, 1.41423]", "approximate-constant", "1.41423", {}),
    ],
)
def test_codes(rows: str, code: str | None, claimed: str | None, extra: dict[str, str]) -> None:
    r = run(rows, "d_k = 2")
    if code is None:
        assert r.findings == ()
        return
    hits = [f for f in r.findings if f.code == code and f.claimed == claimed]
    assert hits, r.findings
    for k, v in extra.items():
        assert getattr(hits[0], k) == v


@pytest.mark.parametrize(("claimed", "shown"), [("2.71", "exact 2.71828…"), ("4", "exact 2 —")])
def test_text_report_marks_inexact_values(claimed: str, shown: str) -> None:
    text = check_text(seed("thinking_machines"))
    line = next(x for x in text.splitlines() if f"claimed {claimed}," in x)
    assert shown in line


def test_rounding_modes_narrow() -> None:
    assert (
        run(
            "weights = [0.8929, 0.1070]", "d_k = 2", accepted=frozenset({Rounding.TRUNCATE})
        ).findings
        == ()
    )


def test_messages_in_both_languages() -> None:
    r = seed("animal_street")
    for lang in ("en", "zh"):
        for f in r.findings:
            msg = message(f, lang)
            assert "{" not in msg and msg
    assert "截断" in message(next(f for f in r.findings if f.code == "truncated"), "zh")


def test_reports() -> None:
    r = seed("thinking_machines")
    text = check_text(r)
    assert " truncated exp_scores[Thinking,Machines] claimed 2.71, exact 2.71828… " in text
    assert text.rstrip().endswith("13 claim(s): 13 judged. Errors: 3. Warnings: 1. Notes: 0.")
    data = check_json(r)["specs"][0]
    assert data["checked"] == 13
    assert set(data["findings"][0]) == {
        "code",
        "severity",
        "line",
        "column",
        "step",
        "position",
        "claimed",
        "exact",
        "exact_rounded",
        "exact_frame",
        "expected",
        "message",
        "alternatives",
    }
    md = check_markdown(r, "zh", "T*")
    assert "勘误表" in md and "T\\*" in md


@pytest.mark.parametrize(
    ("raw", "safe"), [("a*b", "a\\*b"), ("<x>", "&lt;x&gt;"), ("|", "\\|"), ("a\nb", "a b")]
)
def test_markdown_report_escapes_user_text(raw: str, safe: str) -> None:
    md = check_markdown(seed("thinking_machines"), "en", raw)
    assert f": {safe}\n" in md


# --------------------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(
    q=st.lists(st.integers(-3, 3), min_size=2, max_size=2),
    k=st.lists(st.lists(st.integers(-3, 3), min_size=2, max_size=2), min_size=2, max_size=3),
    places=st.integers(1, 4),
)
def test_correctly_rounded_claims_never_flagged(
    q: list[int], k: list[list[int]], places: int
) -> None:
    n = len(k)
    v = [[i + 1, 2 * i] for i in range(n)]
    r = scaled_dot_product_attention([q], k, v)
    fmt = lambda t, idx: f'"{format(t.round(places, mode=Rounding.HALF_UP)[idx], "f")}"'  # noqa: E731
    weights = ", ".join(fmt(r.weights, (0, j)) for j in range(n))
    exps = ", ".join(fmt(r.exp_scores, (0, j)) for j in range(n))
    output = ", ".join(fmt(r.output, (0, c)) for c in range(2))
    tokens = ", ".join(f'"t{j}"' for j in range(n))
    text = (
        f'title = "p"\ntokens = [{tokens}]\nquery_tokens = ["q"]\n'
        f"[inputs]\nQ = [{q}]\nK = {k}\nV = {v}\n"
        f"[claims.rows.q]\nexp = [{exps}]\nsum = {fmt(r.exp_sums, (0,))}\n"
        f"weights = [{weights}]\noutput = [{output}]\n"
    )
    report = check(loads_spec(text, name="p.toml"))
    assert [f for f in report.findings if f.severity != "warning"] == []


@settings(max_examples=25, deadline=None)
@given(s=st.integers(-4, 4), places=st.integers(1, 4))
def test_truncated_weight_reported_as_truncated(s: int, places: int) -> None:
    r = scaled_dot_product_attention(
        [[1, 0]], [[s, 0], [0, 0]], [[1, 0], [0, 1]], scale=Fraction(1)
    )
    w = r.weights.exact()  # noqa: F841 - exact values exist
    t = r.weights.round(places, mode=Rounding.TRUNCATE)[0, 0]
    h = r.weights.round(places, mode=Rounding.HALF_UP)[0, 0]
    text = (
        f'title = "p"\ntokens = ["a", "b"]\nquery_tokens = ["q"]\nscale = 1\n'
        f"[inputs]\nQ = [[1, 0]]\nK = [[{s}, 0], [0, 0]]\nV = [[1, 0], [0, 1]]\n"
        f'[claims.rows.q]\nweights = ["{format(t, "f")}", 0]\n'
    )
    report = check(loads_spec(text, name="p.toml"))
    hit = [f for f in report.findings if f.step == "weights" and f.position[1:] == ("a",)]
    if t == h or s == 0:
        assert not [f for f in hit if f.severity == "error"]
    else:
        assert [f.code for f in hit] == ["truncated"]
