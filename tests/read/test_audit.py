"""Tests of symattn.read.audit on the seed texts (copies in tests/fixtures/seeds) and clean fixtures."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.errors import InputError, SymattnError
from symattn.present.reports import audit_json, audit_text, message, recognised_json
from symattn.read.audit import AuditReport, audit

FIXTURES = Path(__file__).parents[1] / "fixtures"
SEEDS = FIXTURES / "seeds"
SEED_000 = "000_089920b9c8cb4dc4.txt"
SEED_001 = "001_b0b3fceff32b9228.txt"
SEED_004 = "004_a00461eb897f5725.txt"


def run(name: str) -> AuditReport:
    return audit((SEEDS / name).read_text(encoding="utf-8"), path=name)


def codes(report: AuditReport) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in report.findings]


def test_seed_copies_match_the_shared_folder_when_present() -> None:
    shared = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
    names = sorted(p.name for p in SEEDS.glob("*.txt"))
    assert names == [SEED_000, SEED_001, SEED_004]
    if shared.is_dir():  # the copies are the seeds as they are
        for name in names:
            assert (SEEDS / name).read_bytes() == (shared / name).read_bytes()


def test_seed_000() -> None:
    r = run(SEED_000)
    assert codes(r) == [
        ("conflicting-definition", "d_k = 4"),
        ("dk-mismatch", "2"),
        ("truncated", "2.71"),
        ("propagated-rounding", "14.89"),
    ]
    conflict, mismatch, truncated, propagated = r.findings
    assert conflict.line == 48 and "2 (line 17)" in message(conflict)
    assert "holds only with d_k = 4" in message(conflict)
    assert (truncated.line, truncated.exact, truncated.expected) == (69, "2.71828", "2.72")
    # Level 2: the problem from q_1, k_1 (Thinking), k_2 (Machines), v_1, v_2 with the stated d_k = 2
    assert mismatch.severity == "error" and mismatch.line == 48
    assert "[0.8930, 0.1070]" in message(mismatch) and "[12.1408, 22.1408]" in message(mismatch)
    assert "consistent with d_k = 4" in message(mismatch)
    assert propagated.severity == "warning" and "12.18 + 2.71" in message(propagated)
    assert r.recognised is not None
    assert recognised_json(r.recognised) | {} == {
        "Q": ["Thinking"],
        "K": ["Thinking", "Machines"],
        "V": ["Thinking", "Machines"],
        "source": "vectors",
        "d_k": 2,
        "d_k_from": "stated",
        "claims": r.recognised.claims,
    }
    assert r.checked >= 14 and not r.unparsed


def test_seed_001() -> None:
    r = run(SEED_001)
    assert codes(r) == [
        ("approximate-constant", "3.3125069954097492"),
        ("precision-mixed", "0.34"),
        ("truncated", "0.031"),
    ]
    approx, mixed, truncated = r.findings
    assert approx.cause == "approximate-e-float:2.718"
    assert approx.exact.startswith("3.31254106")
    assert mixed.severity == "warning" and mixed.line == 102
    # the author's own weights give 0.331*0.238 + 0.34*(-0.075) + 0.329*(-0.065) = 0.031893 exactly
    assert (truncated.exact, truncated.expected) == ("0.031893", "0.032")
    # Level 2 rebuilt the problem from the embeddings and WQ/WK/WV, and found the Q/K/V table
    # (exactly x·W) and the weights consistent with it: nothing else was reported
    rec = r.recognised
    assert rec is not None and rec.source == "embeddings"
    assert recognised_json(rec)["X"] == ["动物", "马路", "它"] and recognised_json(rec)["W"] == [
        "W_Q",
        "W_K",
        "W_V",
    ]
    assert (rec.d_k, rec.d_k_stated) == (2, False)
    assert rec.claims >= 18 + 3 + 3  # the table, the scores, the weights
    assert r.checked >= 25  # each number once, though Level 1 and Level 2 both judge many of them


def test_seed_001_product_line_is_a_claim() -> None:
    """``[0.55, ...]*[[1, 0], ...]`` then ``乘积结果=[0.44, -0.35]``: judged (and right)."""
    text = (SEEDS / SEED_001).read_text(encoding="utf-8")
    wrong = text.replace("乘积结果=[0.44, -0.35]", "乘积结果=[0.44, -0.53]")
    r = audit(wrong)
    assert [(f.code, f.claimed, f.line) for f in r.findings if f.line == 77] == [
        ("wrong-value", "-0.53", 77)
    ]


def test_seed_001_accepts_the_dot_products() -> None:
    r = run(SEED_001)
    lines = {f.line for f in r.findings}
    text = (SEEDS / SEED_001).read_text(encoding="utf-8").splitlines()
    for claim in ("0.12965", "0.16835", "0.1217"):
        line = next(i for i, t in enumerate(text, 1) if t.endswith("=" + claim))
        assert line not in lines


def test_seed_004_accuses_nothing() -> None:
    r = run(SEED_004)
    assert not r.has_errors
    assert [(f.code, f.severity) for f in r.findings] == [("missing-input", "info")]
    (missing,) = r.findings
    assert "0.79, 0.17, 0.04" in message(missing) and "[9.68, 42.98]" in message(missing)
    assert r.recognised is None


@pytest.mark.parametrize("name", sorted(p.name for p in (FIXTURES / "audit").glob("clean_*")))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_clean_fixtures_have_no_finding(name: str, lang: str) -> None:
    r = audit((FIXTURES / "audit" / name).read_text(encoding="utf-8"))
    assert audit_text([r], lang)
    assert [f for f in r.findings if f.severity != "info"] == []
    assert r.checked >= 10
    assert r.unparsed == ()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("$e^{1.0} \\approx 2.71$", "truncated"),
        ("$1 + 1 = 3$", "wrong-value"),
        ("$1 + 1 = 1 + 2 = 3$", "wrong-value"),
        ("$12.18 / 14.89 \\approx 0.83$", "wrong-value"),
        ("$d_k = 2$ then $d_k = 4$", "conflicting-definition"),
        ("$e^{0.5} \\approx 1.6486$", "approximate-constant"),  # 2.718^0.5 = 1.64863...
    ],
)
def test_wrong_claims(text: str, code: str) -> None:
    r = audit(text)
    assert code in [f.code for f in r.findings]
    assert r.has_errors


def test_messages_in_chinese() -> None:
    r = run(SEED_000)
    by = {f.code: message(f, "zh") for f in r.findings}
    assert "截断" in by["truncated"]
    assert "按所述 d_k，权重应为 [0.8930, 0.1070]" in by["dk-mismatch"]


def test_unparsed_math_is_listed() -> None:
    r = audit("$$x_7 = \\int_0^1 2 \\, dx$$")
    assert r.findings == () and r.unparsed and r.unparsed[0].line == 1


def test_unknown_language_is_an_input_error() -> None:
    with pytest.raises(InputError):
        audit_text([audit("$1 = 1$")], "fr")


def test_json_shape() -> None:
    data = audit_json([run(SEED_000)])["files"][0]
    assert set(data) >= {"path", "findings", "checked", "unparsed"}
    assert set(data["findings"][0]) == {
        "code",
        "severity",
        "line",
        "column",
        "claimed",
        "exact",
        "expected",
        "message",
        "cause",
    }


@pytest.mark.parametrize(
    ("name", "wrong", "line"),
    [
        ("exercise_en.md", ("wrong-value", "0.769"), 15),
        ("exercise_zh.txt", ("wrong-value", "2"), 19),
    ],
)
def test_level2_flags_exactly_the_wrong_answer_of_an_exercise(
    name: str, wrong: tuple[str, str], line: int
) -> None:
    """Inputs and final answers only, no working: Level 2 computes the problem and finds the one wrong answer."""
    r = audit((FIXTURES / "audit" / name).read_text(encoding="utf-8"))
    assert codes(r) == [wrong]
    assert r.findings[0].line == line
    assert r.recognised is not None and r.recognised.source == "vectors"
    assert len(r.recognised.k) == 3 and r.recognised.claims == 8


EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.mark.parametrize(
    "name",
    [
        "thinking_machines.en.md",
        "thinking_machines.zh.md",
        "thinking_machines.en.tex",
        "thinking_machines.zh.tex",
    ],
)
def test_two_tables_of_explain_are_one_problem(name: str) -> None:
    """``explain`` writes a queries table, then a keys-and-values table: one query, two keys."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    rec = audit(text).recognised
    assert rec is not None and rec.source == "table"
    assert (rec.q, rec.k, rec.v) == (
        ("Thinking",),
        ("Thinking", "Machines"),
        ("Thinking", "Machines"),
    )
    # the keys-and-values table is read: a changed key of Machines makes its score claim wrong
    wrong = text.replace("\\left[0,\\ 1\\right]", "\\left[0,\\ 3\\right]", 1)
    assert wrong != text
    assert audit(wrong).has_errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_latex_tabular_embeddings_are_recognised(lang: str) -> None:
    """LaTeX ``tabular`` rows (``a & b \\\\``, ``\\hline``) give the tokens, not indices."""
    rec = audit((EXAMPLES / f"animal_street.{lang}.tex").read_text(encoding="utf-8")).recognised
    assert rec is not None and rec.source == "embeddings"
    assert rec.x == rec.q == ("动物", "马路", "它")


