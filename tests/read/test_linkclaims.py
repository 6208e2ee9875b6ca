"""Tests of symattn.read.linkclaims: each written number judged against the expression on its
left, as written and exactly; a sum of numbers term by term."""

from __future__ import annotations

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.read.audit import audit
from symattn.read.level1 import Level1, judge_chains

from .texts import read_text


def _level1(text: str) -> Level1:
    found = read_text(text).chains
    return judge_chains(found, accepted=DEFAULT_ACCEPTED, limits=DEFAULT_LIMITS)


def test_each_literal_link_is_judged_against_the_expression_on_its_left() -> None:
    got = _level1("$0.47 \\times 0.22 = 0.1034 = 0.2$\n")
    assert [(f.code, f.claimed, f.column) for f in got.findings] == [("wrong-value", "0.2", 30)]
    assert got.checked == 2 and got.seen == {20, 29}  # (offsets of the judged numbers)


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("$0.82 \\times 10 + 0.18 \\times 30 = 8.2 + 5.4$\n", []),
        ("$0.82 \\times 10 + 0.18 \\times 30 = 8.2 + 5.5$\n", [("5.5", 42)]),
    ],
)
def test_a_sum_of_numbers_claims_the_terms_of_the_sum_on_its_left(
    text: str, wrong: list[tuple[str, int]]
) -> None:
    got = _level1(text)
    assert [(f.claimed, f.column) for f in got.findings] == wrong
    assert got.checked == 2  # (one claim per term)


def test_a_claim_right_for_the_authors_rounded_numbers_is_propagated_rounding() -> None:
    """``s`` is 12.18 as written (e^2.5 = 12.18249… exactly): 1000 s is 12180 as written."""
    (f,) = _level1("$s = e^{2.5} \\approx 12.18$\n\n$1000 \\times s = 12180$\n").findings
    assert (f.code, f.claimed, f.exact) == ("propagated-rounding", "12180", "12182.494")


def test_an_exact_step_must_hold_exactly() -> None:
    (f,) = _level1("$1/3 + 1/3 = 1/5 + 1/5$").findings
    assert (f.code, f.cause, f.exact) == ("wrong-value", "wrong-step", "2/3")
    # a small fraction written as the value is that number, judged as a claim
    (g,) = _level1("$1/3 + 1/3 = 2/5$").findings
    assert (g.code, g.claimed, g.exact) == ("wrong-value", "2/5", "2/3")


@pytest.mark.parametrize(
    ("text", "accused"),
    [
        # held-out en41: the exponent is 2√2 printed to six decimals; e^{2√2} = 16.9188287
        ("$e^{2.828427} = 16.918829$", False),
        ("$e^{2.121320}=8.342145$", False),  # e^{3/√2} = 8.3421447
        ("$e^{2.828427} = 16.918900$", True),  # no value inside the printed rounding gives it
        ("$e^{0.7071} = 2.0290$", True),  # four digits: the exponent is taken as written
    ],
)
def test_a_printed_operand_stands_for_its_rounding(text: str, accused: bool) -> None:
    r = audit(text)
    assert r.has_errors is accused
    assert r.checked == 1


@pytest.mark.parametrize(
    ("text", "accused"),
    [
        ("$2/1.73 = 1.15$", False),  # 1.73 is √3 rounded: 2/√3 = 1.1547
        ("$2/1.73 \\approx 1.16$", False),  # and as written, 2/1.73 = 1.1561
        ("$\\frac{[1, 2]}{1.73} = [0.58, 1.15]$", False),
        ("$2/1.73 = 1.17$", True),  # right for neither
        ("$\\frac{5}{1.414} = 3.53$", True),  # 5/√2 = 3.5355 and 5/1.414 = 3.5361
        ("$12.18 / 14.89 \\approx 0.83$", True),  # 14.89 rounds no root
    ],
)
def test_a_rounded_root_in_a_divisor_is_the_authors_frame(text: str, accused: bool) -> None:
    r = audit(text)
    assert r.has_errors is accused, r.findings
    assert r.checked >= 1


