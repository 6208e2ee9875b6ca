"""Tests of symattn.read.codeblocks: code read, its printed output tied to it."""

from __future__ import annotations

import ast

from symattn.read.messages import not_checked

from ..conftest import english
from .texts import read_text


def test_printed_output_follows_its_code() -> None:
    text = "```python\nw = softmax(s)\nprint(w)\n```\n\n```\n[0.5 0.5]\n```\n"
    r = read_text(text)
    assert r.outputs == {1} and r.printed == {1}
    (p,) = [p for p in r.grids if p.block == 1]
    assert p.grid.start in r.shown


def test_a_comment_states_the_value_of_its_statement() -> None:
    text = "```python\nkeys = np.dot(x, w_key)  # [[0, 1], [1, 0]]\n```\n"
    r = read_text(text)
    (p,) = [p for p in r.grids if p.how == "comment"]
    assert p.grid.dims == (2, 2)


def test_code_lines_that_are_text_are_read_as_text() -> None:
    text = "```\nScores = [1, 2] = [1, 2]\n```\n"
    r = read_text(text)
    assert [c.text for c in r.chains] == ["Scores = [1, 2] = [1, 2]"]


def test_a_python_line_continued_by_equals_lines_is_a_chain() -> None:
    """``Scores = [0.1*0.42 + ...]`` parses as Python, but the ``= ...`` lines under it make it
    the first link of a chain written as text."""
    text = "```\nS = [0.1*0.42 + 0.2*0.40]\n  = [0.042 + 0.08]\n  = [0.122]\n```\n"
    r = read_text(text)
    assert [c.text for c in r.chains] == ["S = [0.1*0.42 + 0.2*0.40] = [0.042 + 0.08] = [0.122]"]
    assert r.grids == [] or all(p.how != "code" for p in r.grids)


def test_a_python_line_alone_stays_python() -> None:
    r = read_text("```python\nS = [0.12, 0.2]\nprint(S)\n```\n")
    assert r.chains == [] and [p.how for p in r.grids] == ["code"]
    r = read_text("```python\nS = [0.12, 0.2]\n= [0.12, 0.2]\n```\n")
    assert [c.text for c in r.chains] == ["S = [0.12, 0.2] = [0.12, 0.2]"]


def test_a_repl_printout_is_tied_to_its_expression() -> None:
    text = (
        "```python\n>>> Q = np.array([[1.0, 0.0], [0.0, 1.0]])\n>>> Q @ Q.T / 2\n"
        "array([[0.5, 0. ],\n       [0. , 0.5]])\n```\n"
    )
    r = read_text(text)
    (p,) = [p for p in r.grids if p.how == "output"]
    assert p.grid.dims == (2, 2)
    assert "Q @ Q.T / 2" in text[r.shown[p.grid.start].at :]


def test_a_deep_statement_is_skipped_with_its_reason() -> None:
    text = "```python\nx = " + "-" * 1000 + "1\nprint(x)\n```\n"
    r = read_text(text)
    assert [s.reason for s in r.skipped] == [not_checked("not-followed-deep")]
    assert [english(s.reason) for s in r.skipped] == ["not followed (nested too deeply)"]


def test_a_printout_after_its_expression_in_the_same_block_is_tied() -> None:
    text = "```python\nQ @ K.T / 2\n[[0.5 0. ]\n [0.5 0.5]]\n```\n"
    r = read_text(text)
    (p,) = [p for p in r.grids if p.how == "output"]
    assert r.shown[p.grid.start].at == text.index("Q @ K.T")


def test_what_a_comment_states_ties_no_later_printout() -> None:
    text = "```python\nk = np.dot(x, w)  # [[0, 1], [1, 0]]\n[[1 1]]\n```\n"
    r = read_text(text)
    (p,) = [p for p in r.grids if p.how == "output"]
    assert p.grid.start not in r.shown