_INPUTS = "q_1 = [1, 2]\nk_1 (Thinking) = [1, 2]\nk_2 (Machines) = [0, 1]\nv_1 = [10, 20]\nv_2 = [30, 40]\n"


@pytest.mark.parametrize(
    "sentence",
    [
        "We assume that d_k = 4.",
        "The key width is d_k = 4 here.",
        "为了方便计算，假设 d_k = 4。",
        "设维度 $d_k = 4$，便于开方。",
    ],
)
def test_d_k_in_a_prose_sentence_is_the_stated_d_k(sentence: str) -> None:
    rec = audit(sentence + "\n" + _INPUTS).recognised
    assert rec is not None and (rec.d_k, rec.d_k_stated) == (4, True)


@pytest.mark.parametrize(
    ("formula", "wrong"),
    [
        ("$[5, 2] \\div \\sqrt{2} = [3.5355, 1.4142]$", []),
        ("$[5, 3] \\div \\sqrt{2} = [3.5355, 2.1213]$", ["2.1213"]),
        ("[5, 3] / √2 = [3.54, 2.12]", ["2.12"]),
    ],
)
def test_scaled_scores_inside_a_formula_are_claims(formula: str, wrong: list[str]) -> None:
    """``[5, 3] ÷ √2 = [3.5355, 2.1213]`` is right arithmetic, but the scores are [5, 2]: Level 2 says so."""
    r = audit(_INPUTS + formula + "\n")
    assert [(f.claimed, f.line) for f in r.findings] == [(w, 6) for w in wrong]
    assert all(f.cause.startswith("level2:") for f in r.findings)
    assert r.recognised is not None and r.recognised.claims >= 2