@pytest.mark.parametrize(
    ("text", "accused"),
    [
        # fresh en80: the exponentials and their sum written rounded; 0.204 is right for
        # some of their values (and for the exact ones), though 2.622/12.82 = 0.20452
        ("$(2.622, 4.586, 5.616)/12.82 = (0.204, 0.358, 0.438)$", False),
        ("$(2.622, 4.586, 5.616)/12.82 = (0.203, 0.358, 0.438)$", True),
        ("$1/2.828 = 0.353$", True),  # the operand is finer than the claim: truncated
        # an earlier link computes it more exactly: it decides (fresh zh59)
        ("$e^{0.46}/(e^{0.54}+e^{0.38}+e^{0.52}+e^{0.46}) = 1.58/6.44 = 0.24$", True),
        # a label before the chain, and a short rounding (0.083 of 0.0825) among its terms:
        # 0.752 is right for some of their values (0.7515 ... 0.7545)
        ("Output: $0.335 + 0.335 + 0.083 = 0.752$", False),
        ("Output: $0.335 + 0.335 + 0.083 = 0.750$", True),
        # a coarse number is taken as written (0.5 is no rounding of 0.45 ... 0.55)
        ("$0.335 + 0.5 = 0.830$", True),
    ],
)
def test_the_roundings_a_chain_computes_with_stand_for_their_values(
    text: str, accused: bool
) -> None:
    assert bool(_level1(text).findings) is accused


def test_the_last_weight_completed_from_a_wrong_one_is_carried_not_new() -> None:
    text = "weights = [2.0281/3.0281, 1.0/3.0281] = [0.6697, 0.3303]\n"
    report = audit(text, path="t.txt")
    assert [(f.code, f.claimed) for f in report.findings if f.severity == "error"] == [
        ("truncated", "0.6697")
    ]


def test_written_products_with_a_letter_x_are_judged_as_products() -> None:
    report = audit("- 0.5760 x 4 = 2.3040\n- 0.590831 x (1 - 0.590831) = 0.241750\n")
    assert report.findings == () or all(f.code != "wrong-value" for f in report.findings)
    assert audit("- 0.5760 x 4 = 2.5040\n").findings[0].code == "wrong-value"


def test_names_given_in_another_section_are_not_judged_against_written_operands() -> None:
    # an exercise's solution reuses the names of the worked example with its own numbers
    text = (
        "## Setup\n\nSo $q = [2, 0]$ and $k_1 = [1, 0]$.\n\n"
        "## Worked solutions\n\nRaw score: q dot k_1 = 1 x 1 + 1 x 0 = **1**.\n"
    )
    report = audit(text, path="t.md")
    assert not [f for f in report.findings if f.severity == "error"]
    assert any(u.reason.key == "names-elsewhere" for u in report.unparsed)
    same = "So $q = [2, 0]$ and $k_1 = [1, 0]$.\n\nRaw score: q dot k_1 = 1 x 1 + 1 x 0 = **1**.\n"
    assert [f.code for f in audit(same, path="t.md").findings] == ["wrong-value"]


def test_a_later_chain_of_a_label_claims_what_its_numbers_stand_for() -> None:
    # the scores written in place of q · K^T (in the label's formula a chain before) are wrong
    text = (
        "$$output = softmax([1, 2, 3] \\cdot [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]^T) "
        "\\cdot [[1, 0], [0, 1]]$$\n\n"
        "$$output = softmax([0.1, 0.4]) \\cdot [[1, 0], [0, 1]]$$\n"
    )
    found = [(f.line, f.claimed, f.code) for f in audit(text, path="t.md").findings]
    assert found == [(3, "0.1", "wrong-value"), (3, "0.4", "wrong-value")]
    right = text.replace("[0.1, 0.4])", "[1.4, 3.2])")
    assert not audit(right, path="t.md").findings


def test_an_align_in_a_latex_fence_is_judged_as_math() -> None:
    text = "```latex\n\\begin{align*}\n& x \\\\\n& = \\frac{1 + 4}{2} \\\\\n& = 2.6\n\\end{align*}\n```\n"
    assert [(f.claimed, f.code) for f in audit(text, path="t.md").findings] == [
        ("2.6", "wrong-value")
    ]


def test_weights_written_as_fractions_are_claims() -> None:
    text = (
        "$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, K = \\begin{bmatrix} 1 & 1 "
        "\\\\ 1 & 1 \\end{bmatrix}, V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
        "$$\\text{weights} = \\begin{bmatrix} \\frac{1}{2} & \\frac{1}{2} \\\\ \\frac{1}{3} & "
        "\\frac{2}{3} \\end{bmatrix}$$\n"
    )
    found = [(f.claimed, f.code) for f in audit(text, path="t.md").findings]
    # row 2 is 1/2, 1/2 (equal scores): 1/3 and 2/3 are wrong; row 1 is right
    assert sorted(c for c, code in found if code == "wrong-value") == ["1/3", "2/3"]
