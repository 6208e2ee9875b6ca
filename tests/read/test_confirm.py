"""Tests of symattn.read.confirm: roles decided by what the numbers reproduce."""

from __future__ import annotations

from dataclasses import replace

from symattn.read.audit import audit
from symattn.read.confirm import candidate_of, confirm_roles, reproduced_notes
from symattn.read.reproduce import Relation

from ..conftest import english
from .texts import understood

QKV = "Q = [[1, 0], [0, 1]]\n\nK = [[1, 0], [0, 1]]\n\nV = [[1, 2], [3, 4]]\n\n"


def _errors(text: str) -> list[str]:
    return [f.code for f in audit(text, path="t.md").findings if f.severity == "error"]


def test_scores_then_weights_make_a_problem_that_starts_from_scores() -> None:
    text = "# 注意力\n\n原始分数：[2.0, 1.0, 0.1] → Softmax 后：[0.659, 0.242, 0.099]\n"
    report = audit(text, path="t.md")
    assert report.checked == 3 and not report.findings
    wrong = text.replace("0.242", "0.262")
    assert "wrong-value" in _errors(wrong)


def test_a_masked_score_row_and_its_softmax() -> None:
    text = "# Example\n\nscores [3.1, 0.4, -inf] → [0.937, 0.063, 0]\n"
    u = understood(text)
    roles = [f.role for f in u.facts]
    assert roles == ["scores", "weights"]  # (the second row's word was "scores": overruled)
    (decided,) = u.confirmed.decided
    assert decided[1].relation is Relation.WEIGHTS
    assert u.problems and u.problems[0].data["mask"] == [[True, True, False]]
    assert audit(text, path="t.md").checked == 3 and not _errors(text)


def test_an_array_written_again_under_a_heading_is_no_claim() -> None:
    text = QKV + "## Output:\n\n[[1, 2], [3, 4]]\n\nWeights: [[0.670, 0.330], [0.330, 0.670]]\n"
    assert not _errors(text)
    u = understood(text)
    (note,) = reproduced_notes(u.confirmed)
    assert "those of V" in english(note.reason) and note.line == 9


def test_the_stable_softmax_is_recognised_not_accused() -> None:
    text = (
        "scores = [2.0, 1.0, 0.1]\n\nexp after subtracting the max: [1, 0.368, 0.150]\n\n"
        "Normalise: [0.659, 0.242, 0.099]\n"
    )
    u = understood(text)
    relations = [m.relation for _, m in sorted(u.confirmed.decided, key=lambda km: km[0])]
    assert relations == [Relation.SHIFTED, Relation.WEIGHTS]
    assert not _errors(text)
    assert any("stable softmax" in english(n.reason) for n in reproduced_notes(u.confirmed))


def test_a_name_the_author_gives_is_not_overruled() -> None:
    # (``O = …`` is the author's own claim that these are the outputs: judged as such, even
    # though they repeat V; the same numbers under a heading are no claim, above)
    text = QKV + "O = [[1, 2], [3, 4]]\n"
    facts = understood(text).facts
    assert confirm_roles(facts).facts[-1].role == "output"
    assert "wrong-value" in _errors(text)


def test_a_candidate_is_a_complete_array() -> None:
    (f,) = understood("scores = [3.1, 0.4, -inf]\n").facts
    c = candidate_of(0, f)
    assert c is not None and c.shape == (1, 3) and c.rows[0][2] is None
    (g,) = understood("scores = [3.1, 0.4, ...]\n").facts
    assert candidate_of(0, g) is None or g.elided is False


def test_the_report_says_where_the_budget_stopped_reproduction() -> None:
    rows = "".join(f"r{i} = [{i}.5, 1.25, 2.75]\n\n" for i in range(8))
    c = confirm_roles(understood(rows).facts)
    assert not c.stopped
    stopped = replace(c, stopped=True, untried=3)
    (note,) = reproduced_notes(stopped)
    assert note.reason.key == "budget-stopped" and note.line == 7


