"""Tests of symattn.read.code: code blocks cut into statements and parsed, never run."""

from __future__ import annotations

import ast
import time

import pytest

from symattn.read.code import docstrings, iter_statements, offset_of, statements


def parsed(text: str) -> list[str]:
    return [
        ast.unparse(s.tree) if s.tree is not None else "<text>"
        for s in statements(text, 0, len(text))
    ]


def test_statements_join_open_brackets_and_bodies() -> None:
    text = "Q = [[1, 0],\n     [0, 1]]\nfor i in range(2):\n    s[i] = 1\nprint(Q)\n"
    got = parsed(text)
    assert got[0] == "Q = [[1, 0], [0, 1]]"
    assert got[1].startswith("for i in range(2):")
    assert got[-1] == "print(Q)"


def test_an_indented_continuation_is_parsed() -> None:
    got = parsed("    x = 1\n    y = 2\n")
    assert got == ["x = 1", "y = 2"] or all("=" in g for g in got)


def test_text_is_not_python() -> None:
    assert parsed("tensor([[0.5, 0.5]])\nScores = [1, 2] = [3, 4]\n")[-1] == "<text>"


def test_nothing_is_executed() -> None:
    text = "import os\nos.system('touch /tmp/never')\n__import__('sys').exit(1)\n"
    assert len(parsed(text)) == 3  # parsed, and the test is still running


def test_comments_stay_with_their_statement() -> None:
    text = "keys = np.dot(x, w)  # [[0, 1], [1, 0]]\n"
    (st,) = statements(text, 0, len(text))
    ((a, b),) = st.comments
    assert text[a:b].strip() == "[[0, 1], [1, 0]]" and text[a - 1] == "#"


def test_offsets_of_nodes_count_characters() -> None:
    text = "注意 = 1\nq = [1, 2]\n"
    sts = statements(text, 0, len(text))
    node = sts[1].tree.body[0].value  # type: ignore[union-attr,attr-defined]
    assert text[offset_of(sts[1], node)] == "["


def _cpu(lines: int) -> float:
    text = "x = 1\n" * lines
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        assert len(statements(text, 0, len(text))) == lines
        best = min(best, time.process_time() - start)
    return best


def test_long_blocks_are_linear() -> None:
    """8 times the lines cost about 8 times as much, not 64 (a ratio, not a wall-clock budget:
    the machine's load scales both sides)."""
    _cpu(500)  # (warm-up)
    ratio = _cpu(32_000) / max(_cpu(4_000), 1e-3)
    assert ratio < 24, ratio  # (linear: 8; quadratic: 64)


def test_a_repl_transcript_is_code_and_printed_lines() -> None:
    text = ">>> s = q @ k.T\n>>> s / 2\narray([[0.5, 0. ],\n       [0. , 0.5]])\n"
    sts = statements(text, 0, len(text))
    assert [(st.tree is not None, st.printed) for st in sts] == [
        (True, False),
        (True, False),
        (False, True),
    ]
    assert sts[1].start == text.index("s / 2") - 4  # offsets kept: the prompt is blanked


def test_a_notebook_out_prompt_is_printed() -> None:
    text = "In [3]: w\nOut[3]: array([0.5, 0.5])\n"
    sts = statements(text, 0, len(text))
    assert [(st.tree is not None, st.printed) for st in sts] == [(True, False), (False, True)]


def test_a_statement_nested_too_deeply_is_not_followed() -> None:
    for n in (999, 3000):
        text = "x = " + "-" * n + "1\ny = 2\n"
        first, second = statements(text, 0, len(text))
        assert first.deep and first.tree is None
        assert second.tree is not None and not second.deep


def test_a_name_with_a_product_sign_is_a_formula_not_python() -> None:
    # (U+00B7 may continue a Python identifier: `q_2·k_1 = 0.72` parses, and is math)
    (st,) = list(iter_statements("q_2·k_1 = 0.72\n", 0, 15))
    assert st.tree is None
    (code,) = list(iter_statements("qk = 0.72\n", 0, 10))
    assert code.tree is not None


def test_docstrings_are_the_first_strings_of_modules_classes_and_functions() -> None:
    text = (
        '"""mod"""\nclass A:\n    """cls"""\n    def f(self):\n        """fn"""\n        x = "no"\n'
    )
    spans = [sp for st in statements(text, 0, len(text)) for sp in docstrings(st)]
    assert [text[a:b] for a, b in spans] == ['"""mod"""', '"""cls"""', '"""fn"""']


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("sum:  2.028 + 4.113 + 2.028 = 8.170", False),
        ("exp:  [e^0.707, e^1.414] = [2.028, 4.113]", False),
        ("w: 0.5 = 0.50", False),
        ("x: int = 3", True),
        ("x: np.ndarray = np.zeros(3)", True),
        ("y: list[float] = [0.1, 0.2]", True),
        ("z: int | None = None", True),
        ('t: "Tensor" = q @ k.T', True),
        ("Sum: tensor(1.0000)", True),
    ],
)
def test_a_labelled_formula_is_no_annotated_assignment(line: str, code: bool) -> None:
    """Python reads ``sum: 1 + 2 = 3`` as an annotated assignment; its "annotation" is no
    type, so it is a formula (read as text); ``Sum: tensor(1.0)`` with no value stays code."""
    (st,) = statements(line, 0, len(line))
    assert (st.tree is not None) is code
