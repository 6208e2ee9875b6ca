"""Tests of symattn.read.repeats: a wrong number used again carries its finding."""

from __future__ import annotations

from symattn.read.audit import audit


def test_a_propagated_number_used_again_is_flagged_again() -> None:
    text = (
        "$e^{2.5} \\approx 12.18$ and $e \\approx 2.718$\n\n"
        "$12.18 + 2.718 = 14.898$\n\n$12.18 / 14.898 \\approx 0.818$\n"
    )
    r = audit(text)
    repeats = [f for f in r.findings if f.cause == "repeat"]
    assert all(f.claimed == "14.898" for f in repeats)
    assert all(f.severity == "warning" for f in repeats)


def test_a_repeat_shows_a_rounded_exact_value_as_rounded() -> None:
    """The exact value of 12.18 + 2.718 is no terminating decimal of the shown length: the
    finding and each repeat of it show it with its "…" (issue 21: "…" wherever rounded)."""
    text = (
        "$e^{2.5} \\approx 12.18$ and $e \\approx 2.718$\n\n"
        "$12.18 + 2.718 = 14.898$\n\n$12.18 / 14.898 \\approx 0.818$\n"
    )
    r = audit(text)
    first = [f for f in r.findings if f.claimed == "14.898" and f.cause != "repeat"]
    repeats = [f for f in r.findings if f.cause == "repeat"]
    assert first and repeats, r.findings
    assert {f.inexact for f in first + repeats} == {True}
    assert all(f.exact_text.endswith("…") for f in repeats)


def test_short_numbers_are_not_tracked() -> None:
    """A repeat of ``2`` is no evidence: only numbers of three or more significant digits."""
    r = audit("$1 + 1 = 2$\n\n$2 \\times 2 = 4$\n")
    assert [f for f in r.findings if f.cause == "repeat"] == []


#: weights written with mixed decimals, then used again as the coefficients of the values
_MIXED = (
    "q_1 = [1, 0]\nk_1 = [1, 0]\nk_2 = [0, 1]\nk_3 = [1, 1]\n"
    "v_1 = [1, 0]\nv_2 = [0, 1]\nv_3 = [1, 1]\n\n"
    "$$ weights = [0.398, 0.2, 0.398] $$\n\n"
    "$$ o = 0.398 \\times [1, 0] + 0.2 \\times [0, 1] + 0.398 \\times [1, 1] $$\n"
)


def test_a_short_number_written_again_with_its_whole_vector_carries_its_warning() -> None:
    r = audit(_MIXED)
    mixed = [(f.line, f.claimed, f.cause) for f in r.findings if f.code == "precision-mixed"]
    assert len(mixed) == 2 and mixed[1] == (11, "0.2", "repeat"), r.findings
    assert mixed[0][0] == 9 and mixed[0][2] != "repeat"


def test_a_short_number_written_again_alone_is_no_evidence() -> None:
    text = _MIXED.replace("0.2 \\times [0, 1] + 0.398 \\times [1, 1]", "0.2 \\times [0, 1]")
    r = audit(text)
    assert [f.line for f in r.findings if f.code == "precision-mixed"] == [9], r.findings


#: a wrong weights matrix, then the same matrix again as a factor of the output
_WEIGHTS = (
    "$$\nQ = K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad\n"
    "V = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}, \\quad d_k = 2\n$$\n\n"
    "$$\n\\text{weights} = \\begin{bmatrix} 0.75 & 0.25 \\\\ 0.35 & 0.65 \\end{bmatrix}\n$$\n\n"
    "$$\n\\text{Output} = \\begin{bmatrix} 0.75 & 0.25 \\\\ 0.35 & 0.65 \\end{bmatrix}\n"
    "\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}\n$$\n"
)


def _at(report: object, line: int) -> list[tuple[str, str, str]]:
    findings = getattr(report, "findings", ())
    return [(f.claimed, f.code, f.severity) for f in findings if f.line == line]