def test_a_column_of_numbers_in_a_code_block_is_a_vector() -> None:
    text = "分别计算相关性：\n\n```text\n0.1\n0.3\n-0.6\n```\n"
    r = read_text(text)
    (p,) = r.grids
    assert p.grid.dims == (3, 1) and [e.text for e in p.grid.entries] == ["0.1", "0.3", "-0.6"]
    assert p.grid.label == "分别计算相关性"


def test_a_text_fence_prints_nothing_after_it() -> None:
    """Words in a ```text fence parse as Python names, but the block holds no program: the
    block of numbers after it is no printout of it."""
    text = "```text\nI\nlove\nAI\n```\n\n```text\n0.1\n0.3\n```\n"
    r = read_text(text)
    assert r.printed == set() and not r.shown
    code = text.replace("```text\nI", "```python\nI")
    assert read_text(code).printed == {1}


def test_the_chains_a_statements_comments_write_are_read() -> None:
    """A comment that writes a formula (``# softmax([8, -4, -4]) ≈ [...]``) above or after a
    statement holds a chain, whether or not Python follows it in the block."""
    for text in (
        "```python\n# softmax([8, -4, -4]) ≈ [0.996, 0.002, 0.002]\n```\n",
        "```python\n# softmax([-1, -0.5]) ≈ [0.38, 0.62]\nscores = scores / 8\n```\n",
        "```python\nw = softmax(s)  # softmax([1, 0]) ≈ [0.73, 0.27]\n```\n",
    ):
        r = read_text(text)
        chains = [c.text for c in r.chains]
        assert len(chains) == 1 and chains[0].startswith("softmax(["), (text, chains)
        assert r.chains[0].links[0].text.startswith("softmax")


def test_a_comment_that_only_names_values_is_no_chain() -> None:
    """``d_out = 2 # the output embedding size, d=2`` annotates the code: no claim to judge,
    and no second definition of ``d`` after ``# d=3``."""
    text = "```python\nd_in = x.shape[1] # size, d=3\nk = x.T  # shape=(2,6,2)\n```\n"
    assert read_text(text).chains == []


def test_a_shape_a_comment_names_states_no_value() -> None:
    text = "```python\nw = torch.softmax(s, dim=0)  # s 的形状为 [6]，在第 0 维上做 softmax\n```\n"
    r = read_text(text)
    assert [p for p in r.grids if p.how == "comment"] == []


def test_a_docstring_is_read_as_text() -> None:
    text = (
        '```python\ndef f(q):\n    """The first weight is\n\n    e^1 / (e^1 + e^0) = 0.7311\n    """\n'
        "    return q\n```\n"
    )
    r = read_text(text)
    assert [c.text for c in r.chains] == ["e^1 / (e^1 + e^0) = 0.7311"]
    assert not [p for p in r.grids if p.how == "code"]


def test_a_prompt_in_a_comment_names_the_array_under_it() -> None:
    text = (
        "```python\nctx = w @ inputs\n# >>> inputs\n# tensor([[1.0, 2.0], [3.0, 4.0]])\n"
        "# >>> ctx\n# tensor([[2.0, 3.0], [2.5, 3.5]])\n```\n"
    )
    r = read_text(text)
    shown = sorted((r.src.line_of(at), ast.unparse(s.expr)) for at, s in r.shown.items())
    assert shown == [(4, "inputs"), (6, "ctx")]


def test_a_comment_s_label_naming_a_variable_of_the_code_says_what_its_array_is() -> None:
    text = (
        "```python\nweights = softmax(s)\ncontext = weights @ x\nprint(context)\n"
        "# weights: [[1.0, 0.0], [0.5, 0.5]]\n# other: [[2.0, 3.0]]\n```\n"
    )
    r = read_text(text)
    shown = sorted((r.src.line_of(at), ast.unparse(s.expr)) for at, s in r.shown.items())
    # (``other`` is no name of the code: the array is what the statement shows)
    assert shown == [(5, "weights"), (6, "context")]
