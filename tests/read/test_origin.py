"""Tests of symattn.read.origin: the inputs a claim comes from, decided by its numbers."""

from __future__ import annotations

from symattn.read.audit import audit
from symattn.read.dataflow import Derivation
from symattn.read.inputs import default, gather
from symattn.read.origin import Origins
from symattn.read.reproduce import frames

from .texts import understood

#: Q, K, V of the whole model, then each head's own (Q_1 K_1^T = [[1, 3], [2, 4]],
#: Q_2 K_2^T = [[0, 2], [2, 0]]); the heads' scores are written after both heads' inputs
HEADS = (
    "Q = [[1, 1], [1, 1]]\n\nK = [[1, 0], [0, 1]]\n\nV = [[1, 0], [0, 1]]\n\n"
    "Q_1 = [[1, 0], [0, 1]]\n\nK_1 = [[1, 2], [3, 4]]\n\nV_1 = [[1, 0], [0, 1]]\n\n"
    "Q_2 = [[2, 0], [0, 2]]\n\nK_2 = [[0, 1], [1, 0]]\n\nV_2 = [[1, 1], [0, 1]]\n\n"
)

#: X W^T: Q = [[1, 3], [2, 4], [3, 7]], K = [[0, 1], [1, 0], [1, 1]]
XW = (
    "X = [[1, 0], [0, 1], [1, 1]]\n\nW_Q = [[1, 2], [3, 4]]\n\n"
    "W_K = [[0, 1], [1, 0]]\n\nW_V = [[1, 0], [0, 1]]\n\n"
)


def _errors(text: str) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in audit(text, path="t.md").findings if f.severity == "error"]


def test_each_head_is_judged_with_the_inputs_its_numbers_come_from() -> None:
    text = HEADS + "$Q_1 K_1^T = [[1, 3], [2, 4]]$\n\n$Q_2 K_2^T = [[0, 2], [2, 0]]$\n"
    assert _errors(text) == []


def test_a_slip_inside_a_head_is_still_accused_alone() -> None:
    text = HEADS + "$Q_1 K_1^T = [[1, 3], [2, 5]]$\n\n$Q_2 K_2^T = [[0, 2], [2, 0]]$\n"
    assert _errors(text) == [("wrong-value", "5")]


def test_names_only_order_the_readings_the_numbers_decide() -> None:
    # the claim calls itself head 2's, but its numbers are Q_1 K_1^T
    text = HEADS + "$Q_2 K_2^T = [[1, 3], [2, 4]]$\n"
    assert _errors(text) == []


def test_weights_written_transposed_are_read_as_x_w_transposed() -> None:
    text = XW + "scores = [[3, 1, 4], [4, 2, 6], [7, 3, 10]]\n"
    assert _errors(text) == []
    u = understood(text)
    assert u.problems and all(
        isinstance(p.group[0], Derivation) and p.group[0].w_t for p in u.problems
    )


def test_a_claim_no_reading_reproduces_keeps_the_default() -> None:
    text = XW + "scores = [[30, 10, 40], [40, 20, 60], [70, 30, 100]]\n"
    u = understood(text)
    inputs = gather(u.facts)
    f = next(f for f in u.facts if f.role == "scores")
    got = default(u.facts, inputs, f)
    assert got is not None
    assert Origins(inputs, frames([2])).of(f, got) == got


def test_the_default_is_kept_when_it_reproduces_every_entry() -> None:
    text = XW + "scores = [[2, 1, 3], [4, 3, 7], [6, 4, 10]]\n"  # X W, not X W^T
    u = understood(text)
    inputs = gather(u.facts)
    f = next(f for f in u.facts if f.role == "scores")
    got = default(u.facts, inputs, f)
    assert got is not None and not got[0].w_t
    assert Origins(inputs, frames([2])).of(f, got) == got
    assert _errors(text) == []


def test_the_search_stops_at_its_budget() -> None:
    text = XW + "scores = [[3, 1, 4], [4, 2, 6], [7, 3, 10]]\n"
    u = understood(text)
    inputs = gather(u.facts)
    f = next(f for f in u.facts if f.role == "scores")
    got = default(u.facts, inputs, f)
    assert got is not None
    assert Origins(inputs, frames([2]), budget=0).of(f, got) == got


#: a text that starts from the scores: two tokens' scores, each followed by its softmax
_SCORES = (
    "Scores of token A: [1, 0, -1, 2]\n\nSoftmax: [0.2369, 0.0871, 0.0321, 0.6439]\n\n"
    "Scores of token B: [0.5, 1, 0, 1.5]\n\nSoftmax: [0.1674, 0.2760, 0.1015, 0.4551]\n\n"
)


