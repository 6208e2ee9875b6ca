"""Tests of symattn.present.data: the inputs as matrices and the projections."""

from __future__ import annotations

import numpy as np
import pytest

from symattn import scaled_dot_product_attention, self_attention
from symattn.present.data import ALL_KEY_ROWS, exact_matrix, token_sentences

from .examples import doc_for, doc_of


def test_exact_matrix_writes_fractions_flat() -> None:
    from fractions import Fraction

    m = np.array([[Fraction(1, 3), Fraction(1, 4)]], dtype=object)
    assert exact_matrix("A", m) == r"A = \begin{bmatrix} 1/3 & 0.25 \end{bmatrix}"


def test_token_sentences_list_the_tokens() -> None:
    assert [m.key for m in token_sentences(("a", "b"), ("a", "b"))] == ["tokens_list"]
    keys = [m.key for m in token_sentences(("q",), ("a", "$b$"))]
    assert keys == ["tokens_queries"]


def test_hostile_names_are_shown_escaped_in_formulas() -> None:
    r = scaled_dot_product_attention(
        [[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]], query_labels=["q"], key_labels=["a", "$b$"]
    )
    doc = doc_for(r)
    k = doc.parts[0].data[1].math
    assert r"\text{\textdollar{}b\textdollar{}}" in k and "$b$" not in k


@pytest.mark.parametrize(
    ("name", "captions"),
    [
        ("thinking_machines", ["cap_q", "cap_k", "cap_v"]),
        ("animal_street", ["cap_x", "table_w", "table_w", "table_w"]),
        ("cross_attention", ["cap_x", "cap_xq", "table_w", "table_w", "table_w"]),
        ("two_heads", ["cap_x", "table_w", "table_w", "table_w", "cap_wo"]),
    ],
)
def test_each_start_shows_its_inputs(name: str, captions: list[str]) -> None:
    part = doc_of(name).parts[0]
    assert [line.caption.key for line in part.data if line.caption] == captions


def test_projections_work_out_every_key_row_of_a_small_example() -> None:
    part = doc_of("animal_street").parts[0]
    assert [line.math.split(" = ")[0] for line in part.projection_lines] == [
        "Q",
        "K",
        "V",
    ]
    syms = [p.caption.params["sym"].content.split(" ")[0] for p in part.projections]  # type: ignore[union-attr]
    assert syms == ["q_{3}", "k_{1}", "k_{2}", "k_{3}", "v_{1}", "v_{2}", "v_{3}"]
    assert part.projections_after == ()
    assert 3 * 4 <= ALL_KEY_ROWS


def test_projections_of_a_large_example_work_out_the_first_key_only() -> None:
    x = np.eye(5, 4)
    doc = doc_for(self_attention(x, np.eye(4), np.eye(4), np.eye(4)), queries=("2",))
    part = doc.parts[0]
    syms = [p.caption.params["sym"].content.split(" ")[0] for p in part.projections]  # type: ignore[union-attr]
    assert syms == ["q_{2}", "k_{1}", "v_{1}"]
    assert [m.key for m in part.projections_after] == ["projection_rest"]


def test_cross_attention_projects_queries_from_their_own_sequence() -> None:
    part = doc_of("cross_attention").parts[0]
    assert part.projection_lines[0].math.startswith("Q = X_{q} W^{Q}")
    assert r"x^{q}_{1}" in part.projections[0].caption.params["sym"].content  # type: ignore[union-attr]
