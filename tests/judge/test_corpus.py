"""The corpus of real worked examples (tests/corpus/specs): every claim gets its expected verdict.

Each spec was transcribed from a real text of tests/corpus/texts; its sidecar
``<id>.expect.toml`` gives, for every claim, the verdict of the hand judgement (re-verified
with the exact engine) and why. ``benchmarks/verdicts.py`` prints the same comparison as a
table (recall, false accusations, cause agreement).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.verdicts import (
    CORRECT,
    ERRORS,
    SPECS,
    Outcome,
    claim_keys,
    load_expected,
    outcomes,
    score,
    sidecar,
    spec_paths,
)
from symattn.spec import load_spec

PATHS = spec_paths()
TEXTS = SPECS.parent / "dev"
#: findings of a spec that are not about one claimed number (the row, an inferred divisor)
SPEC_LEVEL = ("sqrt_d_k", "weights[")


def test_the_corpus_is_what_the_issue_asks_for() -> None:
    specs = [load_spec(p) for p in PATHS]
    assert len(specs) >= 30
    assert sum(s.lang == "zh" for s in specs) >= 10
    assert sum(s.precision == "float32" for s in specs) >= 8
    assert sum(bool(s.rounded_inputs) for s in specs) >= 5
    assert sum(s.start.name in ("scores", "scaled") for s in specs) >= 5
    assert any(s.has_heads for s in specs) and any(
        s.cross or s.query_tokens != s.tokens for s in specs
    )


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_every_claim_has_one_expectation(path: Path) -> None:
    spec = load_spec(path)
    assert spec.source and spec.title, "a spec keeps its source"
    data = tomllib.loads(sidecar(path).read_text("utf-8"))
    assert data["id"] == path.stem and (TEXTS / data["text"]).is_file()
    keys = Counter(claim_keys(spec))
    expected = load_expected(sidecar(path))
    seen = Counter((e.where, e.claimed) for e in expected)
    extra = {k for k in seen if k not in keys}
    assert all(where.startswith(SPEC_LEVEL) for where, _ in extra), extra
    assert {k: n for k, n in keys.items() if seen[k] != n} == {}
    for e in expected:
        assert e.verdict == "ok" or e.why, f"{e.where}: every verdict but ok says why"


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_every_verdict_is_as_expected(path: Path) -> None:
    outs = outcomes(path)
    wrong: list[Outcome] = [o for o in outs if not o.agrees]
    assert [
        (o.expected.where, o.expected.claimed, o.expected.verdict, o.primary) for o in wrong
    ] == []


def test_no_false_accusation_and_every_real_error_found() -> None:
    s = score(PATHS)
    assert s.accused == 0 and s.found == s.errors and s.errors >= 50
    assert s.correct > 500 and ERRORS.isdisjoint(CORRECT)
