"""Tests of symattn.read.accuse: findings only inside a confirmed structure."""

from __future__ import annotations

from dataclasses import replace

from symattn.judge.findings import Finding, Message, SpecLocation
from symattn.read.accuse import fact_tallies, tentative, unconfirmed
from symattn.read.audit import audit
from symattn.read.kinds import RoleSource
from symattn.read.placing import Place
from symattn.read.reproduce import Tally

from ..conftest import english
from .texts import understood

QKV = "Q = [[1, 0], [0, 1]]\n\nK = [[1, 0], [0, 1]]\n\nV = [[1, 2], [3, 4]]\n\n"


def _wrong(place: Place, code: str = "wrong-value") -> Finding:
    return Finding(code, "error", SpecLocation(*place), "1", "2", "2", Message("check", code))


def _owner(n: int, fact: int, first: int = 0) -> dict[Place, int]:
    return {("weights", ("a", str(j))): fact for j in range(first, first + n)}


def test_tallies_count_what_check_found_unexplained() -> None:
    owner = {**_owner(3, 0), **_owner(2, 1, first=3)}
    found = [_wrong(("weights", ("a", "0"))), _wrong(("weights", ("a", "3")), "truncated")]
    assert fact_tallies(owner, found) == {0: Tally(2, 3), 1: Tally(2, 2)}


def test_a_word_only_role_the_numbers_contradict_is_not_accused() -> None:
    text = QKV + "Scores: [[1, 0], [0, 1]]\n\nThe next step gives the attention weights:\n\n"
    text += "[[5, 6], [7, 8]]\n\nWeights: [[0.670, 0.330], [0.330, 0.670]]\n"
    report = audit(text, path="t.md")
    assert not [f for f in report.findings if f.severity == "error"]
    # (its numbers say more: 5 is no share of 1)
    (note,) = [u for u in report.unparsed if u.reason.key == "no-weight"]
    assert note.line == 11 and "holds 5" in english(note.reason)


def test_a_word_only_row_of_small_numbers_that_do_not_reproduce_is_not_accused() -> None:
    text = QKV + "Scores: [[1, 0], [0, 1]]\n\nThe next step gives the attention weights:\n\n"
    text += "[[0.5, 0.6], [0.7, 0.8]]\n\nWeights: [[0.670, 0.330], [0.330, 0.670]]\n"
    report = audit(text, path="t.md")
    assert not [f for f in report.findings if f.severity == "error"]
    (note,) = [u for u in report.unparsed if "do not reproduce" in english(u.reason)]
    assert note.line == 11 and "0 of 4 entries" in english(note.reason)


def test_the_same_numbers_named_by_the_author_are_accused() -> None:
    text = QKV + "Scores: [[1, 0], [0, 1]]\n\nP = [[5, 6], [7, 8]]\n"
    codes = {f.code for f in audit(text, path="t.md").findings if f.severity == "error"}
    assert "wrong-value" in codes


def test_one_wrong_entry_in_a_confirmed_array_is_accused() -> None:
    text = QKV + "The attention weights:\n\n[[0.670, 0.330], [0.330, 0.680]]\n"
    report = audit(text, path="t.md")
    assert [(f.code, f.claimed) for f in report.findings if f.code == "wrong-value"] == [
        ("wrong-value", "0.680")
    ]


def test_unconfirmed_says_why_with_the_closest_relation() -> None:
    text = QKV + "The attention weights:\n\n[[1, 2], [3, 4.5]]\n"
    u = understood(text)
    (p, *_) = u.problems
    owner = dict(p.owner)
    i = next(iter(owner.values()))
    found = [_wrong(pl) for pl in owner]
    reasons = unconfirmed(owner, found, u.facts)
    assert "closest: same of V (3 of 4 entries)" in english(reasons[i])
    named = [replace(f, source=RoleSource.NAME) for f in u.facts]
    assert unconfirmed(owner, found, named) == {}


def test_a_small_array_in_a_problem_nothing_confirms_is_not_accused() -> None:
    # two scores, neither right (q K^T = [1, 0]), named by the words before them only
    text = "q = [1, 0]\n\nK = [[1, 0], [0, 1]]\n\nV = [[1, 2], [3, 4]]\n\nThe scores:\n\n[5, 6]\n"
    report = audit(text, path="t.md")
    assert not [f for f in report.findings if f.severity == "error"]
    (note,) = [u for u in report.unparsed if u.reason.key == "too-few"]
    assert note.line == 9 and "0 of 2 entries" in english(note.reason)


