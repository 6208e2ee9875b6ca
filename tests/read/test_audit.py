"""Tests of symattn.read.audit: the seed texts (copies in tests/fixtures/seeds), clean fixtures,
the report as a whole."""

from __future__ import annotations

import importlib.util
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from symattn.errors import InputError
from symattn.present.reports import audit_json, audit_text, message, recognised_json
from symattn.read.audit import AuditReport, audit, scopes, understand

from .texts import FIXTURES, INPUTS, ROOT, SEED_000, SEED_001, SEED_004, SEEDS, SHARED_SEEDS


def run(name: str) -> AuditReport:
    return audit((SEEDS / name).read_text(encoding="utf-8"), path=name)


def codes(report: AuditReport) -> list[tuple[str, str]]:
    return [(f.code, f.claimed) for f in report.findings]


def test_seed_copies_match_the_shared_folder_when_present() -> None:
    shared = SHARED_SEEDS
    names = sorted(p.name for p in SEEDS.glob("*.txt"))
    assert names == [SEED_000, SEED_001, SEED_004]
    if shared.is_dir():  # the copies are the seeds as they are
        for name in names:
            assert (SEEDS / name).read_bytes() == (shared / name).read_bytes()


def test_seed_000() -> None:
    r = run(SEED_000)
    # the seed's four findings, then what the corpus expects besides (tests/corpus/dev/
    # zh_seed000.expect.toml): the divisor said in words too ("假设根号后为2"), the sum 14.89
    # used again, the truncated 2.71 used again (carried), and 5.4 = 0.18 x 30, 7.2 = 0.18 x 40
    # from the rounded weight 0.18
    assert codes(r) == [
        ("conflicting-definition", "d_k = 4"),
        ("dk-mismatch", "2"),
        ("dk-mismatch", "2"),
        ("truncated", "2.71"),
        ("propagated-error", "2.71"),
        ("propagated-rounding", "14.89"),
        ("propagated-rounding", "14.89"),
        ("propagated-error", "2.71"),
        ("propagated-rounding", "14.89"),
        ("propagated-rounding", "5.4"),
        ("propagated-rounding", "7.2"),
    ]
    conflict, in_words, mismatch, truncated, again = r.findings[:5]
    propagated = r.findings[5]
    assert (again.line, again.params["line"], again.params["code"]) == (70, 69, "truncated")
    assert all(f.severity == "warning" for f in r.findings[4:])
    assert (in_words.line, in_words.message) == (mismatch.line, mismatch.message)
    assert in_words.column < mismatch.column
    assert conflict.line == 48 and "2 (line 17)" in message(conflict)
    assert "holds only with d_k = 4" in message(conflict)
    assert (truncated.line, truncated.exact, truncated.expected) == (69, "2.71828", "2.72")
    # Level 2: the problem from q_1, k_1 (Thinking), k_2 (Machines), v_1, v_2 with the stated
    # d_k = 2
    assert mismatch.severity == "error" and mismatch.line == 48
    assert "[0.8930, 0.1070]" in message(mismatch) and "[12.1408, 22.1408]" in message(mismatch)
    assert "consistent with d_k = 4" in message(mismatch)
    assert propagated.severity == "warning" and "12.18 + 2.71" in message(propagated)
    assert r.recognised is not None
    assert recognised_json(r.recognised) | {} == {
        "Q": ["Thinking"],
        "K": ["Thinking", "Machines"],
        "V": ["Thinking", "Machines"],
        "source": "vectors",
        "d_k": 2,
        "d_k_from": "stated",
        "claims": r.recognised.claims,
    }
    assert r.checked >= 14 and not r.unparsed


def test_seed_001() -> None:
    r = run(SEED_001)
    assert codes(r) == [
        ("interpretation", "动物"),  # "让 “它” 更多地关注 “动物” 而不是 “马路”": 马路 weighs more
        ("approximate-constant", "3.3125069954097492"),
        ("precision-mixed", "0.34"),
        # the weights [0.331, 0.34, 0.329] written again as the coefficients of the output
        ("precision-mixed", "0.34"),
        ("truncated", "0.031"),
    ]
    _, approx, mixed, again, truncated = r.findings
    assert approx.cause == "approximate-e-float:2.718"
    assert approx.exact.startswith("3.31254106")
    assert mixed.severity == "warning" and mixed.line == 102
    assert (again.severity, again.line, again.cause) == ("warning", 108, "repeat")
    # the author's own weights give 0.331*0.238 + 0.34*(-0.075) + 0.329*(-0.065) = 0.031893 exactly
    assert (truncated.exact, truncated.expected) == ("0.031893", "0.032")
    # Level 2 rebuilt the problem from the embeddings and WQ/WK/WV, and found the Q/K/V table
    # (exactly x·W) and the weights consistent with it: nothing else was reported
    rec = r.recognised
    assert rec is not None and rec.source == "embeddings"
    assert recognised_json(rec)["X"] == ["动物", "马路", "它"] and recognised_json(rec)["W"] == [
        "W_Q",
        "W_K",
        "W_V",
    ]
    assert (rec.d_k, rec.d_k_stated) == (2, False)
    assert rec.claims >= 18 + 3 + 3  # the table, the scores, the weights
    assert r.checked >= 25  # each number once, though Level 1 and Level 2 both judge many of them


