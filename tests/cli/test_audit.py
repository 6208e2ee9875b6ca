"""Tests of symattn.cli.audit: the process pool only when it pays, the same answers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from symattn.cli import audit as audit_cli
from symattn.cli.main import main

from ..conftest import ROOT

SEEDS = ROOT / "tests" / "fixtures" / "seeds"


@pytest.mark.parametrize(
    ("jobs", "files", "load", "expected"),
    [(1, 50, 0.0, 1), (2, 5, 0.0, 1), (2, 50, 0.0, 2), (2, 50, 7.0, 1), (8, 50, 0.0, 2)],
)
def test_pool_size(
    jobs: int, files: int, load: float, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit_cli.os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(audit_cli.os, "sched_getaffinity", lambda pid: {0, 1})
    assert audit_cli.pool_size(jobs, files) == expected


def test_a_pool_gives_the_serial_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seeds = sorted(SEEDS.glob("*.txt"))
    for i in range(audit_cli.POOL_FROM):
        shutil.copy(seeds[i % len(seeds)], tmp_path / f"f{i:02}.txt")
    main(["audit", str(tmp_path), "--format", "json"])
    serial = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(audit_cli, "pool_size", lambda jobs, files: 2)
    main(["audit", str(tmp_path), "--format", "json", "--jobs", "2"])
    assert json.loads(capsys.readouterr().out) == serial