@pytest.mark.parametrize(
    ("lines", "wrong"),
    [
        ("  • $w_1$ (对自己): $\\approx 0.89$\n  • $w_2$ (对 Machines): $\\approx 0.11$\n", []),
        ("w_1 = 0.89\nw_2 = 0.28\n", [("0.28", 7)]),
        ("$w_{1} \\approx 0.72$\n$w_{2} \\approx 0.11$\n", [("0.72", 6)]),
    ],
)
def test_single_weights_are_matched_to_their_key(lines: str, wrong: list[tuple[str, int]]) -> None:
    """d_k = 2: the weights are [0.8930, 0.1070]; ``w_2`` is the weight of the second key."""
    r = audit(_INPUTS + lines)
    assert [(f.claimed, f.line) for f in r.findings if f.code != "not-normalized"] == wrong
    assert all(f.line >= 6 for f in r.findings)
    assert r.recognised is not None and r.recognised.claims == 2


@pytest.mark.parametrize(
    "formula",
    [
        "$q_{3} = x_{3} W^{Q}$",
        "$$k_{1} = x_{1} W^{K}$$",
        "v_2 = x_2 W^V",
        "$o_{1} = w_{1} v_{1} + w_{2} v_{2}$",
    ],
)
def test_symbolic_definitions_are_not_unparsed_math(formula: str) -> None:
    r = audit(formula + "\n")
    assert (r.findings, r.unparsed, r.checked) == ((), (), 0)


@pytest.mark.parametrize(("tail", "checked"), [("", 1), ("$1 + 1 = 2$\n", 2)])
def test_a_number_judged_by_both_levels_is_counted_once(tail: str, checked: int) -> None:
    """``5`` is judged by Level 1 (the chain) and Level 2 (the score q_1·k_1): one number, one count."""
    r = audit(_INPUTS + "$q_1 \\cdot k_1 = 1 \\times 1 + 2 \\times 2 = 5$\n" + tail)
    assert r.findings == () and r.recognised is not None and r.recognised.claims == 1
    assert r.checked == checked


