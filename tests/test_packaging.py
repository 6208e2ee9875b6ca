"""Packaging: the wheel ships the templates, the dependencies and the console script."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from symattn.present.resources import templates_dir

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
RUNTIME_DEPS = ("sympy", "mpmath", "jinja2", "python-flint", "numpy")


def _template_files() -> list[str]:
    """Every file under the top-level templates/ folder, relative to it, as posix paths."""
    return sorted(
        p.relative_to(TEMPLATES).as_posix()
        for p in TEMPLATES.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


def _copy_source(dest: Path) -> Path:
    """Copy what a build needs, so that setuptools' build/ and egg-info stay out of the repo."""
    src = dest / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        if not (ROOT / name).is_file():
            pytest.fail(f"{name} is missing; pyproject.toml needs it to build the wheel")
        shutil.copy2(ROOT / name, src / name)
    for license_file in ROOT.glob("LICENSE*"):
        shutil.copy2(license_file, src / license_file.name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("symattn", "templates"):
        shutil.copytree(ROOT / folder, src / folder, ignore=ignore)
    return src


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    """Build the project's wheel once (with the installed setuptools) and open it."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = _copy_source(tmp)
    out = tmp / "dist"
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        str(src),
        "--no-deps",
        "--no-build-isolation",
        "--no-cache-dir",
        "-q",
        "-w",
        str(out),
    ]
    proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"wheel build failed:\n{proc.stdout}\n{proc.stderr}"
    wheels = list(out.glob("symattn-*.whl"))
    assert len(wheels) == 1, wheels
    zf = zipfile.ZipFile(wheels[0])
    yield zf
    zf.close()


def _dist_info(zf: zipfile.ZipFile, name: str) -> str:
    (member,) = [n for n in zf.namelist() if n.endswith(f".dist-info/{name}")]
    return zf.read(member).decode("utf-8")


def test_wheel_ships_every_module(wheel: zipfile.ZipFile) -> None:
    """Every module of the source tree is in the wheel (a subpackage missing from
    pyproject's package list once broke every command of a non-editable install)."""
    names = set(wheel.namelist())
    modules = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "symattn").rglob("*.py")
        if "__pycache__" not in p.parts
    )
    missing = [m for m in modules if m not in names]
    assert not missing, f"modules missing from the wheel: {missing}"


def test_wheel_ships_every_template(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    assert "symattn/templates/README.md" in names
    files = _template_files()
    assert "README.md" in files
    missing = [f for f in files if f"symattn/templates/{f}" not in names]
    assert not missing, f"templates missing from the wheel: {missing}"


def test_wheel_metadata_lists_runtime_deps(wheel: zipfile.ZipFile) -> None:
    metadata = _dist_info(wheel, "METADATA")
    requires = [
        line.split(":", 1)[1].strip().lower()
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    for dep in RUNTIME_DEPS:
        assert any(r.startswith(dep) for r in requires), f"{dep} not in {requires}"
    assert "Requires-Python: >=3.11" in metadata


def test_wheel_declares_console_script(wheel: zipfile.ZipFile) -> None:
    entry_points = _dist_info(wheel, "entry_points.txt")
    lines = [line.replace(" ", "") for line in entry_points.splitlines()]
    assert "[console_scripts]" in lines
    assert "symattn=symattn.cli.main:main" in lines


def test_templates_dir_contains_readme() -> None:
    folder = templates_dir()
    assert folder.is_dir()
    assert (folder / "README.md").is_file()
