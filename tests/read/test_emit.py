"""read/emit.py: the problems audit judged, as specs that check runs with the same findings."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from symattn.config import DEFAULT_LIMITS
from symattn.errors import InputError
from symattn.judge import check
from symattn.judge.findings import Finding, SpecLocation
from symattn.read.audit import audit
from symattn.read.emit import _path, write_specs
from symattn.read.report import AuditReport
from symattn.spec.build import build_spec

ROOT = Path(__file__).resolve().parents[2]
TEXTS = sorted(
    p
    for folder in ("dev", "fresh")
    for p in (ROOT / "tests" / "corpus" / folder).glob("*")
    if p.suffix in (".md", ".tex", ".txt") and not p.name.startswith("README")
)
FLAGGED = ("error", "warning")


def _codes(f: Finding) -> set[str]:
    return {f.code, *f.alternatives}


def _differences(report: AuditReport) -> list[str]:
    """Where check on the emitted specs and the audit disagree, number by number: a finding of
    check on a claim the audit does not report there, or a finding the audit reports on a claim
    of a spec that check does not give. (Findings about no number of the text, such as a frame
    inferred for a divisor the text never writes, have no place to compare.)"""
    at: dict[tuple[int, int], set[str]] = {}
    for f in report.findings:
        if f.severity in FLAGGED:
            at.setdefault((f.line, f.column), set()).update(_codes(f))
    out = []
    for spec in report.specs:
        data = tomllib.loads(spec.toml)
        result = check(build_spec(data, spec.name, DEFAULT_LIMITS))
        got: dict[tuple[int, int], set[str]] = {}
        normalized_rows = set()
        for f in result.findings:
            if f.severity not in FLAGGED or not isinstance(f.location, SpecLocation):
                continue
            if f.code == "not-normalized":
                normalized_rows.add(f.location.position[:1])
                continue
            path = _path((f.location.step, f.location.position), data)
            if path in spec.places:
                place = spec.places[path]
                got.setdefault(place, set()).update(_codes(f))
                if not _codes(f) & at.get(place, set()):
                    out.append(f"{spec.name}: check only: {f.code} at {place}")
        rows = {place: path[2] for path, place in spec.places.items() if len(path) > 2}
        for f in report.findings:
            place = (f.line, f.column)
            if f.severity not in FLAGGED or place not in rows or f.code == "not-normalized":
                continue
            if (f.cause or "").startswith("level2:") and not _codes(f) & got.get(place, set()):
                out.append(f"{spec.name}: audit only: {f.code} at {place}")
    return out


@pytest.mark.parametrize("path", TEXTS, ids=[p.name for p in TEXTS])
def test_emitted_specs_give_the_findings_audit_gives(path: Path) -> None:
    report = audit(path.read_text(encoding="utf-8"), path=path.name)
    assert _differences(report) == []


def test_a_spec_says_where_each_claim_is_and_what_was_inferred() -> None:
    text = (ROOT / "tests" / "corpus" / "dev" / "en03_skiitg-i-am-fine.md").read_text("utf-8")
    (spec,) = audit(text, path="post.md").specs
    assert spec.name == "post.1.toml"
    assert '"0.422",  # line 82, column 3' in spec.toml
    assert "# Inferred: token names are positions" in spec.toml
    assert spec.places[("claims", "rows", "1", "weights", 0)] == (82, 3)
    assert tomllib.loads(spec.toml)["source"] == "post.md"


def test_claims_whose_verdict_audit_withheld_are_left_out_and_listed() -> None:
    # (a short score table whose claims audit judges in no single frame)
    text = (
        ROOT / "tests" / "corpus" / "dev" / "en34_yangshiteng-score-table-the-cat-sat.md"
    ).read_text("utf-8")
    specs = audit(text, path="en34.md").specs
    withheld = [s for s in specs if "# Withheld" in s.toml]
    assert withheld, [s.toml for s in specs]
    for s in withheld:
        data = tomllib.loads(s.toml)
        for line in s.toml.splitlines():
            if line.startswith("# Withheld"):
                where = line.split("line ")[1].split(":")[0]  # "21, column 21"
                assert f"# line {where}" not in s.toml
        assert build_spec(data, s.name, DEFAULT_LIMITS)


def test_write_specs_refuses_a_file_for_a_folder(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("", encoding="utf-8")
    report = audit("$$ q = [1, 0] $$\n", path="a.md")
    with pytest.raises(InputError, match="cannot create the folder|not a folder"):
        write_specs(report.specs or (), tmp_path / "x")
    assert write_specs((), tmp_path / "new") == [] and (tmp_path / "new").is_dir()
