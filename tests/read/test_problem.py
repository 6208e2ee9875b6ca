"""Tests of symattn.read.problem: the attention problems behind a text, as specs."""

from __future__ import annotations

import statistics
import time

from symattn.config import DEFAULT_LIMITS
from symattn.read.audit import audit
from symattn.spec.build import build_spec

from ..conftest import ROOT
from .texts import INPUTS, understood


def test_claims_placed_on_their_rows() -> None:
    text = INPUTS + "\nd_k = 2\n\n$$softmax = [0.8930, 0.1070]$$\n\n$$output = [12.14, 22.14]$$\n"
    (p,) = understood(text).problems
    rows = p.data["claims"]["rows"]  # type: ignore[index]
    assert rows == {"Thinking": {"weights": ["0.8930", "0.1070"], "output": ["12.14", "22.14"]}}
    assert p.data["d_k"] == 2 and p.hypothesis == "stated"
    spec = build_spec(p.data, "<test>", DEFAULT_LIMITS)
    assert spec.d_k == 2


def test_both_frames_when_the_text_does_not_say() -> None:
    text = INPUTS + "\n$$softmax = [0.5, 0.5]$$\n"
    names = sorted(p.hypothesis for p in understood(text).problems)
    assert names == ["stated", "unscaled"]


def test_a_repeated_stage_is_another_layer() -> None:
    text = INPUTS + "\nd_k = 2\n\n$$softmax = [0.8930, 0.1070]$$\n\n$$weights = [0.89, 0.11]$$\n"
    layers = sorted(p.group[1] for p in understood(text).problems)  # type: ignore[type-var]
    assert layers == [0, 1]


def test_embeddings_and_projections() -> None:
    text = (
        "```python\nX = [[1, 0], [1, 1]]\nW_q = [[1, 0], [0, 1]]\nW_k = [[1, 0], [0, 1]]\n"
        "W_v = [[1, 2], [3, 4]]\nQ = X @ W_q\nK = X @ W_k\nprint(Q @ K.T)\n```\n\n```\n[[1 1]\n [1 2]]\n```\n"
    )
    ps = understood(text).problems
    assert sorted(p.hypothesis for p in ps) == ["stated", "unscaled"]  # the code does not scale
    assert all(set(p.data["inputs"]) == {"X", "W_Q", "W_K", "W_V"} for p in ps)  # type: ignore[arg-type]


def test_a_text_that_starts_from_scores() -> None:
    text = "Scores: [2, 1]\n\nd_k = 4\n\n$$softmax = [0.6225, 0.3775]$$\n"
    ps = understood(text).problems
    assert ps and all(set(p.data["inputs"]) == {"Q", "K", "V"} for p in ps)  # type: ignore[arg-type]


def test_no_inputs_no_problem() -> None:
    assert understood("$$softmax = [0.5, 0.5]$$\n").problems == ()


def test_weights_written_as_percentages_are_claims_as_written() -> None:
    """A spec reads ``89%`` as 0.89: the claim keeps the author's text, for the report."""
    text = INPUTS + "\nd_k = 2\n\n$$softmax = [89\\%, 11\\%]$$\n"
    (p,) = understood(text).problems
    assert p.data["claims"]["rows"] == {"Thinking": {"weights": ["89%", "11%"]}}  # type: ignore[index]
    build_spec(p.data, "<test>", DEFAULT_LIMITS)  # (a spec reads them)


def test_an_aside_d_k_is_tried_beside_the_width_of_k() -> None:
    # (真实模型里 d_k=64: the 2-wide K and the scaled scores say the example uses d_k = 2)
    text = (
        "真实模型里 d_k=64，这里用小的例子。\n\n"
        "$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, "
        "K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, "
        "V = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}$$\n\n"
        "$$\\frac{QK^T}{\\sqrt{2}} = \\begin{bmatrix} 0.707 & 0 \\\\ 0 & 0.707 \\end{bmatrix}$$\n"
    )
    ps = understood(text).problems
    assert sorted(p.hypothesis for p in ps) == ["stated", "width of K"]
    assert sorted(p.data["d_k"] for p in ps) == [2, 64]  # type: ignore[type-var]
    report = audit(text, path="t.md")
    assert not [f for f in report.findings if f.severity == "error"]
    wrong = text.replace(
        "\\sqrt{2}} = \\begin{bmatrix} 0.707 & 0", "\\sqrt{2}} = \\begin{bmatrix} 0.5 & 0"
    )
    assert [f.code for f in audit(wrong, path="t.md").findings if f.severity == "error"]


def test_a_stated_d_k_that_is_the_width_adds_no_frame() -> None:
    ps = understood(INPUTS + "\nd_k = 2\n\n$$softmax = [0.8930, 0.1070]$$\n").problems
    assert [p.hypothesis for p in ps] == ["stated"]