def test_weights_that_are_the_scores_over_their_sum_are_judged_in_that_frame() -> None:
    # (the author normalises plainly: right in that frame, so not accused as softmax)
    text = (
        "Q = [[1, 2]]\n\nK = [[1, 0], [0, 1], [1, 1]]\n\nV = [[1, 0], [0, 1], [1, 1]]\n\n"
        "scores = [1, 2, 3]\n\nweights = [0.1667, 0.3333, 0.5000]\n"
    )
    u = understood(text)
    assert [m.relation for _, m in u.confirmed.decided] == [Relation.NORMALIZED]
    assert not _errors(text)
    (note,) = reproduced_notes(u.confirmed)
    assert "plain normalisation" in english(note.reason) and "3 of 3" in english(note.reason)
    # (softmax weights of the same scores stay softmax, judged by check)
    soft = text.replace("[0.1667, 0.3333, 0.5000]", "[0.0900, 0.2447, 0.6652]")
    assert not understood(soft).confirmed.decided and not _errors(soft)


def test_numbers_labelled_softmax_that_are_the_plain_normalisation_are_judged_as_softmax() -> None:
    """``Softmax 后`` 10% 30% 60% of the scores 0.1, 0.3, 0.6: the scores read as shares, the
    author's claim of a softmax (25.84%, 31.56%, 42.60%); the same numbers under a label that
    only says they are normalised are that frame, not accused."""
    text = "分别计算相关性：\n\n```text\n0.1\n0.3\n0.6\n```\n\nSoftmax 后：\n\n```text\n10%\n30%\n60%\n```\n"
    assert _errors(text) == ["wrong-value"] * 3
    assert understood(text).confirmed.decided == ()
    plain = text.replace("Softmax 后", "归一化后的权重")
    assert _errors(plain) == []


#: a stable-softmax row under the whole scaled matrix: exp(S[0] − max) and its sum
STABLE = (
    "X = [[1, 0], [0, 1], [1, 1]]\n\nQ = K = V = X\n\n"
    "```text\nS ≈ [[0.7071, 0, 0.7071],\n     [0, 0.7071, 0.7071],\n"
    "     [0.7071, 0.7071, 1.4142]]\n```\n\n"
    "For row 0:\n\n```text\nm = 0.7071\nexp(S-m) ≈ [1, 0.4931, 1]\nsum ≈ 2.4931\n```\n"
)


def test_one_row_of_the_stable_softmax_is_read_against_each_row_of_the_matrix() -> None:
    relations = {m.relation for _, m in understood(STABLE).confirmed.decided}
    assert Relation.SHIFTED in relations and Relation.SUM in relations


def test_the_stable_softmax_and_its_sum_are_not_accused() -> None:
    report = audit(STABLE, path="t.md")
    assert not [f for f in report.findings if f.severity == "error"]
    assert any("stable softmax" in english(u.reason) for u in report.unparsed)


def test_scores_by_words_that_are_the_scores_scaled_are_the_scaled_scores() -> None:
    """Under ``QK^T / sqrt(d_k) ≈`` (read as words that name QK^T), numbers that are the
    scores before them divided by √2: the scaled scores, judged as such (one wrong)."""
    text = (
        "Q = [[1, 2], [3, 4]]\n\nK = [[0, 1], [2, 3], [4, 5]]\n\n"
        "V = [[10, 20], [30, 40], [50, 60]]\n\n## 1. 点积\n\n分数矩阵：\n\n"
        "```\nQK^T = [[1×0 + 2×1, 1×2 + 2×3, 1×4 + 2×5],\n"
        "        [3×0 + 4×1, 3×2 + 4×3, 3×4 + 4×5]]\n"
        "     = [[2, 8, 14],\n        [4, 18, 32]]\n```\n\n"
        "## 2. 缩放\n\nd_k=2，sqrt(2)≈1.414：\n\n"
        "```\nQK^T / sqrt(d_k) ≈ [[2/1.414, 8/1.414, 14/1.414],\n"
        "                    [4/1.414, 18/1.414, 32/1.414]]\n"
        "                ≈ [[1.414, 5.657, 9.950],\n"
        "                    [2.828, 12.728, 22.627]]\n```\n"
    )
    u = understood(text)
    assert [f.role for f in u.facts if f.dims == (2, 3)] == ["scores", "scaled"]
    found = [(f.code, f.claimed) for f in audit(text, path="t.md").findings]
    assert ("wrong-value", "9.950") in found


