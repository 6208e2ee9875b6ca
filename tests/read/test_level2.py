"""Tests of symattn.read.level2: the rebuilt problem judged by check, findings on the text's
numbers."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.config import DEFAULT_LIMITS
from symattn.errors import SymattnError
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.read import level2
from symattn.read.audit import AuditReport, audit
from symattn.read.level2 import Level2, judge_problems

from ..conftest import ROOT
from .texts import FIXTURES, INPUTS, understood


def codes(report: AuditReport) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in report.findings]


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
    """Inputs and final answers only, no working: Level 2 computes the problem and finds the one
    wrong answer."""
    r = audit((FIXTURES / "audit" / name).read_text(encoding="utf-8"))
    assert codes(r) == [wrong]
    assert r.findings[0].line == line
    assert r.recognised is not None and r.recognised.source == "vectors"
    assert len(r.recognised.k) == 3 and r.recognised.claims == 8


@pytest.mark.parametrize(
    ("formula", "wrong"),
    [
        ("$[5, 2] \\div \\sqrt{2} = [3.5355, 1.4142]$", []),
        ("$[5, 3] \\div \\sqrt{2} = [3.5355, 2.1213]$", ["2.1213"]),
        ("[5, 3] / √2 = [3.54, 2.12]", ["2.12"]),
    ],
)
def test_scaled_scores_inside_a_formula_are_claims(formula: str, wrong: list[str]) -> None:
    """``[5, 3] ÷ √2 = [3.5355, 2.1213]`` is right arithmetic, but the scores are [5, 2]: Level 2
    says so."""
    r = audit(INPUTS + formula + "\n")
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
    r = audit(INPUTS + lines)
    assert [(f.claimed, f.line) for f in r.findings if f.code != "not-normalized"] == wrong
    assert all(f.line >= 6 for f in r.findings)
    assert r.recognised is not None and r.recognised.claims == 2


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
    """Documents made of the layouts Level 2 reads, mangled: only symattn's own errors, bounded
    time."""
    if base:  # a readable problem, with the fuzzed lines mixed in
        lines = INPUTS.splitlines() + lines
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
    r = audit(INPUTS + extra + "\n\nweights = [0.8930, 0.1070]\n")
    assert r.recognised is not None and r.recognised.k == ("Thinking", "Machines")


def _level2(text: str) -> Level2:
    u = understood(text)
    return judge_problems(
        u.problems, "t", accepted=DEFAULT_ACCEPTED, limits=DEFAULT_LIMITS, facts=u.facts
    )


def test_findings_land_on_the_numbers_of_the_text() -> None:
    got = _level2(INPUTS + "weights = [0.89, 0.12]\n")
    assert [(f.code, f.claimed, f.line, f.column, f.cause) for f in got.findings] == [
        ("wrong-value", "0.12", 6, 18, "level2:wrong-value")
    ]
    assert len(got.recognised) == 1 and len(got.judged) == 2


def test_without_inputs_there_is_no_problem() -> None:
    got = _level2("weights = [0.5, 0.5]\n")
    assert got.findings == () and got.recognised == ()


def test_a_problem_check_refuses_is_not_checked_and_says_why() -> None:
    got = _level2(
        INPUTS.replace("v_2 = [30, 40]", "v_2 = [30, 40, 50]") + "weights = [0.89, 0.11]\n"
    )
    assert got.findings == ()


def test_the_same_spec_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text often gives rise to the same spec twice (two frames that agree, a problem
    restated): ``check`` runs once per spec, and the findings are those of one run."""
    u = understood(INPUTS + "weights = [0.89, 0.12]\n")
    problem = u.problems[0]
    calls: list[object] = []
    original = level2.check

    def counting(spec: object, **kw: object) -> object:
        calls.append(spec)
        return original(spec, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(level2, "check", counting)
    once = judge_problems(
        [problem], "t", accepted=DEFAULT_ACCEPTED, limits=DEFAULT_LIMITS, facts=u.facts
    )
    twice = judge_problems(
        [problem, problem], "t", accepted=DEFAULT_ACCEPTED, limits=DEFAULT_LIMITS, facts=u.facts
    )
    assert len(calls) == 2 and once.findings == twice.findings and once.findings


#: d_k = 2 stated, the scaled scores divided by 2 (d_k itself), no divisor written
_DIVIDED_BY_D_K = (
    INPUTS
    + "\nd_k = 2\n\n$$ QK^T = [5, 2] $$\n\n$$ \\frac{{QK^T}}{{\\sqrt{{d_k}}}} = {scaled} $$\n"
)


def test_a_divisor_found_from_the_scaled_scores_lands_on_them() -> None:
    """No divisor is written: ``dk-mismatch`` goes on the scaled scores that hold only with the
    author's divisor (2.5 = 5/2, exact 5/√2); 1 = 2/2 rounds 2/√2 = 1.41 too: not accused."""
    r = audit(_DIVIDED_BY_D_K.format(scaled="[2.5, 1]"))
    got = [(f.code, f.claimed, f.exact) for f in r.findings]
    assert got == [("dk-mismatch", "2.5", "3.5355")]
    assert r.findings[0].message.params["divisor"] == "2"


def test_scaled_scores_right_with_the_stated_divisor_get_no_dk_mismatch() -> None:
    assert audit(_DIVIDED_BY_D_K.format(scaled="[3.54, 1.41]")).findings == ()


def test_a_divisor_said_in_words_and_as_a_formula_gets_the_finding_at_both() -> None:
    """Level 2's ``dk-mismatch`` lands on the words and on the formula; the formula
    ``\\sqrt{d_k} = 2`` is also wrong for d_k = 2 on its own (Level 1), naming both causes."""
    text = (
        INPUTS
        + "\nd_k = 2\n\n此处假设根号后为2，所以 $\\sqrt{d_k} = 2$。\n\n$$ [5, 2] / 2 = [2.5, 1] $$\n"
    )
    r = audit(text)
    got = [(f.code, f.claimed, f.column, f.alternatives) for f in r.findings]
    assert got == [("dk-mismatch", "2", 9, ()), ("wrong-value", "2", 28, ("dk-mismatch",))]
    right = text.replace("d_k = 2\n", "d_k = 4\n")
    assert audit(right).findings == ()


#: a tiny example after an aside about a real model's d_k
_ASIDE = (
    "# Attention by hand\n\nIn GPT-3, d_k = 128. Here we use a tiny example.\n\n"
    "Q = [[1, 0], [0, 1]]\nK = [[1, 0], [0, 1]]\nV = [[1, 2], [3, 4]]\n\n"
    "Scaled scores: [[0.707, 0], [0, 0.707]]\n\n"
    "Weights: [[0.670, 0.330], [0.330, 0.670]]\n\n"
    "Output: [[1.660, 2.660], [2.340, 3.340]]\n"
)


def test_an_aside_d_k_is_not_the_d_k_of_the_worked_example() -> None:
    report = audit(_ASIDE, path="t.md")
    assert report.checked == 12 and not report.findings
    assert report.recognised is not None
    assert (report.recognised.d_k, report.recognised.d_k_stated) == (2, False)
    wrong = audit(_ASIDE.replace("2.340, 3.340", "2.340, 3.350"), path="t.md")
    assert [(f.code, f.claimed) for f in wrong.findings] == [("wrong-value", "3.350")]


def test_a_matrix_holding_another_stage_of_its_rows_is_misnamed_not_wrong() -> None:
    qkv = "Q = [[1, 0], [0, 1]]\n\nK = [[1, 0], [0, 1]]\n\nV = [[1, 2], [3, 4]]\n\nd_k = 2\n\n"
    # the scaled scores, printed under the label of the scores
    assert codes(audit(qkv + "Scores: [[0.7071, 0], [0, 0.7071]]\n", path="t.md")) == []
    # numbers of no stage are still wrong
    wrong = codes(audit(qkv + "Scores: [[0.8, 0], [0, 0.8]]\n", path="t.md"))
    assert ("wrong-value", "0.8") in wrong


#: two problems in one text, the second with a wrong weight
_TWO_PROBLEMS = (
    "## Example 1\n\n"
    "$$Q = \\begin{bmatrix} 1 & 0 \\end{bmatrix}, "
    "K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, "
    "V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
    "Weights without scaling: $[0.73, 0.27]$\n\n"
    "## Example 2\n\n"
    "$$Q = \\begin{bmatrix} 2 & 0 \\end{bmatrix}, "
    "K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, "
    "V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
    "Weights without scaling: $[0.80, 0.12]$\n"
)


def test_a_finding_says_which_problem_of_the_text_it_was_judged_in() -> None:
    """Issue 21: "one exact value per claim, said of which problem" — the number of the
    emitted spec, where a text holds more than one problem; none where it holds one."""
    r = audit(_TWO_PROBLEMS)
    assert len(r.specs) == 2
    wrong = [f for f in r.findings if f.code == "wrong-value"]
    assert [(f.claimed, f.problem) for f in wrong] == [("0.80", 2)], r.findings
    one = audit(_TWO_PROBLEMS.split("## Example 2")[0])
    assert all(f.problem is None for f in one.findings)


def test_a_row_no_query_is_placed_for_is_listed_as_not_checked() -> None:
    # the first row is Q K^T's row 1; the second names no row and is no query's row
    text = (
        "Q = [[1.0, 0.5], [0.8, 1.2]]\n\nK = [[0.5, 1.0], [1.2, 0.8]]\n\nV = [[1, 3], [2, 1]]\n\n"
        "Weights: [0.40, 0.60]\n\nAnd: [0.45, 0.55]\n"
    )
    report = audit(text, path="t.md")
    assert not [f for f in report.findings if f.severity == "error"]
    assert any(u.reason.key == "unplaced-row" for u in report.unparsed)


def test_each_problem_judged_is_recognised_in_the_order_findings_number_them() -> None:
    """Issue 21: the report says what every problem of the text is, not only the first."""
    got = _level2(_TWO_PROBLEMS)
    assert [r.q for r in got.recognised] == [("q1",), ("q1",)], got.recognised
    assert [r.claims for r in got.recognised] == [2, 2]
    assert [jp.problem.recognised for jp in got.problems] == list(got.recognised)
    assert len(_level2(_TWO_PROBLEMS.split("## Example 2")[0]).recognised) == 1


def test_a_finding_keeps_what_check_says_of_its_exact_value() -> None:
    """Issue 21: "…" wherever a value is rounded, and the exact value said of which problem —
    as ``check`` says it of the same claim: a rounding of the exact value (0.88080 of
    e^2/(e^2+1)), and the author's frame where the claim was judged in it (tests/corpus/dev/
    zh16 divides by d_k = 3: its scaled scores are of the author's problem, d_k = 9)."""
    (wrong,) = [f for f in audit(_TWO_PROBLEMS).findings if f.code == "wrong-value"]
    assert wrong.inexact and wrong.exact_text.endswith("…")
    zh16 = (
        ROOT / "tests" / "corpus" / "dev" / "zh16_aigenius-hallucination-self-attention-bmatrix.md"
    )
    r = audit(zh16.read_text(encoding="utf-8"))
    carried = [f for f in r.findings if f.code == "propagated-error" and f.line == 70]
    assert carried and all(f.frame == "9" for f in carried), r.findings


def test_an_input_written_again_means_the_input_not_a_claim_of_its_value() -> None:
    """A weight ``0.3`` judged in one problem, then a product that writes the given Q again
    (``[[0.9, 0.3], …] × …``): its 0.3 is Q's, not that weight's exact value, and the
    product of the inputs as written is right."""
    text = (
        "```\nscores: [0.4, 0.9, 0.5]\nsoftmax: [0.3, 0.5, 0.2]\n```\n\n"
        "```\nQ: [[0.9, 0.3], [0.6, 0.8]]\nK: [[0.8, 0.4], [0.5, 0.9]]\n"
        "V: [[1.2, 0.7], [0.9, 1.1]]\n```\n\n"
        "```\nQK^T = [[0.9, 0.3], [0.6, 0.8]] × [[0.8, 0.5], [0.4, 0.9]]\n"
        "     = [[0.84, 0.72], [0.80, 1.02]]\n```\n"
    )
    found = [(f.code, f.claimed) for f in audit(text, path="t.md").findings]
    assert ("wrong-value", "0.5") in found  # (the softmax row: the first problem is judged)
    assert not [c for c, v in found if v in ("0.84", "0.72", "0.80", "1.02")]


def test_a_wrong_weight_of_a_row_that_cannot_sum_to_1_names_that_cause() -> None:
    """``[0.80, 0.10]`` for ``[0.8930, 0.1070]``: each weight is wrong (0.10 truncated), and the
    row's sum (0.90) is a cause of each; a wrong weight of a row that sums to 1 names no such
    cause."""
    r = audit(INPUTS + "\nweights = [0.80, 0.10]\n")
    wrong = [f for f in r.findings if f.code in ("wrong-value", "truncated")]
    assert {f.claimed for f in wrong} == {"0.80", "0.10"}
    assert all("not-normalized" in f.alternatives for f in wrong)
    r = audit(INPUTS + "\nweights = [0.80, 0.20]\n")
    wrong = [f for f in r.findings if f.code == "wrong-value"]
    assert wrong and all("not-normalized" not in f.alternatives for f in wrong)
