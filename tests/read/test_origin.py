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


#: cross-attention without row labels: a decoder's X_q, an encoder's X, the three W;
#: Q = X_q W_Q = [[2, 1], [1, 2]], K = X W_K = [[1, 0], [0, 1], [1.5, 1.5]]
CROSS = (
    "X_q = [[1, 0, 1], [0, 1, 1]]\n\nX = [[1, 0, 0], [0, 1, 0], [1, 1, 1]]\n\n"
    "W_Q = [[1, 0], [0, 1], [1, 1]]\n\nW_K = [[1, 0], [0, 1], [0.5, 0.5]]\n\n"
    "W_V = [[2, 0], [0, 2], [1, 1]]\n\n"
)


def test_cross_attention_without_row_labels_is_judged_as_cross_attention() -> None:
    """No names tell the queries from the keys: X W_Q (self-attention) gives 3 rows where the
    text writes 2; X_q W_Q reproduces them, so the problem is the cross-attention's."""
    right = CROSS + "scores = [[2, 1, 4.5], [1, 2, 4.5]]\n"
    report = audit(right, path="t.md")
    assert _errors(right) == [] and report.checked == 6
    assert report.recognised is not None and report.recognised.q == ("q1", "q2")
    assert _errors(CROSS + "scores = [[2, 1, 4.5], [1, 2, 6]]\n") == [("wrong-value", "6")]


def test_cross_attention_with_q_computed_from_x_q_and_k_v_from_x() -> None:
    text = (
        CROSS + "Q = [[2, 1], [1, 2]]\n\nK = [[1, 0], [0, 1], [1.5, 1.5]]\n\n"
        "V = [[2, 0], [0, 2], [3, 3]]\n\nscores = [[2, 1, 4.5], [1, 2, 6]]\n"
    )
    assert _errors(text) == [("wrong-value", "6")]


def test_cross_attention_with_row_labels() -> None:
    je = r"\begin{array}{r}\text{Je} \\ \text{suis}\end{array}"
    en = r"\begin{array}{r}\text{I} \\ \text{am} \\ \text{happy}\end{array}"
    text = (
        f"$$X_q = {je} \\begin{{bmatrix}} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\end{{bmatrix}}$$\n\n"
        f"$$X = {en} \\begin{{bmatrix}} 1 & 0 & 0 \\\\ 0 & 1 & 0 \\\\ 1 & 1 & 1 "
        "\\end{bmatrix}$$\n\n" + CROSS.split("\n\n", 2)[2] + "scores = [[2, 1, 4.5], [1, 2, 6]]\n"
    )
    report = audit(text, path="t.md")
    assert _errors(text) == [("wrong-value", "6")]
    assert report.recognised is not None and report.recognised.q == ("Je", "suis")


#: Q, K, V given, and an X (four tokens) with W's that are not theirs: Q K^T =
#: [[3, 4, 1], [1, 2, 0], [2, 0, 2]]
DECOY = (
    "X = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [2, 0, 1]]\n\n"
    + CROSS.split("\n\n", 2)[2]
    + "Q = [[1, 2], [0, 1], [2, 0]]\n\nK = [[1, 1], [0, 2], [1, 0]]\n\n"
    "V = [[1, 0], [0, 1], [1, 1]]\n\n"
)


def test_given_q_k_v_beside_an_unrelated_x_are_the_problem() -> None:
    assert _errors(DECOY + "scores = [[3, 4, 1], [1, 2, 0], [2, 0, 2]]\n") == []
    assert _errors(DECOY + "scores = [[3, 4, 1], [1, 2, 0], [2, 0, 7]]\n") == [("wrong-value", "7")]
    same = DECOY.replace(", [2, 0, 1]]", "]")  # (an X of as many tokens: the same)
    assert _errors(same + "scores = [[3, 4, 1], [1, 2, 0], [2, 0, 7]]\n") == [("wrong-value", "7")]


#: X W: Q = [[2, 1], [0, 1], [1, 1]], K = [[1.5, 0.5], [0, 1], [1, 1]],
#: V = [[3, 1], [0, 2], [2, 2]]; the author's Q has row 2 wrong ([2, 1]), and the scores are
#: right for that Q: [[3.5, 1, 3], [3.5, 1, 3], [2, 1, 2]] (X W gives row 2 [0.5, 1, 1])
SLIP_Q = (
    "X = [[1, 0, 1], [0, 1, 0], [1, 1, 0]]\n\n"
    + CROSS.split("\n\n", 2)[2]
    + "Q = [[2, 1], [2, 1], [1, 1]]\n\nK = [[1.5, 0.5], [0, 1], [1, 1]]\n\n"
    "V = [[3, 1], [0, 2], [2, 2]]\n\nscores = [[3.5, 1, 3], [3.5, 1, 3], [2, 1, 2]]\n"
)


def test_an_author_s_wrong_q_given_beside_x_w_is_accused_and_its_scores_carried() -> None:
    """The scores reproduce from the given Q, K, V; but those are X W's projections (K, V
    and most of Q): the structure is X W, the Q row is the author's slip, and the scores
    computed from it are carried, not accused."""
    report = audit(SLIP_Q, path="t.md")
    found = [(f.code, f.claimed, f.line) for f in report.findings if f.severity != "info"]
    assert ("wrong-value", "2", 9) in found
    carried = [c for c, _, line in found if line == 15]
    assert carried and set(carried) == {"propagated-error"}
    assert not [c for c, _, line in found if line == 15 and c == "wrong-value"]


def test_a_claim_no_candidate_reproduces_is_not_checked_when_they_disagree() -> None:
    """X W and the given Q, K, V (another example's) give different scores, neither gives
    these, and no neighbour confirms either: not checked, with the reason."""
    text = (
        "X = [[1, 0, 1], [0, 1, 0], [1, 1, 0]]\n\n"
        + CROSS.split("\n\n", 2)[2]
        + "Q = [[1, 2], [0, 1], [2, 0]]\n\nK = [[1, 1], [0, 2], [1, 0]]\n\n"
        "V = [[1, 0], [0, 1], [1, 1]]\n\nscores = [[7, 1, 3], [2, 9, 4], [5, 5, 8]]\n"
    )
    report = audit(text, path="t.md")
    assert _errors(text) == []
    assert any("which inputs" in u.reason for u in report.unparsed)


def test_a_decoder_s_states_and_an_encoder_s_memory_beside_w_are_projected() -> None:
    """Read by their names as Q and as keys and values; with the three W given, their
    numbers say they are the X of each side: Q = decoder_states W_Q, K = memory W_K."""
    text = (
        "decoder_states = [[1, 0, 1], [0, 1, 1]]\n\nmemory = [[1, 0, 0], [0, 1, 0], [1, 1, 1]]\n\n"
        + CROSS.split("\n\n", 2)[2]
    )
    assert _errors(text + "scores = [[2, 1, 4.5], [1, 2, 4.5]]\n") == []
    assert _errors(text + "scores = [[2, 1, 4.5], [1, 2, 6]]\n") == [("wrong-value", "6")]