def test_a_wrong_matrix_written_again_is_carried_once_naming_where_it_was_wrong() -> None:
    r = audit(_WEIGHTS)
    assert {c for _, c, _ in _at(r, 7)} == {"wrong-value"}, r.findings
    again = [f for f in r.findings if f.line == 11]
    assert [f.claimed for f in again] == ["0.75", "0.25", "0.35", "0.65"], r.findings
    assert {(f.code, f.severity, f.cause) for f in again} == {
        ("propagated-error", "warning", "repeat")
    }
    assert all(f.params["line"] == 7 and f.params["code"] == "wrong-value" for f in again)
    assert [f.exact for f in again] == [f.exact for f in r.findings if f.line == 7]


def test_a_right_matrix_written_again_gets_nothing() -> None:
    right = _WEIGHTS.replace("0.75 & 0.25 \\\\ 0.35 & 0.65", "0.67 & 0.33 \\\\ 0.33 & 0.67")
    r = audit(right)
    assert [f for f in r.findings if f.severity in ("error", "warning")] == [], r.findings


def test_a_wrong_matrix_written_again_transposed_is_carried_entry_by_entry() -> None:
    text = _WEIGHTS.replace(
        "\\text{Output} = \\begin{bmatrix} 0.75 & 0.25 \\\\ 0.35 & 0.65 \\end{bmatrix}",
        "\\text{weights}^T = \\begin{bmatrix} 0.75 & 0.35 \\\\ 0.25 & 0.65 \\end{bmatrix}",
    )
    r = audit(text)
    again = {(f.column, f.claimed, f.code) for f in r.findings if f.line == 11}
    assert {(c, code) for _, c, code in again} == {
        ("0.75", "propagated-error"),
        ("0.35", "propagated-error"),
        ("0.25", "propagated-error"),
        ("0.65", "propagated-error"),
    }, r.findings
    exact = {f.claimed: f.exact for f in r.findings if f.line == 7}
    assert all(f.exact == exact[f.claimed] for f in r.findings if f.line == 11)


def test_a_wrong_number_of_three_digits_used_again_in_a_formula_is_carried() -> None:
    r = audit("$10 / \\sqrt{2} \\approx 7.19$\n\n$e^{7.19} \\approx 1326$\n")
    assert [(c, code) for c, code, _ in _at(r, 1)] == [("7.19", "wrong-value")], r.findings
    assert ("7.19", "propagated-error", "warning") in _at(r, 3), r.findings
    assert all(sev != "error" for _, _, sev in _at(r, 3)), r.findings


def test_a_repeat_of_a_repeat_names_the_first_wrong_number() -> None:
    r = audit(
        "$10 / \\sqrt{2} \\approx 7.19$\n\n$e^{7.19} \\approx 1326$\n\n$7.19 \\times 2 = 14.38$\n"
    )
    again = [f for f in r.findings if f.claimed == "7.19" and f.code == "propagated-error"]
    assert [f.line for f in again] == [3, 5], r.findings
    assert all((f.params["line"], f.params["code"]) == (1, "wrong-value") for f in again)


def test_a_short_wrong_number_used_again_alone_is_no_evidence() -> None:
    r = audit("$1 / (1 + e^{1}) \\approx 0.29$\n\n$0.29 \\times 2 = 0.58$\n")
    assert [c for _, c, _ in _at(r, 1)] == ["wrong-value"], r.findings
    assert [f for f in _at(r, 3) if f[0] == "0.29"] == [], r.findings


def test_wrong_numbers_of_one_formula_written_again_in_order_are_carried() -> None:
    text = (
        "$\\alpha_1 = 1/(1 + e^{1}) \\approx 0.29$, $\\alpha_2 = e/(1 + e) \\approx 0.71$\n\n"
        "$o = 0.29 \\cdot [1, 0] + 0.71 \\cdot [0, 1] = [0.29, 0.71]$\n"
    )
    r = audit(text)
    wrong = [v for v, c, _ in _at(r, 1) if c == "wrong-value"]
    assert wrong == ["0.29", "0.71"], r.findings
    assert ("0.29", "propagated-error", "warning") in _at(r, 3), r.findings
    assert ("0.71", "propagated-error", "warning") in _at(r, 3), r.findings
    assert all(sev != "error" for _, _, sev in _at(r, 3)), r.findings