# --------------------------------------------------------------------------- fuzzing Level 2

_NUMBERS = st.sampled_from(
    ["0", "1", "-2", "0.5", "2.71", "1e3", "1e999999999", "-0.125", "10", "3.3125069954097492"]
)
_VECTORS = st.one_of(
    st.lists(_NUMBERS, min_size=2, max_size=2), st.lists(_NUMBERS, min_size=1, max_size=4)
).map(lambda xs: "[" + ", ".join(xs) + "]")
_TOKENS = st.sampled_from(
    ["Thinking", "Machines", "它", "动物", "1", "x", "", "\\input{/etc/passwd}"]
)


def _line(kind: str, role: str, tok: str, a: str, b: str) -> str:
    """One line of a document in one of the layouts Level 2 reads."""
    r = role.lower()
    return {
        "vector": f"{r}_{tok or 1} ({tok}) = {a}",
        "md_head": f"|  | ${r}$ | $v$ |",
        "md_sep": "| --- | --- | --- |",
        "md_row": f"| {tok} | ${a}$ | ${b}$ |",
        "tex_head": f" & ${r}$ & $v$ \\\\",
        "tex_row": f"{tok} & $\\left{a[:-1]}\\right]$ & ${b}$ \\\\",
        "tex_rule": "\\hline",
        "w": f"W_{role} = [{a}, {b}]",
        "w_head": f"$W^{{{role}}}$ \\\\",
        "w_row": f"${a}$ \\\\",
        "x_head": "| token | embedding x |",
        "dk_zh": f"为了方便计算，假设 d_k = {a[1:2]}。",
        "dk_en": f"We assume that d_k = {a[1:2]}.",
        "scaled": f"${a} \\div 2 = {b}$",
        "weight": f"$w_{{{tok or 1}}}$ (对 {tok}): $\\approx {a[1:-1].split(',')[0]}$",
        "prose": f"注意力权重： {a}，输出 {b}",
        "sqrt": f"$\\sqrt{{d_k}} = {a[1:2]}$",
        "score": f"$q_1 \\cdot k_{{{tok or 2}}} = {a[1:-1].split(',')[0]}$",
    }[kind]


_KINDS = (
    "vector",
    "md_head",
    "md_sep",
    "md_row",
    "tex_head",
    "tex_row",
    "tex_rule",
    "w",
    "w_head",
    "w_row",
    "x_head",
    "dk_zh",
    "dk_en",
    "scaled",
    "weight",
    "prose",
    "sqrt",
    "score",
)
_LINES = st.one_of(
    st.builds(_line, st.sampled_from(_KINDS), st.sampled_from("QKV"), _TOKENS, _VECTORS, _VECTORS),
    st.text(alphabet="$\\[]()|&=≈0123456789.,-÷/ qkvwWQKV_d{}^总和权重\t", max_size=60),
)


@settings(max_examples=300, deadline=None)
@given(st.booleans(), st.lists(_LINES, max_size=14), st.randoms(use_true_random=False))
def test_fuzz_level2_never_crashes_or_hangs(
    base: bool, lines: list[str], rnd: random.Random
) -> None:
    """Documents made of the layouts Level 2 reads, mangled: only symattn's own errors, bounded time."""
    if base:  # a readable problem, with the fuzzed lines mixed in
        lines = _INPUTS.splitlines() + lines
        rnd.shuffle(lines)
    text = "\n".join(lines)
    start = time.monotonic()
    try:
        r = audit(text)
    except SymattnError:
        return
    assert time.monotonic() - start < 5
    assert all(f.line >= 1 and f.column >= 1 for f in r.findings)
    if r.recognised is not None:
        assert r.recognised.k == r.recognised.v and r.recognised.q


@pytest.mark.parametrize(
    "extra",
    [
        "$\\sqrt{d_k} = 0$",
        "d_k = 2\nd_k = 0",
        "k_3 (x) = [1e999999999, 1]",
        "| | q |\n| a | [1e999999999, 2] |",
    ],
)
def test_level2_survives_unusable_numbers(extra: str) -> None:
    """A zero divisor or an unreadable number is left out; the rest is still rebuilt and checked."""
    r = audit(_INPUTS + extra + "\n")
    assert r.recognised is not None and r.recognised.k == ("Thinking", "Machines")