def test_seed_001_product_line_is_a_claim() -> None:
    """``[0.55, ...]*[[1, 0], ...]`` then ``乘积结果=[0.44, -0.35]``: judged (and right)."""
    text = (SEEDS / SEED_001).read_text(encoding="utf-8")
    wrong = text.replace("乘积结果=[0.44, -0.35]", "乘积结果=[0.44, -0.53]")
    r = audit(wrong)
    assert [(f.code, f.claimed, f.line) for f in r.findings if f.line == 77] == [
        ("wrong-value", "-0.53", 77)
    ]


def test_seed_001_accepts_the_dot_products() -> None:
    r = run(SEED_001)
    lines = {f.line for f in r.findings}
    text = (SEEDS / SEED_001).read_text(encoding="utf-8").splitlines()
    for claim in ("0.12965", "0.16835", "0.1217"):
        line = next(i for i, t in enumerate(text, 1) if t.endswith("=" + claim))
        assert line not in lines


def test_seed_004_accuses_nothing() -> None:
    r = run(SEED_004)
    assert not r.has_errors
    assert [(f.code, f.severity) for f in r.findings] == [("missing-input", "info")]
    (missing,) = r.findings
    assert "0.79, 0.17, 0.04" in message(missing) and "[9.68, 42.98]" in message(missing)
    assert r.recognised is None


@pytest.mark.parametrize("name", sorted(p.name for p in (FIXTURES / "audit").glob("clean_*")))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_clean_fixtures_have_no_finding(name: str, lang: str) -> None:
    r = audit((FIXTURES / "audit" / name).read_text(encoding="utf-8"))
    assert audit_text([r], lang)
    assert [f for f in r.findings if f.severity != "info"] == []
    assert r.checked >= 10
    # every formula is read; the fixtures' q and k (with no V, and a row divided by d_k)
    # are no attention problem their numbers confirm, and audit says so
    assert [u for u in r.unparsed if u.text != "attention problem"] == []


def test_messages_in_chinese() -> None:
    r = run(SEED_000)
    by = {f.code: message(f, "zh") for f in r.findings}
    assert "截断" in by["truncated"]
    assert "按所述 d_k，权重应为 [0.8930, 0.1070]" in by["dk-mismatch"]


def test_unparsed_math_is_listed() -> None:
    r = audit("$$x_7 = \\int_0^1 2 \\, dx$$")
    assert r.findings == () and r.unparsed and r.unparsed[0].line == 1


def test_unknown_language_is_an_input_error() -> None:
    with pytest.raises(InputError):
        audit_text([audit("$1 = 1$")], "fr")


def test_json_shape() -> None:
    data = audit_json([run(SEED_000)])["files"][0]
    assert set(data) >= {"path", "findings", "checked", "unparsed"}
    assert set(data["findings"][0]) == {
        "code",
        "severity",
        "line",
        "column",
        "claimed",
        "exact",
        "exact_rounded",
        "problem",
        "expected",
        "message",
        "cause",
    }


@pytest.mark.parametrize(("tail", "checked"), [("", 1), ("$1 + 1 = 2$\n", 2)])
def test_a_number_judged_by_both_levels_is_counted_once(tail: str, checked: int) -> None:
    """``5`` is judged by Level 1 (the chain) and Level 2 (the score q_1·k_1): one number, one
    count."""
    r = audit(INPUTS + "$q_1 \\cdot k_1 = 1 \\times 1 + 2 \\times 2 = 5$\n" + tail)
    assert r.findings == () and r.recognised is not None and r.recognised.claims == 1
    assert r.checked == checked


# --------------------------------------------------------------------------- issue 15, rows 1-7

#: a guard against quadratic reading, in CPU seconds (wall time depends on the machine's
#: load); benchmarks/hostile.py measures the real times and growth exponents
BUDGET_CPU_S = 10.0


