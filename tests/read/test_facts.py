"""Tests of symattn.read.facts: every array and number a text states, with its role."""

from __future__ import annotations

import pytest

from symattn.read.audit import audit

from .texts import INPUTS, understood


def roles(text: str, fmt: str = "markdown") -> list[tuple[str, tuple[int, ...], bool]]:
    return [(f.role, f.dims, f.given) for f in understood(text, fmt).facts]


def test_inputs_are_given_and_results_stated() -> None:
    got = roles(INPUTS + "\n$$softmax = [0.8930, 0.1070]$$\n")
    assert got[:5] == [
        ("q", (2,), True),
        ("k", (2,), True),
        ("k", (2,), True),
        ("v", (2,), True),
        ("v", (2,), True),
    ]
    assert got[-1] == ("weights", (2,), False)


def test_unknown_role_is_kept_without_one() -> None:
    assert roles("```\n[[0.5, 0.5]]\n```\n") == [(None, (2,), False)]


def test_a_matrix_of_one_row_is_a_vector() -> None:
    assert roles("$$w = \\begin{bmatrix} 0.5 \\\\ 0.5 \\end{bmatrix}$$\n")[0][1] == (2,)


def test_positions_of_every_entry() -> None:
    text = "q_1 = [1, 2]\n"
    (f,) = understood(text, "text").facts
    assert [(s.line, s.column) for s in f.spots if s is not None] == [(1, 8), (1, 11)]


def test_q_equals_k_equals_v() -> None:
    text = "```python\nQ = K = V = [[1, 0], [0, 1]]\n```\n"
    assert sorted(r for r, _, _ in roles(text)) == ["k", "q", "v"]


def test_a_score_names_its_row_and_key() -> None:
    (f,) = [f for f in understood("$score(它,动物) = 0.47 \\times 0.22 = 0.1034$\n").facts]
    assert (f.role, f.token, f.col) == ("scores", "它", "动物")


@pytest.mark.parametrize(
    ("sentence", "divisor"),
    [("为简化演示，此处假设根号后为2。", "2"), ("The square root of d_k is 1.41 here.", "1.41")],
)
def test_a_divisor_said_in_words_is_a_divisor_claim(sentence: str, divisor: str) -> None:
    u = understood(INPUTS + "\n" + sentence + "\n", "text")
    (f,) = [f for f in u.facts if f.role == "divisor"]
    assert (f.how, f.dims, [s.written.text for s in f.spots if s]) == ("text", (), [divisor])
    assert u.src.text[f.at : f.at + len(divisor)] == divisor


def test_an_input_written_after_a_projection_is_computed() -> None:
    # held-out zh30: `Q = XW_Q = [[1,2],[4,3]]` claims Q = X·W_Q (and is wrong), it gives no Q
    got = roles("$$Q = XW_Q = \\begin{bmatrix} 1 & 2 \\\\ 4 & 3 \\end{bmatrix}$$\n")
    assert got == [("q", (2, 2), False)]
    assert roles("$$Q = \\begin{bmatrix} 1 & 2 \\\\ 4 & 3 \\end{bmatrix}$$\n") == [
        ("q", (2, 2), True)
    ]
    assert roles("$$Q = K = \\begin{bmatrix} 1 & 2 \\\\ 4 & 3 \\end{bmatrix}$$\n")[0][2]


def test_a_wrong_projection_is_found_and_what_follows_carried() -> None:
    text = (
        "$$X = \\begin{bmatrix} 1 & 2 & 3 & 4 \\\\ 4 & 3 & 2 & 1 \\end{bmatrix}$$\n\n"
        "$$W_Q = W_V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 0 \\\\ 0 & 1 \\end{bmatrix},"
        " W_K = \\begin{bmatrix} 0 & 1 \\\\ 1 & 0 \\\\ 0 & 1 \\\\ 1 & 0 \\end{bmatrix}$$\n\n"
        "$$Q = XW_Q = \\begin{bmatrix} 1 & 2 \\\\ 4 & 3 \\end{bmatrix}, "
        "K = XW_K = \\begin{bmatrix} 2 & 1 \\\\ 3 & 4 \\end{bmatrix}, "
        "V = XW_V = \\begin{bmatrix} 1 & 2 \\\\ 4 & 3 \\end{bmatrix}$$\n\n"
        "$$QK^T = \\begin{bmatrix} 4 & 11 \\\\ 11 & 24 \\end{bmatrix}$$\n"
    )
    found = [(f.line, f.code) for f in audit(text).findings]
    assert [c for line, c in found if line == 5].count("wrong-value") == 12
    assert [c for line, c in found if line == 7] == ["propagated-error"] * 4


