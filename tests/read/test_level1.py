"""Tests of symattn.read.level1: chains judged link by link."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.read.audit import audit
from symattn.read.level1 import Level1, judge_chains
from symattn.read.messages import not_checked

from ..conftest import english
from .texts import read_text


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


def _level1(text: str) -> Level1:
    found = read_text(text).chains
    return judge_chains(found, accepted=DEFAULT_ACCEPTED, limits=DEFAULT_LIMITS)


def test_a_rounded_e_is_named() -> None:
    (f,) = _level1("$e^{0.5} \\approx 1.6486$").findings
    assert (f.code, f.cause, f.message.key) == (
        "approximate-constant",
        "approximate-e:2.718",
        "approximate-e",
    )


def test_what_each_chain_states_is_kept_for_level2() -> None:
    got = _level1("$\\sqrt{d_k} = 2$\n$weights_{它} = [0.5, 0.5]$\n")
    assert [(s.label, s.first, [len(lit) for lit in s.literals]) for s in got.stated] == [
        ("", "\\sqrt{d_k}", [1]),
        ("weights_它", "weights_{它}", [2]),
    ]


def test_prose_with_an_equals_sign_is_not_unparsed_math() -> None:
    got = _level1("This is the sum of all the values = 3 apples\n$x = [1, 2] = 3$\n")
    assert [u.reason for u in got.unparsed] == [
        not_checked("numbers-for-values", claimed=1, values=2)
    ]
    assert [english(u.reason) for u in got.unparsed] == ["1 numbers claimed for 2 values"]


def test_the_longest_formula_judged_is_a_limit() -> None:
    text = "$$ " + "+".join(["1"] * 20) + " = 21 $$\n"
    assert [f.code for f in audit(text).findings] == ["wrong-value"]
    r = audit(text, limits=Limits(max_formula_length=30))
    assert r.findings == ()
    assert any("max_formula_length=30" in english(u.reason) for u in r.unparsed), r.unparsed


@pytest.mark.parametrize(
    "text",
    [
        # an online-softmax trace: the running max and sum are updated at each step
        "## Online softmax\n\nStep 1: $m = 2.0$, $l = 1$\n\n"
        "Step 2: $x = 3.0$, $m_{new} = \\max(m, x) = 3.0$, "
        "$l = l \\cdot e^{m - m_{new}} + e^{x - m_{new}} = 1 \\cdot e^{-1} + 1 \\approx 1.3679$, "
        "$m = 3.0$\n",
        # the same without step labels: m and l were used by the update before their new values
        "$m = 2.0$, $l = 1$\n\n$m_{new} = \\max(m, 3.0) = 3.0$\n\n"
        "$l = l \\cdot e^{m - m_{new}} + 1 = 1.3679$\n\n$m = 3.0$\n",
        # per-step reassignment in prose
        "Start with $m = 2.0$. After the second score, $m = 3.0$.\n",
        "第 1 步：$m = 2$\n\n第 2 步：$m = 3$\n",
        # a name reused per head
        "Head 1: $a = 0.3 + 0.4 = 0.7$\n\nHead 2: $a = 0.2 + 0.2 = 0.4$\n",
        # a case of an index, then its formula (zh35): j names the case, each its own
        '```\nj=1 ("I"): (0.3 + 0.4) / 2 = 0.35\nj=2 ("love"): (0.1 + 0.5) / 2 = 0.3\n```\n',
        # the same, the colon followed by a LaTeX space (zh75)
        "- $j=0:\\,1\\cdot1+0\\cdot0=1$\n- $j=1:\\,1\\cdot0+0\\cdot1=0$\n",
        # a value for each case, after the case it is for (zh75: a bias per distance)
        "偏置（相对距离 +2→$b=-1.0$，+1→$b=-0.3$，0→$b=0$）\n",
        # the same quantity computed for other inputs (en46, zh49): a new example's value
        "If $d_k = 4$, scale factor $= \\sqrt{4} = 2$\n\n"
        "With $d_k$ like 64: scale factor $= \\sqrt{64} = 8$\n",
        "$d_k = 2$\n\nFor example, with 8 heads of 512, each head's $d_k = 512/8 = 64$\n",
        # d_k given again after Q and K were given again, as wide as it says (en53)
        "## Example 1\n\n$Q = [1, 0]$, $K = [[1, 0], [0, 1]]$, $d_k = 2$\n\n"
        "## Example 2\n\n$Q = [1, 1, 1, 1]$, $K = [1, 0, 0, 0]$, $d_k = 4$\n",
        # d_k given again, then Q given as wide as it says (en86: an aside's d_k = 64 above)
        "In modern Transformers, $d_k = 64$.\n\nHere $d_k = 2$, and\n\n$Q = [[1, 0], [0, 2]]$\n",
        # a number times a name in a sum is one formula (en60), not a sum, then v_3 given again
        "$v_3 = [1, 1]$, $v_1 = [1, 0]$\n\n"
        "$$z = 0.5\\,v_1 + 0.5\\,v_3 \\approx \\begin{bmatrix} 1 \\\\ 0.5 \\end{bmatrix}$$\n",
    ],
)
def test_a_name_updated_per_step_is_no_conflicting_definition(text: str) -> None:
    r = audit(text)
    assert "conflicting-definition" not in [f.code for f in r.findings], r.findings
    assert not r.has_errors


@pytest.mark.parametrize(
    "text",
    [
        "$d_k = 2$ then $d_k = 4$",
        "$d_k = 2$\n\nStep 2: $\\sqrt{d_k} = 1.41$\n\n$scaled = 4 / \\sqrt{d_k} = 2.83$\n\n"
        "$d_k = 4$\n",
        "$m = 2.0$, $l = 1$\n\n$m = 3.0$\n",  # nothing between: the same quantity twice
        # a second d_k written, not computed from other numbers, for the same inputs
        "$Q = [1, 0]$, $K = [[1, 0], [0, 1]]$, $d_k = 2$\n\nscale factor $= \\sqrt{d_k}$, "
        "$d_k = 4$\n",
        # d_k again after Q and K were given again, but not as wide as it says
        "$Q = [1, 0]$, $d_k = 2$\n\n$Q = [1, 1, 1, 1]$, $d_k = 3$\n",
        # d_k given again, then a K not as wide as it says: the same example's inputs
        "$d_k = 2$\n\n$Q = [[1, 0], [0, 2]]$\n\n$d_k = 4$\n\n$K = [[1, 0], [0, 1]]$\n",
        # a value computed from numbers that does not hold is no new example's
        "factor $= \\sqrt{4} = 2$\n\nfactor $= \\sqrt{64} = 9$\n",
    ],
)
def test_a_second_value_of_the_same_quantity_is_still_a_conflict(text: str) -> None:
    assert "conflicting-definition" in [f.code for f in audit(text).findings]


@pytest.mark.parametrize(
    "text",
    [
        "$e^0 = 1$, $e^{\\ln 2} = 2$; the sum is $1 + 2 = 3$.",
        "$\\ln 2 \\approx 0.693$",
        "$\\ln 2 \\approx 0.69$",
        "$\\log 2 \\approx 0.6931$",
        "$\\text{softmax}([0, 0, \\ln 2]) = [0.25, 0.25, 0.5]$",
        "$\\ln 2 \\approx 0.693$ and $e^{0.693} \\approx 2.000$",  # 0.693 stands for ln 2
        "$\\exp(\\ln 3) = 3$",
    ],
)
def test_logarithms_are_judged_exactly_or_as_roundings(text: str) -> None:
    r = audit(text + "\n")
    assert not r.has_errors and not r.unparsed, (r.findings, r.unparsed)
    assert r.checked >= 1


@pytest.mark.parametrize(
    "text", ["$\\ln 2 \\approx 0.639$", "$e^{\\ln 2} = 3$", "$\\log 2 \\approx 0.75$"]
)
def test_a_wrong_logarithm_is_accused(text: str) -> None:
    r = audit(text + "\n")
    assert "wrong-value" in [f.code for f in r.findings]
