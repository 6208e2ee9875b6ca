"""The shape of the package: layers import only downwards, modules stay small, no hidden imports.

``lint-imports`` (run by ``.ci/run``) checks the static import graph; these tests check what
actually gets loaded, and the rules a review would otherwise have to remember.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "symattn"

#: the layers, bottom first; a module may import its own layer and the ones before it
LAYERS: tuple[tuple[str, ...], ...] = (
    ("symattn.errors", "symattn.version", "symattn.stages"),
    ("symattn.config",),
    ("symattn.io",),
    ("symattn.numbers",),
    ("symattn.exact",),
    ("symattn.fast",),
    ("symattn.engine",),
    ("symattn.spec",),
    ("symattn.judge",),
    ("symattn.read",),
    ("symattn.present",),
    ("symattn.cli", "symattn.api", "symattn.__main__"),
)

#: the only modules that may be imported inside a function: heavy, optional, rarely needed
LAZY_ALLOWED: frozenset[str] = frozenset({"sympy", "matplotlib", "matplotlib.pyplot", "torch"})

#: "no module over ~500 lines"
MAX_LINES = 550


def _layer_of(module: str) -> int:
    for i, layer in enumerate(LAYERS):
        if any(module == top or module.startswith(top + ".") for top in layer):
            return i
    return -1  # the root package itself


def _loaded_by(module: str) -> list[str]:
    code = (
        f"import json, sys; import {module}; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('symattn'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded: list[str] = json.loads(out.stdout)
    return loaded


@pytest.mark.parametrize("layer", [layer[0] for layer in LAYERS[:-1]])
def test_importing_a_layer_loads_nothing_above_it(layer: str) -> None:
    top = _layer_of(layer)
    above = [m for m in _loaded_by(layer) if _layer_of(m) > top]
    assert above == [], f"import {layer} loads {above}"


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "templates" not in p.parts)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_a_god_module(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines; split it"


def _function_imports(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import):
                out += [(node.lineno, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                out.append((node.lineno, "." * node.level + (node.module or "")))
    return out


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_hidden_in_a_function(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = [(n, m) for n, m in _function_imports(tree) if m not in LAZY_ALLOWED]
    assert hidden == [], f"{path.relative_to(ROOT)}: imports inside functions {hidden}"


#: attributes that hold a role, a stage or a kind: compared with enum members, never text
KIND_ATTRIBUTES: frozenset[str] = frozenset(
    {
        "role",
        "roles",
        "kind",
        "step",
        "stage",
        "start",
        "severity",
        "code",
        "status",
        "masking",
        "relation",
        "how",
        "source",
    }
)
#: the comparisons that test a value against a kind
_KIND_TESTS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def _is_text(node: ast.expr) -> bool:
    """A string literal, or a tuple, list or set of string literals."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
        )
    return False


def _kinds_compared_with_text(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, code) of every comparison of a kind attribute with a string literal."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for op, a, b in zip(node.ops, sides[:-1], sides[1:], strict=True):
            if not isinstance(op, _KIND_TESTS):
                continue
            if any(
                isinstance(x, ast.Attribute) and x.attr in KIND_ATTRIBUTES and _is_text(y)
                for x, y in ((a, b), (b, a))
            ):
                out.append((node.lineno, ast.unparse(node)))
    return out


def test_the_kind_check_finds_a_kind_compared_with_text() -> None:
    found = _kinds_compared_with_text(
        ast.parse(
            "f.role == 'q'\n"
            "'weights' != g.role\n"
            "b.kind in ('prose', 'heading')\n"
            "x.step not in {'weights'}\n"
            "f.role is RoleName.Q\n"
            "f.name == 'q'\n"
            "w.kind in KINDS\n"
        )
    )
    assert [line for line, _ in found] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "path",
    sorted((PACKAGE / "read").rglob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_read_compares_kinds_with_members_not_text(path: Path) -> None:
    """Roles, stages, kinds, severities and codes are enums in ``read/``: a comparison of one
    with a string literal is a kind passed as text (the project rule "avoid roles or kinds
    passed as strings")."""
    found = _kinds_compared_with_text(ast.parse(path.read_text(encoding="utf-8")))
    assert found == [], f"{path.relative_to(ROOT)} compares kinds with text: {found}"


def test_the_layer_table_names_every_top_level_module() -> None:
    tops = {p.stem for p in PACKAGE.glob("*.py")} | {
        p.name for p in PACKAGE.iterdir() if p.is_dir()
    }
    tops -= {"__init__", "__pycache__", "templates", "py"}
    named = {m.split(".")[1] for layer in LAYERS for m in layer}
    assert tops <= named, f"modules not in a layer: {sorted(tops - named)}"


def test_the_audit_pipeline_table_names_every_module_of_read() -> None:
    """docs/audit.md, "The pipeline": every module of ``symattn/read/`` has its stage there."""
    doc = (ROOT / "docs" / "audit.md").read_text(encoding="utf-8")
    table = doc[doc.index("## The pipeline") : doc.index("## What is read")]
    modules = {p.stem for p in (PACKAGE / "read").glob("*.py")} - {"__init__"}
    assert {m for m in modules if f"`{m}`" not in table} == set()


def test_the_import_linter_contract_lists_the_same_layers() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = config["tool"]["importlinter"]["contracts"]
    contract_layers = [
        tuple(sorted(m.strip() for m in layer.split("|"))) for layer in reversed(contract["layers"])
    ]
    ours = [tuple(sorted(m for m in layer if m != "symattn.__main__")) for layer in LAYERS]
    assert contract_layers == ours


def test_py_typed_ships() -> None:
    assert (PACKAGE / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["symattn"]