def test_a_number_in_the_name_of_a_matrix_names_no_row_of_it() -> None:
    u = understood("Q_1 = [[1, 0], [0, 1]]\n\nq_1 = [1, 0]\n\n$K_2 = [[1, 2]]$\n")
    matrix, vector, one_row = u.facts
    assert (matrix.role, matrix.index, matrix.head) == ("q", None, 1)
    assert (vector.role, vector.index) == ("q", 1)
    assert (one_row.dims, one_row.index) == ((2,), 2)  # (a 1×2 matrix is a vector: key 2's)


def test_a_stage_the_line_above_names_is_a_word_not_a_name() -> None:
    # (the chain names no stage of its own: the ``softmax`` of the line above is the prose's
    # word for it, which the numbers may overrule and no accusation rests on alone)
    text = "```\nsoftmax ≈ [0.4, 0.6]\nrow1 = 0.4·a + 0.6·b ≈ [0.599, 0.802]\n```\n"
    last = understood(text).facts[-1]
    assert (last.role, last.source) == ("weights", "context")
    named = understood("```\nsoftmax ≈ [0.4, 0.6]\n```\n").facts[-1]
    assert (named.role, named.source) == ("weights", "name")


def test_a_printed_row_label_says_its_query_row() -> None:
    text = (
        "Q = [[1, 0], [0, 1]]\n\nK = [[1, 0], [0, 1]]\n\nAttention weights:\n\n"
        "```\nPosition 0: [0.67, 0.33]\nPosition 1: [0.33, 0.67]\n```\n"
    )
    rows = [f.index for f in understood(text).facts if f.role == "weights"]
    assert rows == [0, 1]


def test_notes_that_repeat_are_no_row_names() -> None:
    text = "```python\nK = np.array([\n    [0.5, 1.0],  # Key\n    [1.2, 0.8],  # Key\n])\n```\n"
    (k,) = [f for f in understood(text).facts if f.role == "k"]
    assert k.row_names == ()


def test_the_step_after_a_divisor_is_the_scores_divided_by_it() -> None:
    """``√d_k = √2 ≈ 1.41 → [0.47, 0.75, 0.27]``: the array after the step is the scaled
    scores (a divisor is one number); the 1.41 stays the divisor."""
    facts = understood("$√d_k = √2 ≈ 1.41 → [0.47, 0.75, 0.27]$\n").facts
    assert sorted((f.role, f.dims) for f in facts) == [("divisor", ()), ("scaled", (3,))]


def test_a_row_written_out_as_a_weights_row_times_v_is_that_rows_output() -> None:
    text = (
        "$$A = \\begin{bmatrix} 0.2 & 0.8 \\\\ 0.6 & 0.4 \\end{bmatrix}$$\n\n"
        "$$V = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}$$\n\nRow 2:\n\n"
        "$$[0.6(1) + 0.4(3), \\;\\; 0.6(2) + 0.4(4)] = [2.6, 2.8]$$\n"
    )
    (f,) = [f for f in understood(text).facts if f.dims == (2,)]
    assert (f.role, f.index, f.source) == ("output", 2, "reproduced")
    # (the same row with factors the text does not write: no role from the numbers)
    other = text.replace(
        "0.6(1) + 0.4(3), \\;\\; 0.6(2) + 0.4(4)", "0.7(1) + 0.3(3), 0.7(2) + 0.3(4)"
    )
    (g,) = [f for f in understood(other).facts if f.dims == (2,)]
    assert g.role is None


@pytest.mark.parametrize(
    ("text", "role", "index"),
    [
        # a name numbered by its digits, after a label or a few words
        ("Keys:  K1 = [1, 0],  K2 = [0, 1]\n", "k", 1),
        ("Keys are k1 = [1, 0], k2 = [0, 1]\n", "k", 1),
        ("weight1 = 0.5\n", "weights", None),
    ],
)
def test_numbered_names_say_their_role(text: str, role: str, index: int | None) -> None:
    f = understood(text).facts[0]
    assert (f.role, f.index) == (role, index)


def test_one_term_of_a_weighted_sum_is_no_stage_the_words_name() -> None:
    text = "We multiply each value by its attention weight:\n\n`0.39 * v1 = 0.39 * [0, 1, 1] = [0, 0.39, 0.39]`\n"
    assert [f.role for f in understood(text).facts if f.dims == (3,)][0] is None


def test_a_layer_s_parameter_is_no_stage_its_words_name() -> None:
    text = "注意力权重矩阵为 $W_a = [0.1, 0.2, 0.3]$。\n"
    assert [f.role for f in understood(text).facts] == [None]


def test_the_notes_after_an_array_s_rows_name_them_blanks_as_one() -> None:
    text = "```python\ninputs = [[0.43, 0.15], # Your     (x^1)\n          [0.55, 0.87]] # journey  (x^2)\n```\n"
    (f,) = [f for f in understood(text).facts if f.name == "inputs"]
    assert f.row_names == ("Your (x^1)", "journey (x^2)")