def _lines(make: Callable[[int], str], size: int) -> str:
    out, total, i = [], 0, 0
    while total < size:
        line = make(i) + "\n"
        out.append(line)
        total += len(line)
        i += 1
    return "".join(out)


@pytest.mark.parametrize(
    ("row", "text"),
    [
        ("1: one name redefined on every line", _lines(lambda i: f"s = {i}", 400_000)),
        ("2: a chain on every line", _lines(lambda i: f"x_{i} = {i}.5 + 0.25 = {i}.75", 400_000)),
        ("3: an unclosed \\[", "\\[\n" + _lines(lambda i: f"{i} + 1 = {i + 1}", 400_000)),
        ("3: unclosed fences", _lines(lambda i: "```" if i % 3 == 0 else f"{i} + 1 = 1", 400_000)),
        ("4: a line of \\(", "\\( " * 130_000),
        ("5: a sum of 45000 terms", "$$ " + "1+" * 44_999 + "1 = 45001 $$"),
        ("6: plain prose", "Attention weighs every key by how well it matches. " * 8_000),
    ],
    ids=lambda x: x if isinstance(x, str) and len(x) < 60 else "",
)
def test_hostile_text_is_read_in_bounded_time(row: str, text: str) -> None:
    """Issue 15 rows 1-6 at 0.4 MB (benchmarks/hostile.py runs them up to 10 MB): bounded time,
    and what is not read is said."""
    start = time.process_time()
    r = audit(text, path="hostile.md")
    assert time.process_time() - start < BUDGET_CPU_S, row
    cov = r.coverage()
    assert cov["numbers"] >= cov["read"] >= cov["judged"]
    if cov["numbers"] > cov["read"]:
        assert sum(n for _, n in r.not_read()) == cov["numbers"] - cov["read"]


@pytest.mark.parametrize(
    "formula",
    [
        "$$ 5! = 100 $$",
        "$$ \\sin 2 = 0.91 $$",
        "$$ \\binom{4}{2} = 5 $$",
        "$$ \\max(1, 2) = 3 $$",
        "$$ 1 + 1 + 0e999 = 3 $$",
        "$$ " + "(" * 50 + "1+1" + ")" * 50 + " = 3 $$",
    ],
)
def test_math_the_grammar_does_not_know_is_said(formula: str) -> None:
    """Issue 15 row 7: never dropped silently."""
    r = audit(formula + "\n")
    assert r.findings == () and len(r.unparsed) == 1


@pytest.mark.parametrize("ch", ["\u200b", "\u00ad", "\x00", "\ufeff"], ids=repr)
def test_characters_that_change_nothing_are_removed_and_the_claim_judged(ch: str) -> None:
    """Issue 15 row 7: ``1 +<ZWSP> 1 = 3`` is wrong, found at its true column."""
    r = audit(f"$$ 1 +{ch} 1 = 3 $$\n")
    (f,) = r.findings
    assert (f.code, f.claimed, f.column) == ("wrong-value", "3", 13)


# --------------------------------------------------------------------------- the corpus


def _corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "audit_corpus", ROOT / "benchmarks" / "audit_corpus.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("audit_corpus", module)  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Floor:
    """What a group of dev texts is held to: its recall and coverage at least, its false
    warnings (warnings on right numbers: noise, not accusations) at most."""

    recall: float
    coverage: float
    warnings: int = 0


#: the texts the reader was built on (issue 12: recall and coverage >= 95%), the held-out
#: texts (expect notes "HELD-OUT text…", round two) and each first-contact round that joined
#: ``dev/`` (``round`` and ``first_contact`` in the expect file), at what they reach (raised
#: as the reader improves, never lowered); floors, not goals — the goal is issue 19's 95% on every text
FLOORS: dict[str, Floor] = {
    "built": Floor(0.95, 0.95),
    "held-out": Floor(0.80, 0.93),
    "2026-12-01": Floor(0.54, 0.93),
    "2026-12-02": Floor(0.45, 0.88, warnings=1),
    "2026-12-02b": Floor(0.62, 0.89, warnings=2),
    "2026-12-02c": Floor(0.41, 0.85, warnings=7),
    "2026-12-02d": Floor(0.20, 0.70, warnings=3),
    "2026-12-03": Floor(0.14, 0.83, warnings=4),
    "2026-12-03b": Floor(0.55, 0.90),
    "2026-12-04": Floor(0.57, 0.89),
    "2026-12-04b": Floor(0.18, 0.83),
}


def _group(path: Path) -> str:
    """Which floor a dev text is held to: "built" (the reader was built on it), "held-out",
    or its first-contact round."""
    text = path.read_text(encoding="utf-8")
    if "HELD-OUT text" in text:
        return "held-out"
    expect = tomllib.loads(text)
    return str(expect["round"]) if "first_contact" in expect else "built"