def test_weights_with_their_own_toy_numbers_are_not_paired_with_far_scores() -> None:
    """A weights row written after other weights, whose numbers no scores before it give, is
    no claim about the scores written last: not judged (zh34)."""
    text = _SCORES + "A toy example with its own numbers: weights [0.40, 0.30, 0.20, 0.10]\n"
    assert _errors(text) == []


def test_far_weights_are_paired_with_the_scores_their_numbers_come_from() -> None:
    """The same row, from token A's scores with one slip: those scores reproduce it, so it
    is judged against them and the slip is accused."""
    text = _SCORES + "Again, the weights of token A: [0.2369, 0.0871, 0.0321, 0.6539]\n"
    assert ("wrong-value", "0.6539") in _errors(text)


def test_weights_right_after_their_scores_are_judged_even_when_all_wrong() -> None:
    text = "Scores: [1, 0, -1, 2]\n\nSoftmax: [0.30, 0.20, 0.10, 0.40]\n"
    assert [c for c, _ in _errors(text) if c == "wrong-value"] == ["wrong-value"] * 4


#: Q K^T / √2 row 1 → weights [0.3955, 0.6045]; row 2 → [0.4437, 0.5563]
TWO_QUERIES = (
    "Q = [[1.0, 0.5], [0.8, 1.2]]\n\nK = [[0.5, 1.0], [1.2, 0.8]]\n\nV = [[1, 3], [2, 1]]\n\n"
)


def test_a_row_that_names_no_query_is_placed_by_its_numbers() -> None:
    report = audit(TWO_QUERIES + "Weights: [0.44, 0.56]\n", path="t.md")
    assert report.checked == 2 and not [f for f in report.findings if f.severity != "info"]


def test_a_row_no_query_reproduces_is_not_checked_and_says_why() -> None:
    report = audit(TWO_QUERIES + "Weights: [0.45, 0.55]\n", path="t.md")
    assert [f.code for f in report.findings] == ["missing-input"]
    message = report.findings[0].message
    assert message is not None and message.key == "missing-placed"


def test_x_itself_as_q_k_v_is_tried_beside_the_projections() -> None:
    # Q = K = V = X, although W's were given earlier: X X^T = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
    text = XW + "Here $Q = K = V = X$:\n\nscores = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]\n"
    assert _errors(text) == []


#: X with each head's own projections (head 1: Q = [[1, 1], [0, 1], [1, 2]], K = [[1, 0],
#: [1, 1], [2, 1]], scores [[1, 2, 3], [0, 1, 1], [1, 3, 4]]; head 2: scores [[0, 2, 2],
#: [2, 0, 2], [2, 2, 4]]), both given before the claims
TWO_HEADS_XW = (
    "X = [[1, 0], [0, 1], [1, 1]]\n\n"
    "W_Q_1 = [[1, 1], [0, 1]]\n\nW_K_1 = [[1, 0], [1, 1]]\n\nW_V_1 = [[1, 0], [0, 1]]\n\n"
    "W_Q_2 = [[0, 1], [1, 0]]\n\nW_K_2 = [[2, 0], [0, 2]]\n\nW_V_2 = [[0, 1], [1, 0]]\n\n"
)


def test_scores_are_judged_with_the_projections_their_numbers_come_from() -> None:
    # (the scores name no head: the projections given last, head 2's, are only the default)
    text = TWO_HEADS_XW + "scores = [[1, 2, 3], [0, 1, 1], [1, 3, 4]]\n"
    assert _errors(text) == []


def test_a_slip_is_judged_against_the_projections_the_other_numbers_come_from() -> None:
    text = TWO_HEADS_XW + "scores = [[1, 2, 3], [0, 1, 1], [1, 3, 5]]\n"
    assert _errors(text) == [("wrong-value", "5")]


def test_a_matrix_of_fewer_rows_than_the_scores_is_no_stage_of_them() -> None:
    """Two rows of weights after three rows of scores (zh128's masked example cut short):
    read, judged where it can be, never an IndexError."""
    text = (
        "    scores = [[0.85, 0.12, 0.56], [0.38, 0.73, -0.15], [0.21, 0.44, 0.67]]\n\n"
        "    scaled = [[0.425, 0.060, 0.280], [0.190, 0.365, -0.075], [0.105, 0.220, 0.335]]\n\n"
        "    weights = [[0.39, 0.27, 0.34], [0.34, 0.40, 0.26], [0.30, 0.33, 0.37]]\n\n"
        "    weights = [[0.5, 0.3, 0.2], [0.4, 0.5, 0.1]]\n"
    )
    r = audit(text)
    assert r.checked >= 9 and not [f for f in r.findings if f.line == 5]