def test_a_d_k_of_other_inputs_is_no_second_d_k_of_the_problem() -> None:
    """A later ``d_k`` is claimed against the stated one, unless it is another example's:
    computed from other numbers (zh49), or stated after another K as wide as it says (en53)."""

    def later_d_k(text: str) -> set[object]:
        ps = understood(text).problems
        return {p.data["claims"].get("d_k") for p in ps if p.data.get("d_k") == 2}  # type: ignore[attr-defined]

    claim = "\n$$softmax = [0.8930, 0.1070]$$\n"
    ex1 = INPUTS + "\nd_k = 2\n"
    # (the same inputs, between them and a claim: a conflict)
    assert later_d_k(ex1 + "\nThen $d_k = 4$.\n" + claim) == {"4"}
    # (after the last claim, beside the worked example: no claim uses it)
    assert later_d_k(ex1 + claim + "\nIf $d_k = 4$, what factor?\n") == {None}
    assert later_d_k(ex1 + "\nFor 8 heads of 512, each $d_k = 512/8 = 64$.\n" + claim) == {None}
    other = "\n## Example 2\n\n$K = [[1, 0, 0, 0], [0, 1, 0, 0]]$\n\n"
    assert later_d_k(ex1 + claim + other + "$d_k = 4$\n") == {None}
    # (not the width of that K, but after the last claim of the example: beside it)
    assert later_d_k(ex1 + claim + other + "$d_k = 3$\n") == {None}


def test_scores_given_are_also_tried_as_written_beside_a_stated_d_k() -> None:
    """``如果 dk = 64`` beside ``原始分数 → softmax``: the scores may be fed to the softmax as
    written; both frames are tried, and only what both find wrong is reported."""
    text = "如果 dk = 64，要除以 sqrt(dk)。\n\n原始分数：[2.0, 1.0, 0.1] → Softmax 后：[0.659, 0.242, 0.099]\n"
    ps = understood(text).problems
    assert sorted(p.hypothesis for p in ps) == ["scores as given", "stated"]
    assert not [f for f in audit(text, path="t.md").findings if f.severity == "error"]


def _joined(count: int) -> tuple[str, list[str]]:
    """The first ``count`` dev corpus texts, each under its title, joined and one by one."""
    paths = sorted((ROOT / "tests" / "corpus" / "dev").glob("*.md"))[:count]
    texts = [f"# {p.stem}\n\n" + p.read_text(encoding="utf-8") for p in paths]
    return "\n\n".join(texts), texts


def test_words_of_a_problem_are_those_of_its_scope() -> None:
    # the d_k stated beside the first worked example is not the second's (issue 23)
    first = INPUTS + "\nd_k = 2\n\n$$softmax = [0.8930, 0.1070]$$\n"
    second = (
        "\n# Another example\n\n```python\nQ = [[1, 0]]\nK = [[1, 0], [0, 1]]\n"
        "V = [[1, 2], [3, 4]]\n```\n\n$$softmax = [0.7311, 0.2689]$$\n"
    )
    text = first + second
    at = text.index("# Another")
    frames = {(p.scope[0] < at, p.hypothesis, p.data.get("d_k")) for p in understood(text).problems}
    assert frames == {(True, "stated", 2), (False, "stated", None), (False, "unscaled", None)}


def test_joined_texts_give_about_the_problems_of_one_by_one() -> None:
    # (issue 23: 16 texts joined gave 39 problems against 11 one by one, each text's frames
    # multiplied by the d_k and masks of the others; 13 once each problem reads its scope —
    # the rest are claims of a text without inputs of its own, judged on the text before)
    text, texts = _joined(16)
    alone = sum(len(understood(t).problems) for t in texts)
    assert len(understood(text).problems) <= 1.25 * alone


def _cpu(text: str) -> float:
    c = time.process_time()
    audit(text, path="joined.md")
    return time.process_time() - c


def test_audit_of_joined_texts_grows_linearly() -> None:
    # CPU medians: 16 texts joined against the same texts one by one. Time growing as
    # (length)^1.2 would make the joined text 16^0.2 = 1.74 times as slow; 2 of margin for the
    # load of a shared machine (measured 1.6-2.9 after issue 23's fix, 5.5 before)
    text, texts = _joined(16)
    _cpu(text)
    joined = statistics.median(_cpu(text) for _ in range(3))
    alone = statistics.median(sum(_cpu(t) for t in texts) for _ in range(3))
    assert joined <= 16**0.2 * 2 * alone


def test_scores_given_in_a_text_that_scales_but_states_no_d_k_are_judged_as_given() -> None:
    """``softmax(QK^T/√d_k)`` in the formulas, no d_k anywhere, a row of scores fed to the
    softmax: the scores as given are the one frame the text fixes; a wrong weight is found."""
    text = (
        "$$\\text{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V$$\n\n"
        "```\nscores: [2, 3, 1, -∞]\nsoftmax: [0.24, 0.65, 0.11, 0.0]\n```\n"
    )
    (p,) = understood(text).problems
    assert p.scale_unknown
    found = [(f.code, f.claimed) for f in audit(text, path="t.md").findings]
    assert found == [("wrong-value", "0.65"), ("wrong-value", "0.11")]


def test_a_row_right_in_the_frame_of_its_own_numbers_is_not_accused() -> None:
    """No d_k stated: scaled scores that are the scores times one multiplier (1/2 here),
    and the weights of some multiplier, are the author's frame, not wrong."""
    text = (
        "We divide by $\\sqrt{d_k}$.\n\n"
        "| word | score | scaled | weight |\n|---|---|---|---|\n"
        "| a | 2.0 | 1.0 | 0.09 |\n| b | 4.0 | 2.0 | 0.24 |\n| c | 6.0 | 3.0 | 0.67 |\n"
    )
    assert [f for f in audit(text, path="t.md").findings if f.severity == "error"] == []
    wrong = text.replace("0.24", "0.30").replace("0.67", "0.61")
    assert ("wrong-value", "0.30") in [
        (f.code, f.claimed) for f in audit(wrong, path="t.md").findings
    ]
