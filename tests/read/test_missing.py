"""Tests of symattn.read.missing: what a text states without the inputs to check it, and
weights that do not sum to one."""

from __future__ import annotations

from symattn.read.audit import audit
from symattn.read.missing import key_counts, missing_inputs, unnormalized

from ..conftest import english
from .texts import understood


def _missing(text: str) -> list[tuple[str, str, int]]:
    u = understood(text)
    return [(f.code, f.claimed, f.line) for f in missing_inputs(u.facts)]


def test_stated_weights_without_inputs_are_not_checked() -> None:
    assert _missing("intro\n\n注意力权重： $[0.5, 0.5]$\n") == [("missing-input", "0.5", 3)]


def test_nothing_stated_nothing_reported() -> None:
    assert _missing("$1 + 1 = 2$\n") == []


def test_named_weights_that_do_not_sum_to_one() -> None:
    u = understood("$$weights = [0.50, 0.60]$$\n")
    found, notes = unnormalized(u.facts, frozenset())
    assert [(f.code, f.claimed) for f in found] == [
        ("not-normalized", "0.50 + 0.60"),
        ("not-normalized", "0.60"),
    ]
    assert notes == []


def test_weights_that_sum_to_one_are_fine() -> None:
    u = understood("$$weights = [0.5, 0.5]$$\n")
    assert unnormalized(u.facts, frozenset()) == ([], [])


def _sums(text: str) -> tuple[list[str], list[str]]:
    u = understood(text)
    found, notes = unnormalized(u.facts, frozenset())
    return [f.claimed for f in found], [english(n.reason) for n in notes]


#: three keys given as numbered vectors (no query: no problem is rebuilt)
_KEYS = "$$k_1 = [1, 0]$$\n\n$$k_2 = [0, 1]$$\n\n$$k_3 = [1, 1]$$\n\n"


def test_keys_are_counted_from_the_given_inputs() -> None:
    assert key_counts(understood(_KEYS).facts) == frozenset({3})
    matrix = "$$K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n"
    assert key_counts(understood(matrix).facts) == frozenset({2})
    assert key_counts(understood("$$weights = [0.5, 0.5]$$\n").facts) == frozenset()


def test_a_row_of_another_width_than_the_keys_is_no_row_of_weights() -> None:
    # (three keys: a two-entry row is a vector of the values' width, whatever it is called)
    claimed, notes = _sums(_KEYS + "$$weights = [0.599, 0.802]$$\n")
    assert claimed == []
    assert notes and "2 entries" in notes[0] and "3 keys" in notes[0]
    claimed, notes = _sums(_KEYS + "$$weights = [0.1, 0.2, 0.3]$$\n")
    assert claimed == ["0.1 + 0.2 + 0.3", "0.2", "0.3"] and notes == []


def test_a_matrix_most_of_whose_rows_do_not_sum_to_one_is_not_accused() -> None:
    most = "$$weights = \\begin{bmatrix} 0.1 & 0.2 \\\\ 0.3 & 0.4 \\\\ 0.5 & 0.5 \\end{bmatrix}$$\n"
    claimed, notes = _sums(most)
    assert claimed == [] and "2 of its 3 rows" in notes[0]
    one = "$$weights = \\begin{bmatrix} 0.1 & 0.2 \\\\ 0.6 & 0.4 \\\\ 0.5 & 0.5 \\end{bmatrix}$$\n"
    claimed, notes = _sums(one)
    assert claimed == ["0.1 + 0.2", "0.2"] and notes == []


def test_a_row_no_single_slip_explains_is_not_accused() -> None:
    claimed, notes = _sums("$$weights = [0.9, 0.8, 0.7]$$\n")
    assert claimed == [] and "no one slip" in notes[0]


def _placed(text: str, accused: set[str], right: set[str]) -> list[tuple[str, str]]:
    """The not-normalized findings of ``text``'s one row, with the numbers written ``accused``
    and ``right`` (by their text) taken as already accused and judged right."""
    u = understood(text)
    spots = [s for f in u.facts for s in f.spots if s is not None]
    where = {s.written.text: (s.line, s.column) for s in spots}
    found, _ = unnormalized(
        u.facts,
        frozenset(),
        accused=frozenset(where[t] for t in accused),
        right=frozenset(where[t] for t in right),
    )
    return [
        (f.claimed, next(t for t, p in where.items() if p == (f.line, f.column))) for f in found
    ]


_ROW = "$$weights = [0.50, 0.60, 0.30]$$\n"


def test_a_row_sum_stands_on_the_entries_already_accused() -> None:
    assert _placed(_ROW, {"0.60"}, {"0.50", "0.30"}) == [("0.50 + 0.60 + 0.30", "0.60")]


def test_a_row_sum_never_stands_on_an_entry_judged_right() -> None:
    assert _placed(_ROW, set(), {"0.50"}) == [("0.50 + 0.60 + 0.30", "0.60"), ("0.30", "0.30")]
    assert _placed(_ROW, set(), {"0.50", "0.60", "0.30"}) == []


def test_a_row_sum_is_a_cause_of_its_wrong_entries_in_the_report() -> None:
    r = audit(
        "Attention weights:\n\n$$weights = \\text{softmax}([1, 0]) \\approx [0.7311, 0.2700]$$\n"
    )
    assert [
        (f.code, f.claimed, f.alternatives) for f in r.findings if f.code != "missing-input"
    ] == [("wrong-value", "0.2700", ("not-normalized",))]


def test_a_weight_column_of_a_table_that_cannot_sum_to_1_is_not_normalized() -> None:
    # the column's heading is the author's own name for it (no inputs to compute them from)
    text = "| token | Weight |\n|---|---|\n| a | 0.4159 |\n| b | 0.2791 |\n| c | 0.3150 |\n"
    found = [f for f in audit(text, path="t.md").findings if f.severity == "error"]
    assert [f.code for f in found] == ["not-normalized"] * 3
    right = text.replace("0.3150", "0.3050")
    assert not [f for f in audit(right, path="t.md").findings if f.code == "not-normalized"]


def test_causal_weights_by_their_name_are_checked_against_the_mask() -> None:
    # no inputs: only what the causal mask decides is judged (0 for later keys, 1 first)
    text = (
        "Causal attention weights:\n\n```\n[[0.9 0.1 0.0]\n [0.5 0.5 0.0]\n [0.2 0.3 0.5]]\n```\n"
    )
    found = [(f.claimed, f.code, f.message.key) for f in audit(text, path="t.md").findings]
    assert ("0.9", "wrong-value", "causal-first") in found
    assert ("0.1", "wrong-value", "causal-masked") in found
    assert not [c for c, code, _ in found if c in ("0.5", "0.2", "0.3") and code == "wrong-value"]
    plain = text.replace("Causal attention weights", "Attention weights")
    assert not [f for f in audit(plain, path="t.md").findings if f.code == "wrong-value"]
