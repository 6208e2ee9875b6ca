"""Tests of symattn.read.definitions: names a text defines, and names given two values."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.judge.verdict import DEFAULT_ACCEPTED
from symattn.read.audit import audit
from symattn.read.definitions import (
    STEP_LABEL,
    Definitions,
    beside_examples,
    same,
    show_value,
    worked_stretch,
)
from symattn.read.evaluate import evaluate
from symattn.read.notations.roles import INDEX_NAMES
from symattn.read.scalar import lit
from symattn.read.syntax import parse

from .notations.rows import check_row
from .texts import understood


def test_same_compares_rationals_exactly_and_irrationals_as_formulas() -> None:
    assert same(lit(Fraction(1, 2)), evaluate(parse("2 / 4")))
    assert same(evaluate(parse("e^2")), evaluate(parse("e^{2}")))
    assert not same(evaluate(parse("e^2")), evaluate(parse("e^{2.0001}")))
    assert not same(evaluate(parse("[1, 2]")), evaluate(parse("[1, 2, 3]")))


def test_show_value() -> None:
    assert show_value(evaluate(parse("[0.5, 1/3, e]"))) == "[0.5, 1/3, …]"
    assert show_value(lit(4)) == "4"


def test_a_name_given_two_values_is_a_conflict() -> None:
    defs = Definitions(DEFAULT_ACCEPTED, DEFAULT_LIMITS)
    defs.define("d_k", lit(2), lit(2), "d_k = 2", 3, 1)
    defs.define("d_k", lit(2), lit(2), "d_k = 2", 5, 1)
    assert defs.conflicted() == {}
    defs.define("d_k", lit(4), lit(4), "d_k = 4", 9, 4)
    assert [d.line for d in defs.conflicted()["d_k"]] == [3, 9]
    assert defs.env["d_k"] == lit(4)
    (finding,) = defs.findings()
    assert (finding.code, finding.claimed, finding.exact, finding.line) == (
        "conflicting-definition",
        "d_k = 4",
        "d_k = 2",
        9,
    )


def test_the_step_label_row_recognises_its_examples() -> None:
    check_row(STEP_LABEL)


def test_a_name_used_by_a_step_and_given_a_new_value_is_updated() -> None:
    """``m_new = max(m, x)`` then ``m = 3``: the running maximum, not a second value."""
    defs = Definitions(DEFAULT_ACCEPTED, DEFAULT_LIMITS)
    defs.define("m", lit(2), lit(2), "m = 2", 1, 1, 0)
    defs.use({"m", "x"})
    defs.define("m_new", lit(3), lit(3), "m_new = max(m, x) = 3", 2, 1, 10)
    defs.define("m", lit(3), lit(3), "m = 3", 3, 1, 20)
    assert defs.conflicted() == {} and defs.findings() == []
    assert defs.env["m"] == lit(3)
    defs.define("m", lit(4), lit(4), "m = 4", 4, 1, 30)  # no step in between: a conflict
    assert [d.line for d in defs.conflicted()["m"]] == [3, 4]


def test_a_step_label_between_two_values_makes_the_second_an_update() -> None:
    text = "$m = 2$\n\nStep 2: $m = 3$\n\n$m = 5$\n"
    steps = Definitions.steps_of(text)
    assert steps == [text.index("Step")]
    defs = Definitions(DEFAULT_ACCEPTED, DEFAULT_LIMITS, steps)
    for k, v in enumerate((2, 3, 5)):
        defs.define("m", lit(v), lit(v), f"m = {v}", 1 + 2 * k, 1, text.index(f"m = {v}"))
    assert [(f.claimed, f.exact) for f in defs.findings()] == [("m = 5", "m = 3")]


def test_d_k_is_a_parameter_of_the_whole_text() -> None:
    """``d_k`` used by a step and given again is still a second value (seed 000)."""
    defs = Definitions(DEFAULT_ACCEPTED, DEFAULT_LIMITS, [5])
    defs.define("d_k", lit(2), lit(2), "d_k = 2", 1, 1, 0)
    defs.use({"d_k"})
    defs.define("d_k", lit(4), lit(4), "d_k = 4", 9, 1, 40)
    assert [f.code for f in defs.findings()] == ["conflicting-definition"]


def test_a_value_computed_from_other_numbers_is_a_new_examples() -> None:
    """``factor = \\sqrt{4} = 2`` then ``factor = \\sqrt{64} = 8`` (en46): the value for other
    inputs; a value written without computing it is still a second one."""
    defs = Definitions(DEFAULT_ACCEPTED, DEFAULT_LIMITS)
    defs.define("factor", lit(2), lit(2), "factor = \\sqrt{4} = 2", 1, 1, 0, derived=True)
    defs.define("factor", lit(8), lit(8), "factor = \\sqrt{64} = 8", 5, 1, 50, derived=True)
    assert defs.findings() == []
    defs.define("factor", lit(3), lit(3), "factor = 3", 9, 1, 90)
    assert [f.claimed for f in defs.findings()] == ["factor = 3"]


def test_d_k_after_inputs_given_again_as_wide_as_it_says_is_a_new_examples() -> None:
    """Example 3 gives Q again, 4 wide, then ``d_k = 4`` (en53); 3 would still conflict."""
    defs = Definitions(DEFAULT_ACCEPTED, DEFAULT_LIMITS)
    two, four = evaluate(parse("[1, 0]")), evaluate(parse("[1, 1, 1, 1]"))
    defs.define("Q", two, two, "Q = [1, 0]", 1, 1, 0)
    defs.define("d_k", lit(2), lit(2), "d_k = 2", 2, 1, 10)
    defs.section = 1  # (the next example's section: Q there is its own)
    defs.define("Q", four, four, "Q = [1, 1, 1, 1]", 5, 1, 50)
    defs.define("d_k", lit(4), lit(4), "d_k = 4", 6, 1, 60)
    assert defs.findings() == []
    defs.define("d_k", lit(3), lit(3), "d_k = 3", 7, 1, 70)  # no new inputs since d_k = 4
    assert [f.claimed for f in defs.findings()] == ["d_k = 3"]


def test_a_case_of_an_index_is_a_step() -> None:
    text = 'j=1 ("I"): (0.3 + 0.4) / 2 = 0.35\nj=2 ("love"): (0.1 + 0.5) / 2 = 0.3\n'
    assert Definitions.steps_of(text) == [0, text.index("j=2")]


_EXAMPLE = (
    "$Q = [[1, 0], [0, 2]]$, $K = [[1, 0], [0, 2]]$, $V = [[10, 0], [0, 20]]$\n\n"
    "$$S = \\frac{QK^T}{\\sqrt{d_k}} = \\begin{bmatrix} 0.7071 & 0 \\\\ 0 & 2.8284 "
    "\\end{bmatrix}$$\n\n"
)


def _conflicts(text: str) -> list[str]:
    return [f.claimed for f in audit(text).findings if f.code == "conflicting-definition"]


def test_a_second_d_k_beside_every_worked_example_is_no_conflict() -> None:
    # en86: an aside above the example; en95: an exercise after it
    assert _conflicts("In modern Transformers, $d_k = 64$.\n\nHere $d_k = 2$.\n\n" + _EXAMPLE) == []
    after = "Here $d_k = 2$.\n\n" + _EXAMPLE + "**Question**: If $d_k = 64$, what factor?\n"
    assert _conflicts(after) == []


def test_a_second_d_k_inside_a_worked_example_is_still_a_conflict() -> None:
    # zh_seed000: d_k = 2 stated, then d_k = 4 between the inputs and the claims
    inside = (
        "Here $d_k = 2$.\n\n$Q = [[1, 0], [0, 2]]$, $K = [[1, 0], [0, 2]]$, "
        "$V = [[10, 0], [0, 20]]$\n\nWe set $d_k = 4$.\n\n"
        "$$S = \\frac{QK^T}{2} = \\begin{bmatrix} 0.5 & 0 \\\\ 0 & 2 \\end{bmatrix}$$\n"
    )
    assert _conflicts(inside) == ["d_k = 4"]


def test_beside_examples_keeps_what_an_example_holds_and_other_names() -> None:
    (f,) = [
        f
        for f in audit("$d_k = 2$ then $d_k = 4$\n\n$m = 2$, $m = 3$\n").findings
        if f.claimed == "d_k = 4"
    ]
    col = f.location.column  # type: ignore[union-attr]
    assert beside_examples([f], [(col + 5, col + 9)], lambda ln, c: c) == []
    assert beside_examples([f], [(col - 1, col + 1)], lambda ln, c: c) == [f]
    assert beside_examples([f], [], lambda ln, c: c) == [f]  # (no example to be beside)
    other = [g for g in audit("$m = 2.0$, $l = 1$\n\n$m = 3.0$\n").findings]
    assert [g.code for g in beside_examples(other, [(90, 99)], lambda ln, c: c)] == [
        "conflicting-definition"
    ]


def test_the_worked_stretch_runs_from_the_first_array_to_the_last_computed() -> None:
    text = "$Q = [1, 0]$\n\n$o = 0.5 \\times [4, 2] = [2, 1]$\n\n$d_k = 64$\n"
    st = understood(text).level1.stated
    got = worked_stretch(st)
    # (to the last number of the last array computed: the 1 of [2, 1])
    assert got is not None
    assert got[0] <= text.index("[1, 0]") and got[1] == text.index("[2, 1]") + 4
    assert not got[0] <= text.index("d_k") <= got[1]
    assert worked_stretch(understood("$Q = [1, 0]$, $d_k = 2$\n").level1.stated) is None


def test_parameters_given_again_together_start_a_new_example() -> None:
    """``B=1, T=2, d=4`` after ``B=2, T=5, d=8``: each worked example gives its parameters;
    the names given after it (``X``) are that example's own too."""
    text = (
        "Shapes, B=2, T=5, d=8:\n\nThe first case: B=1, T=2, d=2, all weights the identity.\n\n"
        "X = [[1, 0], [0, 1]]\n\nThe second case: B=1, T=2, d=4, identity weights.\n\n"
        "X = [[1, 0, 0, 0], [0, 0, 1, 0]]\n"
    )
    assert [f.code for f in audit(text, path="t.txt").findings] == []


