"""The hook definitions (.pre-commit-hooks.yaml): which files each hook is given, and the
audit hook run through ``pre-commit try-repo`` on a temporary git repository: a wrong
number fails the commit, the same number silenced in place passes."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

HOOKS = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.slow
def test_the_audit_hook_through_pre_commit_try_repo(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.fail("git is needed for the pre-commit test")
    if importlib.util.find_spec("pre_commit") is None:  # in the test extra: fail, never skip
        pytest.fail("pre-commit is needed (pip install -e '.[test]')")

    source = tmp_path / "symattn"  # a clean copy: try-repo installs from a git repository
    subprocess.run(
        ["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(source)], check=True
    )
    with open(tmp_path / "wip.patch", "wb") as patch:  # the work not yet committed
        subprocess.run(
            ["git", "-C", str(ROOT), "diff", "HEAD", "--binary"], check=True, stdout=patch
        )
    if (tmp_path / "wip.patch").stat().st_size:
        _git(source, "apply", str(tmp_path / "wip.patch"))
        _git(source, "add", "-A")
        _git(source, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "wip")
    work = tmp_path / "work"
    work.mkdir()
    _git(work, "init", "-q")
    (work / "post.md").write_text("One and one: $1 + 1 = 3$.\n", encoding="utf-8")
    (work / "ok.md").write_text("One and one: $1 + 1 = 2$.\n", encoding="utf-8")
    _git(work, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "NO_COLOR": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(source), "symattn-audit",
         "--all-files", "--color", "never"],
        cwd=work, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "post.md:1:" in out and "wrong-value" in out
    (work / "post.md").write_text(
        "One and one: $1 + 1 = 3$. <!-- symattn: ignore[wrong-value] -->\n", encoding="utf-8"
    )
    _git(work, "add", ".")
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(source), "symattn-audit",
         "--all-files", "--color", "never"],
        cwd=work, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


def _pattern(hook: str) -> re.Pattern[str]:
    block = HOOKS.split(f"- id: {hook}\n", 1)[1].split("\n- id:", 1)[0]
    m = re.search(r"^  files: '([^']+)'$", block, re.MULTILINE)
    assert m is not None, block
    return re.compile(m.group(1))


@pytest.mark.parametrize(
    ("hook", "path", "taken"),
    [
        ("symattn-audit", "docs/post.md", True),
        ("symattn-audit", "notes/ch1.tex", True),
        ("symattn-audit", "a.txt", True),
        ("symattn-audit", "code.py", False),
        ("symattn-audit", "pyproject.toml", False),
        ("symattn-check", "examples/seed.symattn.toml", True),
        ("symattn-check", "pyproject.toml", False),
    ],
)
def test_hook_files(hook: str, path: str, taken: bool) -> None:
    assert bool(_pattern(hook).search(path)) is taken
    assert f"- id: {hook}\n" in HOOKS and "language: python" in HOOKS