def test_the_plain_normalisation_written_as_a_softmax_of_a_vector_is_judged_as_softmax() -> None:
    # (``softmax([2, 1, 1]) → [0.50, 0.25, 0.25]``: s / Σs, which the author claims is softmax)
    report = audit("softmax([2.0, 1.0, 1.0]) → [0.50, 0.25, 0.25]\n", path="t.txt")
    assert sorted((f.location.column, f.code) for f in report.findings) == [
        (29, "wrong-value"),
        (35, "wrong-value"),
        (41, "wrong-value"),
    ]
    # (under words only, the same numbers are that frame of their own: not accused)
    quiet = audit("scores [2.0, 1.0, 1.0], weights [0.50, 0.25, 0.25]\n", path="t.txt")
    assert not [f for f in quiet.findings if f.code == "wrong-value"]


def test_scores_times_v_without_softmax_is_that_product_not_an_accusation() -> None:
    # (unnormalised attention: (QKᵀ)V, its name read as the scores, its numbers their product
    # with V; given arrays and scores are sources however many arrays stand between)
    rows = "".join(f"y_{i} = [{i}, {i + 1}]\n\n" for i in range(1, 8))
    text = (
        "Q = [[1, 0], [1, 1]]\n\nK = [[1, 2], [0, 1]]\n\nV = [[1, 2], [3, 0]]\n\n"
        f"QK^T = [[1, 0], [3, 1]]\n\n{rows}(QK^T)V = [[1, 2], [6, 6]]\n"
    )
    u = understood(text)
    assert [m.relation for _, m in u.confirmed.decided] == [Relation.OUTPUT]
    assert not _errors(text)
    (note,) = reproduced_notes(u.confirmed)
    assert "no softmax between" in english(note.reason) and "QK^T and V" in english(note.reason)
    assert "4 of 4" in english(note.reason)
    # (a product the numbers do not reproduce is not read as that product)
    wrong = text.replace("[6, 6]]", "[6, 7]]")
    assert not understood(wrong).confirmed.decided


def test_a_row_of_an_input_written_again_under_words_is_that_input() -> None:
    text = (
        "The encoder outputs are $K = V = [[0.2, 0.8], [0.9, 0.1]]$ and the query is "
        "$q = [0.7, 0.4]$.\n\n### 1. Encoder Output\n\n```text\n[0.2, 0.8]\n[0.9, 0.1]\n```\n"
    )
    report = audit(text, path="t.md")
    assert [u.line for u in report.unparsed if "those of K before it" in english(u.reason)] == [
        6,
        7,
    ]
    # (small integers coincide by chance: ``[1, 0]`` under the same words stays a claim)
    ints = text.replace("[0.2, 0.8]]", "[1, 0]]").replace("[0.2, 0.8]\n", "[1, 0]\n")
    assert [
        u.line for u in audit(ints, path="t.md").unparsed if "those of K" in english(u.reason)
    ] == [7]


def test_scores_under_a_letter_that_are_the_scores_scaled_are_the_scaled_scores() -> None:
    text = (
        "Q = [[1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 0]]\n\n"
        "K = [[1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 0]]\n\n"
        "Scores = [[1.00, 0.00, 1.00], [0.00, 1.00, 1.00], [1.00, 1.00, 2.00]]\n\n"
        "Scaled scores (divide by √4 = 2):\n\n"
        "S = [[0.50, 0.00, 0.50], [0.00, 0.50, 0.50], [0.50, 0.50, 1.00]]\n"
    )
    u = understood(text)
    (s,) = [f for f in u.confirmed.facts if f.name == "S"]
    assert s.role == "scaled"
    assert not _errors(text)
