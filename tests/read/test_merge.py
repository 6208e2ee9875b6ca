"""read/merge.py: one finding per number, from Level 1 and Level 2."""

from __future__ import annotations

from dataclasses import replace

from symattn.read.merge import merge_findings, with_level2_causes, with_row_cause
from symattn.read.messages import say
from symattn.read.report import text_finding


def test_level2_causes_of_a_number_level1_reported_are_its_alternatives() -> None:
    msg = say("wrong-value", claimed="0.0167", exact="0.0289")
    l1 = text_finding("wrong-value", 76, 1, "0.0167", "0.0289", "0.0289", msg, "level1")
    l1_other = text_finding("truncated", 77, 1, "0.01", "0.017", "0.02", msg, "level1")
    l2 = [
        text_finding("precision-mixed", 76, 1, "0.0167", "", None, msg, "level2"),
        replace(
            text_finding("propagated-error", 76, 1, "0.0167", "0.09", None, msg, "level2"),
            alternatives=("dk-mismatch",),
        ),
        text_finding("wrong-value", 77, 1, "0.01", "0.05", None, msg, "level2"),
        text_finding("missing-input", 78, 1, "0.5", "?", None, msg, "level2"),
    ]
    got = with_level2_causes([l1, l1_other], l2)
    assert got[0].alternatives == ("precision-mixed", "propagated-error", "dk-mismatch")
    assert got[1].alternatives == ("wrong-value",)
    assert (got[0].code, got[0].line, got[1].code) == ("wrong-value", 76, "truncated")
    assert with_level2_causes([l1], []) == [l1]


def test_of_level2_findings_on_one_number_the_most_severe_is_kept_naming_the_others() -> None:
    """en46: precision-mixed and wrong-value on the same 1.25 gave only the warning."""
    msg = say("wrong-value", claimed="1.25", exact="2.5")
    warn = text_finding("precision-mixed", 66, 19, "1.25", "", None, msg, "level2")
    err = text_finding("wrong-value", 66, 19, "1.25", "2.5", None, msg, "level2")
    norm = text_finding("not-normalized", 66, 19, "1.25", "", None, msg, "level2")
    got = merge_findings([], [warn, err, norm])
    assert [(f.code, f.alternatives) for f in got if f is not norm] == [
        ("wrong-value", ("precision-mixed",))
    ]
    assert norm in got
    l1 = text_finding("truncated", 66, 19, "1.25", "1.2", "1.3", msg, "level1")
    got = merge_findings([l1], [warn, norm])
    assert [(f.code, f.alternatives) for f in got if f is not norm] == [
        ("truncated", ("precision-mixed",))
    ]


def test_a_number_level2_finds_a_float_printout_is_not_wrong_for_level1() -> None:
    """en46: ``softmax([10, 0, -5]) = [0.9999545, …]`` is within the float32 bound of the
    computation (Level 2), though 0.9999543 is the exact rounding (Level 1); so is the same
    number written earlier, at the end of a quotient of the same value."""
    msg = say("wrong-value", claimed="0.9999545", exact="0.99995430")
    l1 = [
        text_finding("wrong-value", 24, 56, "0.9999545", "0.9999542980", "0.9999543", msg, "l1"),
        text_finding("wrong-value", 31, 34, "0.9999545", "0.9999542963", "0.9999543", msg, "l1"),
        # another number, or another rounding of the value: still wrong
        text_finding("wrong-value", 40, 1, "0.9999546", "0.9999542963", "0.9999543", msg, "l1"),
        text_finding("wrong-value", 41, 1, "0.9999545", "0.9999000", "0.9999000", msg, "l1"),
    ]
    fl = text_finding(
        "float-representation", 31, 34, "0.9999545", "0.99995", "0.9999543", msg, "l2"
    )
    got = merge_findings(l1, [fl])
    assert [(f.code, f.line) for f in got] == [
        ("float-representation", 24),
        ("float-representation", 31),
        ("wrong-value", 40),
        ("wrong-value", 41),
    ]


def test_a_row_sum_on_a_wrong_entry_becomes_its_cause() -> None:
    wrong = text_finding("wrong-value", 1, 5, "0.27", "0.2689", "0.2689", say("wrong-value"), "x")
    row = text_finding("not-normalized", 1, 5, "0.73 + 0.27", "1", "1", say("wrong-value"), "y")
    (f,) = with_row_cause([wrong], [row])
    assert (f.code, f.alternatives) == ("wrong-value", ("not-normalized",))
    assert with_row_cause([f], [row]) == [f]
