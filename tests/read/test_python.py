"""Tests of symattn.read.python: what a parsed statement says (literal arrays, numbers,
steps, what a cell shows)."""

from __future__ import annotations

from symattn.read.code import statements
from symattn.read.python import Assigned, Defined, Shown, Step, expr_text, facts_of


def said(text: str) -> list[object]:
    return [f for st in statements(text, 0, len(text)) for f in facts_of(st)]


def test_literal_arrays_and_their_names() -> None:
    text = "Q = K = V = np.array([[1, 0], [0, 1]])\n"
    (a,) = [f for f in said(text) if isinstance(f, Assigned)]
    assert a.names == ("Q", "K", "V") and text[a.at] == "[" and a.wrapper.endswith("array")


def test_numbers_and_steps() -> None:
    got = said("d_k = 2\nS = Q @ K.T / d_k ** 0.5\n")
    assert any(isinstance(f, Defined) and (f.name, f.value) == ("d_k", "2") for f in got)
    (step,) = [f for f in got if isinstance(f, Step)]
    assert step.name == "S" and expr_text(step.expr) == "Q @ K.T / d_k ** 0.5"


def test_what_a_cell_shows_with_its_label() -> None:
    got = [f for f in said('print("Attention weights:", w)\nw\n') if isinstance(f, Shown)]
    assert [(f.label, expr_text(f.expr)) for f in got][0] == ("Attention weights:", "w")


def test_f_string_label() -> None:
    (s,) = [f for f in said('print(f"Output: {out}")\n') if isinstance(f, Shown)]
    assert s.label.startswith("Output") and expr_text(s.expr) == "out"


def test_copy_of_a_literal_gives_the_array() -> None:
    text = "w.weight.copy_(torch.tensor([[1, 0], [0, 1]]))\n"
    (a,) = [f for f in said(text) if isinstance(f, Assigned)]
    assert a.names == ("w.weight",) and text[a.at] == "["
