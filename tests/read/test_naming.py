"""Tests of symattn.read.naming: what the words around an array say it is."""

from __future__ import annotations

import pytest

from symattn.read.naming import (
    array_role,
    call_argument,
    row_named,
    softmax_argument,
    softmax_value,
    token_labeled,
)
from symattn.read.roles import Role

from .texts import understood


def roles(text: str, fmt: str = "markdown") -> list[tuple[str, tuple[int, ...], bool]]:
    return [(f.role, f.dims, f.given) for f in understood(text, fmt).facts]


@pytest.mark.parametrize(
    ("names", "label", "context", "expected"),
    [
        (["attn_weights"], "Scores:", "Step 5: Apply Softmax\n", (Role("weights"), "attn_weights")),
        ([], "Scores:", "Step 5: Apply Softmax\n", (Role("scores"), "Scores:")),
        ([], "", "Step 5: Apply Softmax\n", (Role("weights"), "")),
        (["foo"], "", "", (None, "foo")),
        ([], "bar", "", (None, "bar")),
    ],
)
def test_names_come_before_the_label_and_the_label_before_the_prose(
    names: list[str], label: str, context: str, expected: tuple[Role | None, str]
) -> None:
    assert array_role(names, label, context) == expected


@pytest.mark.parametrize(
    ("before", "argument"),
    [
        ("out = attention(", "q"),
        ("out = attention(Q, ", "k"),
        ("attention([1, 2], ", "k"),
        ("out = attention(Q, K, ", "v"),
        ("out = attention(Q, K, V, ", None),  # a fourth argument is no input
        ("out = attention(Q) + (", None),  # the call is closed
        ("x = ", None),
    ],
)
def test_an_array_in_a_call_of_attention_is_the_input_at_its_place(
    before: str, argument: str | None
) -> None:
    assert call_argument(before + "[1, 0]", len(before)) == argument


@pytest.mark.parametrize(
    ("context", "row"),
    [
        ("For the second row:\n", 2),
        ("第三行：\n", 3),
        ("For row 2:", 2),
        ("Scores:\n", None),
    ],
)
def test_the_row_the_prose_before_names(context: str, row: int | None) -> None:
    assert row_named(context) == row


def test_role_from_the_label_of_a_printout() -> None:
    text = "```\nAttention weights: tensor([[0.5, 0.5]])\n```\n"
    assert roles(text) == [("weights", (2,), False)]


def test_role_from_the_prose_before() -> None:
    text = "Step 5: Apply Softmax\n\n```\n[[0.5, 0.5]]\n```\n"
    assert roles(text) == [("weights", (2,), False)]


@pytest.mark.parametrize(
    "echo",
    ["In [16]:\nscaled_scores\n\n", "In [16]: scaled_scores\n\n", ">>> scaled_scores\n"],
)
def test_the_name_a_notebook_echoes_names_the_printout_below(echo: str) -> None:
    # (held-out text en36: the assignment above mentions `scores`; the echo says what is shown)
    text = (
        "dk = Q.shape[-1]\nscaled_scores = scores / np.sqrt(dk)\n\n"
        + echo
        + "array([[1.04644736, 0.65673593],\n       [0.65673593, 1.21965244]])\n"
    )
    assert roles(text) == [("scaled", (2, 2), False)]


@pytest.mark.parametrize(
    ("label", "role", "index"),
    [
        ("q1 的原始分数", "scores", 1),
        ("q_2 attention weights", "weights", 2),
        ("q1 (The)", "q", 1),
        ("K_animal (Exact Match)", "k", None),
    ],
)
def test_a_query_symbol_before_the_words_of_a_later_stage(
    label: str, role: str, index: int | None
) -> None:
    """``q1 的原始分数：[…]``: the words say what the array is, the symbol which row."""
    (f,) = understood(f"```\n{label}：   [2.1, 0.3, 0.1]\n```\n").facts
    assert (f.role, f.index) == (role, index)


def test_an_array_written_as_the_argument_of_softmax_is_its_input() -> None:
    text = "第2行: softmax([0.71, 0.71, 1.41])"
    assert softmax_argument(text, text.index("["))
    assert not softmax_argument("softmax = [0.2, 0.8]", 10)


def test_a_label_of_chained_names_takes_the_role_they_agree_on() -> None:
    role, _ = array_role([], "Scaled = QK^T / 1.41", "")
    assert role is not None and role.role == "scaled"


def test_an_array_after_a_softmax_of_a_vector_is_its_claimed_value() -> None:
    text = "x\nsoftmax([2.0, 1.0, 1.0]) → [0.50, 0.25, 0.25] ← spread out\n"
    assert softmax_value(text, text.index("[0.50")) == "softmax([2.0, 1.0, 1.0]) →"
    # (the argument itself, and an array on the next line, are no such value)
    assert softmax_value(text, text.index("[2.0")) == ""
    assert softmax_value("softmax([1, 2]) →\n[0.27, 0.73]", 18) == ""


@pytest.mark.parametrize(
    ("line", "token"),
    [
        ('Word "cat" → Q = [1, 0], K = [0, 1]', "cat"),
        ("“猫”：Q = [1, 0]", "猫"),
        ('say "cat" and Q = [1, 0]', ""),
        ("Q = [1, 0], K = [0, 1]", ""),
    ],
)
def test_the_token_a_quoted_label_heading_the_line_names(line: str, token: str) -> None:
    # (every vector of the line: the first one's and the last one's)
    assert token_labeled(line, line.index("Q")) == token
    assert token_labeled(line, line.rindex("[") - 4) == token


def test_a_label_of_words_naming_no_stage_takes_no_role_from_the_heading() -> None:
    # token ids under "## Output Example": the author's own label says what they are
    role, name = array_role([], "Input token indices", "## Output Example\nInput token indices:")
    assert role is None and name == "Input token indices"
    role, _ = array_role([], "", "## Output Example\n")
    assert role is not None and role.role == "output"  # (no label: the heading's words)


def test_a_log_tag_before_a_label_is_no_part_of_its_name() -> None:
    role, name = array_role([], "[Decode] Q for last token", "")
    assert role is not None and role.role == "q" and name == "Q for last token"