def test_a_table_restating_a_wrong_softmax_is_its_repeat_not_a_second_error() -> None:
    text = (
        "* Scores become `[10/4, 20/4, 30/4] = [2.5, 5.0, 7.5]`\n"
        "* Softmax = `[0.02, 0.12, 0.86]`\n\n"
        "| Scaled Scores | Softmax Output |\n| --- | --- |\n"
        "| [2.5, 5.0, 7.5] | [0.02, 0.12, 0.86] |\n"
    )
    r = audit(text)
    assert [c for _, c, _ in _at(r, 2)] == ["wrong-value"] * 3, r.findings
    again = [f for f in r.findings if f.line == 6]
    assert [(f.claimed, f.code, f.severity) for f in again] == [
        ("0.02", "propagated-error", "warning"),
        ("0.12", "propagated-error", "warning"),
        ("0.86", "propagated-error", "warning"),
    ], r.findings
    assert all("wrong-value" in f.alternatives and f.params["line"] == 2 for f in again)


def test_a_wrong_number_said_again_as_a_percentage_right_after_it_is_carried() -> None:
    text = (
        "Q = [[1, 0]], K = [[1, 0], [0, 1]], V = [[1, 0], [0, 1]], d_k = 2.\n\n"
        "Weights: [[0.620, 0.380]]\n\n"
        "- $w_1 = 0.620$ (62.0% of the attention)\n- $w_2 = 0.380$ (38.0% of it)\n"
    )
    found = {(f.code, f.claimed) for f in audit(text, path="t.md").findings}
    assert ("propagated-error", "62.0") in found and ("propagated-error", "38.0") in found
    right = text.replace("0.620", "0.670").replace("0.380", "0.330")
    right = right.replace("62.0%", "67.0%").replace("38.0%", "33.0%")
    assert [f for f in audit(right, path="t.md").findings if f.severity != "info"] == []
    other = text.replace("62.0%", "60.0%")  # (another number: no restatement)
    assert ("propagated-error", "60.0") not in {
        (f.code, f.claimed) for f in audit(other, path="t.md").findings
    }


def test_one_rows_wrong_weights_written_again_in_a_formula_are_carried() -> None:
    """A row of a wrong weights matrix used again with other numbers between its entries
    (``0.35*[1,2] + 0.65*[3,4]``) is that row carried, entry by entry, naming its line."""
    text = _WEIGHTS.split("$$\n\\text{Output}")[0] + (
        "$$\no_2 = 0.35 \\cdot [1, 2] + 0.65 \\cdot [3, 4] = [2.3, 3.3]\n$$\n"
    )
    r = audit(text)
    assert {c for _, c, _ in _at(r, 7)} == {"wrong-value"}, r.findings
    again = [f for f in r.findings if f.line == 11 and f.code == "propagated-error"]
    assert [f.claimed for f in again] == ["0.35", "0.65"], r.findings
    assert all(f.params["line"] == 7 for f in again)


def test_a_matrix_restating_a_carried_row_carries_it_too() -> None:
    # row 1's weights are carried from the author's wrong 16.99 (Level 2, exactly); the matrix
    # A restates them, judged there against softmax of the author's rounded S, whose exact
    # values differ in the 5th digit but round the same: a repeat, not three new errors
    text = (
        "$Q = \\begin{bmatrix} 2 & 0 \\end{bmatrix}$, "
        "$K = \\begin{bmatrix} 1 & 0 \\\\ 1 & 0 \\\\ 2 & 0 \\end{bmatrix}$, "
        "$V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}$, $d_k = 2$.\n\n"
        "$S = QK^T / \\sqrt{2} = [1.414, 1.414, 2.828]$\n\n"
        "Row 1: `softmax([1.414, 1.414, 2.828])`\n\n"
        "- `exp(1.414) ≈ 4.11`, `exp(2.828) ≈ 16.99`\n"
        "- Sum ≈ 4.11 + 4.11 + 16.99 = 25.21\n"
        "- Weights ≈ `[0.163, 0.163, 0.674]`\n\n"
        "$$A = \\text{softmax}(S) \\approx \\begin{bmatrix} 0.163 & 0.163 & 0.674 \\end{bmatrix}$$\n"
    )
    found = audit(text, path="t.md").findings
    assert [f.code for f in found if f.line == 11] == ["propagated-error"] * 3
    assert [f.claimed for f in found if f.severity == "error"] == ["16.99"]