def test_a_small_array_beside_confirmed_numbers_is_accused() -> None:
    text = "q = [1, 0]\n\nK = [[1, 0], [0, 1]]\n\nV = [[1, 2], [3, 4]]\n\nThe scores:\n\n[5, 6]\n"
    u = understood(text)
    (p, *_) = u.problems
    (small,) = set(p.owner.values())
    found = [_wrong(place) for place in p.owner]
    assert small in unconfirmed(p.owner, found, u.facts)
    # the same two numbers in a problem whose other numbers (4 entries) reproduce
    rest = {("scores", ("b", str(j))): 99 for j in range(4)}
    assert small not in unconfirmed({**p.owner, **rest}, found, u.facts)


def test_a_start_not_checked_or_a_repeat_with_other_values_is_a_tentative_place() -> None:
    u = understood(QKV + "Weights: [[0.7, 0.3], [0.3, 0.7]]\n")
    spots = {("weights", ("a", str(j))): s for j, s in enumerate(u.facts[-1].spots) if s}
    held = {place: "0.5" for place in spots}
    same = {place: spot.written.text for place, spot in spots.items()}
    assert tentative(0, (7,), {}, {}, frozenset({7}))  # (built on an array not checked)
    assert not tentative(0, (7,), spots, held, frozenset())  # (the first layer: its own)
    assert tentative(1, (), spots, held, frozenset())  # (other values where layer 0 holds)
    assert not tentative(1, (), spots, same, frozenset())  # (the same again)
    assert not tentative(1, (), spots, {}, frozenset())  # (layer 0 holds nothing there)


def test_a_named_claim_in_a_tentative_place_that_nothing_confirms_is_not_accused() -> None:
    u = understood(QKV + "Weights: [[0.7, 0.2], [0.2, 0.7]]\n")
    i = next(k for k, f in enumerate(u.facts) if f.role is not None and f.role.value == "weights")
    owner = {("weights", ("a", str(j))): i for j in range(3)}
    found = [_wrong(p) for p in owner]
    named = [replace(f, source=RoleSource.NAME) for f in u.facts]
    assert unconfirmed(owner, found, named) == {}
    assert i in unconfirmed(owner, found, named, tentative=True)


#: row 1 worked in the stated frame, then the same row again without the scaling, its sum
#: computed by a formula from the unscaled exponentials
UNSCALED_AGAIN = (
    "$$\nQ = K = V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 0.5 & 0.5 \\end{bmatrix}, \\quad d_k = 2\n$$\n\n"
    "Scaled scores of row 1: $[0.7071,\\ 0,\\ 0.3536]$\n\n"
    "$$\ne^{0.7071} \\approx 2.0281,\\qquad e^0 = 1,\\qquad e^{0.3536} \\approx 1.4242\n$$\n\n"
    "$$\nZ_1 = 2.0281 + 1 + 1.4242 = 4.4523\n$$\n\n"
    "## Without the scaling\n\nRow 1 would be $[1,\\ 0,\\ 0.5]$:\n\n"
    "$$\ne^1 \\approx 2.7183,\\qquad e^0 = 1,\\qquad e^{0.5} \\approx 1.6487\n$$\n\n"
    "$$\nZ = 2.7183 + 1 + 1.6487 = 5.3670\n$$\n"
)


def test_a_number_its_own_formula_computes_is_not_accused_where_the_problem_disagrees() -> None:
    report = audit(UNSCALED_AGAIN, path="t.md")
    assert [f.claimed for f in report.findings if f.severity == "error"] == []
    (why,) = [u for u in report.unparsed if u.reason.key == "own-formula"]
    assert why.line == UNSCALED_AGAIN.count("\n", 0, UNSCALED_AGAIN.index("Z = 2.7183")) + 1


def test_an_exponential_of_another_number_is_not_accused_at_the_place_it_was_given() -> None:
    # (``e^{0.1}`` pools an index weight: its exponent is no scaled score of this problem)
    text = (
        "$$\nq = [1, 0], \\quad K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad "
        "V = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}, \\quad d_k = 2\n$$\n\n"
        "Scaled scores: $[0.7071, 0]$.\n\n"
        "$$\ne^{0.1}=1.105,\\ e^{0.2}=1.221\n$$\n"
    )
    report = audit(text, path="t.md")
    assert [f.claimed for f in report.findings if f.severity == "error"] == []
    assert "e^{0.1}" in [u.text for u in report.unparsed if u.reason.key == "foreign-exponent"]
    # (an exponential of its place's scaled score written wrong is still accused)
    wrong = text.replace("e^{0.1}=1.105", "e^{0.7071}=2.128")
    assert "2.128" in [f.claimed for f in audit(wrong, path="t.md").findings]
