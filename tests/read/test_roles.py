"""Tests of symattn.read.roles: what a name or phrase says an array is."""

from __future__ import annotations

import pytest

from symattn.read.roles import Role, clean_name, phrase_role, stage_rank, symbol_role


@pytest.mark.parametrize(
    ("name", "cleaned"),
    [
        ("\\mathbf{W}^{Q}", "w^q"),
        ("\\frac{QK^T}{\\sqrt{d_k}}", "qk^t/√d_k"),
        ("$q_{1}$", "q_1"),
        ("**Attention weights:**", "attention weights"),
        ("k₂", "k2"),
    ],
)
def test_clean_name(name: str, cleaned: str) -> None:
    assert clean_name(name) == cleaned


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("W_Q", Role("w_q")),
        ("attn_weights_2", Role("weights", 2)),
        ("k_{I}", Role("k", token="i")),  # (tokens are compared without case)
        ("K_animal", Role("k", token="animal")),
        ("Q_猫", Role("q", token="猫")),
        ("W_Q1", Role("w_q", head=1)),
        ("score(它,动物)", Role("scores", row="它", col="动物")),
        ("k_1 (Thinking)", Role("k", 1, "Thinking")),
        ("embedding(w_1)", Role("x", token="w_1")),  # (the embedding of word w_1)
        ("Query (Q)", None),  # (the symbol of the same stage: a restatement, no token)
        ("Q for last token", Role("q")),  # (whose it is, in words: no token's name)
        ("q_1 for cat", None),
        ("\\frac{QK^T}{\\sqrt{d_k}}", Role("scaled")),
        ("input_scores", None),
        ("some_function", None),
    ],
)
def test_symbol_role(name: str, role: Role | None) -> None:
    assert symbol_role(name) == role


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("Step 5: Apply Softmax\nAttention weights:", "weights"),
        ("Softmax converts scores to probabilities", "weights"),
        ("注意力权重", "weights"),
        ("上下文向量", "output"),
        ("nothing here", None),
    ],
)
def test_phrase_role_takes_the_last_line_and_latest_stage(text: str, role: str | None) -> None:
    got = phrase_role(text)
    assert (got.role if got else None) == role


def test_stage_rank() -> None:
    assert stage_rank("scores") < stage_rank("weights") < stage_rank("output")
    assert stage_rank("w_q") == -1
