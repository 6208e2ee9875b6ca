"""Tests of symattn.read.notations.arrays: every row against its examples, and what the readers
do with it."""

from __future__ import annotations

import pytest

from symattn.read.notations import arrays as table
from symattn.read.symbolic.scale import UNSCALED, Scale

from ..texts import read_text, understood
from .rows import Row, check_row, rows_of

ROWS = rows_of(table)


@pytest.mark.parametrize(("name", "row"), ROWS, ids=[n for n, _ in ROWS])
def test_row_recognises_its_examples(name: str, row: Row) -> None:
    check_row(row)


def _grids(text: str) -> list[tuple[str, tuple[int, ...] | None, list[str]]]:
    r = read_text(text)
    return [(p.grid.wrapper, p.grid.dims, [e.text for e in p.grid.entries]) for p in r.grids]


@pytest.mark.parametrize("wrapper", ["tensor", "array", "Tensor", "Parameter containing:"], ids=str)
def test_array_wrapper_is_read_through(wrapper: str) -> None:
    head = (
        "tf.Tensor("
        if wrapper == "Tensor"
        else f"{wrapper}("
        if wrapper[0].islower()
        else wrapper + "\n"
    )
    text = f"```\n{head}[[0.5, 0.5], [1., 0.]]{')' if head.endswith('(') else ''}\n```\n"
    (got,) = _grids(text)
    assert got[1] == (2, 2) and got[2] == ["0.5", "0.5", "1.", "0."]


def test_shape_wrapper_numbers_are_sizes() -> None:
    text = "```\ntorch.Size([5, 4])\n```\n"
    u = understood(text)
    assert all(f.role != "x" for f in u.facts)
    assert [g.grid.notation for g in u.reading.grids] in ([], ["shape"]) or all(
        not g.grid.entries or g.grid.wrapper == "" for g in u.reading.grids
    )


@pytest.mark.parametrize(
    "call",
    sorted(
        table.ARRAY_CALLS.words - {"np.array", "torch.tensor", "tf.constant", "jnp.array", "matrix"}
    ),
)
def test_array_call_gives_its_list(call: str) -> None:
    u = understood(f"```python\nQ = np.{call}([[1, 0], [0, 1]])\n```\n")
    assert [(f.role, f.dims) for f in u.facts] == [("q", (2, 2))]


def _derivation(code: str) -> object:
    text = (
        "```python\nimport numpy as np\nQ = np.array([[1.0, 0.0], [0.0, 1.0]])\n"
        "K = np.array([[1.0, 0.0], [0.0, 1.0]])\nV = np.array([[1.0, 2.0], [3.0, 4.0]])\n"
        f"{code}\nprint(out)\n```\n\n```\n[[1.5 2.5]\n [2.5 3.5]]\n```\n"
    )
    u = understood(text)
    (claim,) = [f for f in u.facts if not f.given and f.dims]
    return claim.derivation


@pytest.mark.parametrize("call", sorted(table.MATMUL_CALLS.words))
def test_matmul_call_multiplies(call: str) -> None:
    code = f"s = np.{call}(Q, K.T)\nw = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)\nout = np.{call}(w, V)"
    d = _derivation(code)
    assert d is not None and d.start == "qkv"


@pytest.mark.parametrize("call", sorted(table.SOFTMAX_CALLS.words))
def test_softmax_call(call: str) -> None:
    fn = "torch.softmax" if call == "softmax" else "torch.nn.Softmax(dim=-1)"
    d = _derivation(f"out = {fn}(Q @ K.T{', dim=-1' if call == 'softmax' else ''}) @ V")
    assert d is not None and d.scale == UNSCALED


@pytest.mark.parametrize("call", sorted(table.SQRT_CALLS.words))
def test_sqrt_call_scales(call: str) -> None:
    scaled = "Q @ K.T / np.sqrt(2)" if call == "sqrt" else "Q @ K.T * torch.rsqrt(torch.tensor(2))"
    d = _derivation(f"out = torch.softmax({scaled}, dim=-1) @ V")
    assert d is not None and d.scale == Scale.root(2)


def test_exp_call() -> None:
    d = _derivation("e = np.exp(Q @ K.T)\nout = (e / e.sum(axis=-1, keepdims=True)) @ V")
    assert d is not None and d.scale == UNSCALED