def test_one_parameter_given_again_alone_is_still_a_conflict() -> None:
    text = "Take B=2 and T=5.\n\nLater B=3.\n"
    assert "conflicting-definition" in [f.code for f in audit(text, path="t.txt").findings]


@pytest.mark.parametrize("name", sorted(INDEX_NAMES))
def test_a_running_index_given_another_integer_is_no_conflict(name: str) -> None:
    text = f"$${name} = 6, x = 2$$\n\nAt position ${name} = 1$ the score is $s = 0.5$.\n"
    assert _conflicts(text) == []
    # (a value that is no count is still a conflict)
    assert _conflicts(f"$${name} = 6$$\n\nThen $${name} = 0.5$$\n") == [f"{name} = 0.5"]


def test_a_name_that_is_no_index_given_two_integers_is_a_conflict() -> None:
    assert _conflicts("$$d = 2$$\n\n$$d = 3$$\n") == ["d = 3"]


def test_each_token_s_vectors_on_a_line_of_their_own_are_no_conflict() -> None:
    text = (
        'Word "cat" → Q = [1, 0], K = [0.5, 0.5], V = [1, 2]\n'
        'Word "sat" → Q = [0, 1], K = [0.2, 0.8], V = [0, 1]\n'
    )
    report = audit(text, path="t.txt")
    assert [f.code for f in report.findings] == []
