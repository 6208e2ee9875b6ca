"""Tests of symattn.read.notations.claims: what a formula or a sentence claims."""

from __future__ import annotations

import pytest

from symattn.read.notations import claims as table
from symattn.read.scaling import hypotheses, stated_d_k

from ..texts import INPUTS, understood
from .rows import Row, check_row, rows_of

ROWS = rows_of(table)


@pytest.mark.parametrize(("name", "row"), ROWS, ids=[n for n, _ in ROWS])
def test_row_recognises_its_examples(name: str, row: Row) -> None:
    check_row(row)


def test_attention_call_arguments_are_q_k_v() -> None:
    u = understood(
        "```python\nout = attention([[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]])\n```\n"
    )
    assert [(f.role, f.dims) for f in u.facts] == [("q", (2,)), ("k", (2, 2)), ("v", (2, 2))]


def test_row_phrase_says_which_query() -> None:
    text = (
        INPUTS.replace("q_1 = [1, 2]", "Q = [[1, 2], [0, 1]]")
        + "\nFor the second row:\n\n$softmax = [0.5, 0.5]$\n"
    )
    u = understood(text)
    (w,) = [f for f in u.facts if f.role == "weights"]
    assert w.index == 2


def test_label_symbol_gives_the_role_and_token() -> None:
    u = understood("**K_animal (Exact Match):** `[3, 1]`\n")
    (k,) = u.facts
    assert (k.role, k.token) == ("k", "animal")


@pytest.mark.parametrize(
    ("text", "d_k"),
    [
        ("d_k = 2", 2),
        ("$d_k=64$", 64),
        ("设维度为 2", 2),
        ("head_dim = 2", 2),
        ("d_model = 512", None),
    ],
)
def test_dk_statement(text: str, d_k: int | None) -> None:
    u = understood(text + "\n")
    assert stated_d_k(u.src.text, u.facts) == d_k


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("scaled dot-product attention", ["stated"]),
        ("softmax(S) without scaling", ["unscaled"]),
        ("just attention", ["stated", "unscaled"]),
    ],
)
def test_scaled_and_unscaled_text(text: str, names: list[str]) -> None:
    u = understood(text + "\n")
    assert [h.name for h in hypotheses(u.src.text, u.facts)] == names


@pytest.mark.parametrize(
    ("first", "role"),
    [
        ("e^{2.5}", "exp"),
        ("\\sqrt{d_k}", "divisor"),
        ("[5, 2] ÷ 2", "scaled"),
        ("[10/4, 20/4]", "scaled"),
    ],
)
def test_first_link_says_the_stage(first: str, role: str) -> None:
    u = understood(f"$${first} = 2.5$$\n" if role != "scaled" else f"$${first} = [2.5, 1]$$\n")
    (f,) = [f for f in u.facts if f.spots]
    assert f.role == role


def test_prose_number_is_a_single_weight() -> None:
    u = understood("the model attends to apple (权重 0.79)\n")
    (f,) = u.facts
    assert (f.role, f.dims) == ("weights", ())


def test_attends_hints_skip_prose_about_attention() -> None:
    """A post about attention says "attention" and "注意力" in every line: the hints of the
    sentences that say where a query looks must not send each line to the full pattern
    (issue 15 row 6: plain prose costs a regular-expression pass, not one per window)."""
    prose = (
        "Attention weighs every key by how well it matches the query; the attention weights "
        "sum to one. 注意力机制根据查询与键的匹配程度为每个键分配注意力权重。"
    )
    for row in table.ATTENDS:
        assert row.hint is not None and row.hint.search(prose) is None, row.name