@pytest.mark.parametrize("call", ["K.T", "K.transpose(0, 1)", "np.transpose(K)", "K.t()"])
def test_transpose_call(call: str) -> None:
    d = _derivation(f"out = torch.softmax(Q @ {call}, dim=-1) @ V")
    assert d is not None and d.start == "qkv"


@pytest.mark.parametrize("call", sorted(table.CAUSAL_CALLS.words - {"band_part"}))
def test_causal_call_masks(call: str) -> None:
    mask = (
        "torch.tril(torch.ones(2, 2))" if call == "tril" else "1 - torch.triu(torch.ones(2, 2), 1)"
    )
    d = _derivation(
        f"s = Q @ K.T\ns = s.masked_fill({mask} == 0, float('-inf'))\n"
        "out = torch.softmax(s, dim=-1) @ V"
    )
    assert d is not None and d.causal


@pytest.mark.parametrize("name", sorted(table.PROJECTION_NAMES.words))
def test_projection_values_are_not_in_the_text(name: str) -> None:
    text = (
        f"```python\nproj = nn.{name}(2, 2)\nX = torch.tensor([[1.0, 0.0], [0.0, 1.0]])\n"
        "Q = proj(X)\nout = torch.softmax(Q @ X.T, dim=-1) @ X\nprint(out)\n```\n\n"
        "```\ntensor([[0.5, 0.5],\n        [0.5, 0.5]])\n```\n"
    )
    u = understood(text)
    assert u.problems == ()


@pytest.mark.parametrize("elision", sorted(table.ELISION.words))
def test_elided_printout_is_not_judged(elision: str) -> None:
    text = f"```\ntensor([[0.1, {elision}, 0.3],\n        [0.4, {elision}, 0.6]])\n```\n"
    (g,) = read_text(text).grids
    assert g.grid.elided


@pytest.mark.parametrize("entry", sorted(table.SPECIAL_ENTRY.words))
def test_special_entry_has_no_value(entry: str) -> None:
    text = f"```\nscores = [[1.0, {entry}], [0.5, 0.5]]\n```\n"
    r = read_text(text)
    (g,) = r.grids
    assert [e.written is None for e in g.grid.entries] == [False, True, False, False]


@pytest.mark.parametrize("entry", sorted(table.NEG_INFINITY.words))
def test_negative_infinity_is_a_masked_entry(entry: str) -> None:
    text = f"```\nscores = [[1.0, {entry}], [0.5, 0.5]]\n```\n"
    (f,) = [f for f in understood(text).facts if f.dims == (2, 2)]
    assert f.masked == (False, True, False, False)


@pytest.mark.parametrize("entry", table.NEG_INFINITY.counterexamples)
def test_what_is_not_minus_infinity_is_no_masked_entry(entry: str) -> None:
    text = f"```\nscores = [[1.0, {entry}], [0.5, 0.5]]\n```\n"
    assert not any(any(f.masked) for f in understood(text).facts)


def test_print_noise_is_no_label() -> None:
    text = '```python\nprint("Attention weights:", w)\n```\n\n```\nAttention weights: [[0.5 0.5]]\n```\n'
    labels = [p.grid.label for p in read_text(text).grids]
    assert labels == ["Attention weights"]


def test_side_by_side_matrices_are_two() -> None:
    text = "```\nQ = [[1, 0],    K = [[1, 1],\n     [0, 1]]         [0, 1]]\n```\n"
    got = sorted(
        (p.grid.label, tuple(e.text for e in p.grid.entries))
        for p in read_text(text, "text").grids
        if p.grid.notation == "side-by-side"
    )
    assert got == [("K", ("1", "1", "0", "1")), ("Q", ("1", "0", "0", "1"))]


def test_row_name_names_a_row() -> None:
    text = "Keys:\n\nI: [1, 0]\nlove: [0, 1]\n"
    u = understood(text, "text")
    (k,) = [f for f in u.facts if f.role == "k"]
    assert k.row_names == ("I", "love")


@pytest.mark.parametrize("mark", sorted(table.PLACEHOLDER_CELL.words))
def test_placeholder_cell_is_read_as_an_entry_not_written(mark: str) -> None:
    text = f"| weights | a | b |\n|---|---|---|\n| a | 0.5 | 0.5 |\n| b | {mark} | 1 |\n"
    r = read_text(text)
    ((_, t),) = r.tables
    grids = [c.grid for c in t.column(1) if c is not None]
    assert all(g is not None for g in grids) and len(grids) == 2
    assert grids[1] is not None and [e.written for e in grids[1].entries] == [None]