def test_the_corpus_accuses_no_right_number() -> None:
    """tests/corpus/dev: no error finding on a number that is no author's error (a right
    number, an input, a number that cannot be checked, a number the corpus does not list) in
    any text, and the measures do not fall back: each group of texts (:data:`FLOORS`) keeps
    its recall, coverage and false warnings."""
    corpus = _corpus()
    total = corpus.Row("TOTAL")
    groups: dict[str, Any] = {}
    for path in sorted(corpus.TEXTS.glob("*.expect.toml")):
        row = corpus.measure(path)
        total.add(row)
        groups.setdefault(_group(path), corpus.Row(_group(path))).add(row)
    accusations = [m for m in total.misses if m.strip().startswith(("ACCUSE", "stray"))]
    assert total.accusations == 0, accusations
    assert set(groups) <= set(FLOORS), f"a round without a recorded floor: {set(groups)}"
    for name, group in groups.items():
        floor = FLOORS[name]
        assert group.found / max(group.errors, 1) >= floor.recall, name
        assert group.read / group.numbers >= floor.coverage, name
        assert group.false_warnings <= floor.warnings, (name, group.misses)


def test_audit_grows_at_most_as_length_to_the_1_2_on_joined_corpus_texts() -> None:
    """Issue 23: the growth exponent ``benchmarks/audit_corpus.py --scaling`` prints, on a
    small scale: the first 1, 2, 4, 8, 16 dev texts (name order) joined, CPU medians of 3,
    the least-squares slope of log time over log length at most 1.2 (measured 0.84; the
    full corpus gives about 0.9). Which texts come first changes the figure, not the bound."""
    corpus = _corpus()
    corpus.audit(corpus.joined(1), path="joined.md")  # warm-up: imports and caches
    texts = [corpus.joined(count) for count in (1, 2, 4, 8, 16)]
    times = [corpus.audit_cpu(text, 3) for text in texts]
    exponent = corpus.growth_exponent([len(t) for t in texts], times)
    assert exponent <= 1.2, (exponent, times)


def test_a_100_kb_post_is_read_whole() -> None:
    """The 100 KB post of benchmarks/audit_corpus.py (which times it: issue 12's < 1 s) is read
    whole, no budget spent; a CPU-time guard against a quadratic regression."""
    post = _corpus().post_100kb()
    assert 99_000 <= len(post) <= 100_000
    start = time.process_time()
    r = audit(post, path="post.md")
    assert time.process_time() - start < 10.0
    assert not any(reason.key == "limit" for reason, _ in r.not_read())
    assert r.coverage()["judged"] > 0


def test_a_name_given_again_under_another_head_is_that_heads_own() -> None:
    # held-out zh27: each head writes its own S_{2,1}, S_{2,2}
    heads = "头 1: $S_{2,1}=0$, $S_{2,2}=1$.\n\n$$a = 1$$\n\n头 2: $S_{2,1}=1$, $S_{2,2}=0$.\n"
    assert "conflicting-definition" not in [f.code for f in audit(heads).findings]
    # without the labels the second values are conflicts
    bare = heads.replace("头 1: ", "").replace("头 2: ", "")
    assert [f.code for f in audit(bare).findings].count("conflicting-definition") == 2
    # a label holds for the lines after it: a second value there is a conflict
    again = "头 2: $d = 1$\n\n$$a = 1$$\n\n$d = 3$\n"
    assert [f.code for f in audit(again).findings].count("conflicting-definition") == 1


def test_a_head_label_in_a_chains_name_opens_that_head() -> None:
    # (fresh en83: each head's line of a text block, ``Head 1: Q = [0, 1] -> …``)
    text = "```text\nHead 1: Q = [1, 0] -> s = 1\nHead 2: Q = [0, 1] -> s = 2\n```\n"
    u = understand(text, fmt="markdown")
    first, second = scopes(u.src, u.reading)
    assert first != second
    assert "conflicting-definition" not in [f.code for f in audit(text).findings]
    bare = text.replace("Head 1: ", "").replace("Head 2: ", "")
    assert "conflicting-definition" in [f.code for f in audit(bare).findings]


def test_scopes_follow_sections_and_head_labels() -> None:
    text = "$x = 1$\n\nHead 1: $y = 1$\n\n$z = 2$\n\nHead 2: $y = 2$\n\n# B\n\n$y = 3$\n"
    u = understand(text, fmt="markdown")
    got = scopes(u.src, u.reading)
    assert len(got) == 5
    assert got[0] != got[1] == got[2] != got[3] != got[4]
