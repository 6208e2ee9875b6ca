"""Issue 15 row 8: Markdown output stays safe after KaTeX and after MathJax 3.

Every Markdown output (explain's documents, check's and audit's reports, the notebook summary)
is rendered the ways readers render it: markdown-it with a dollar-math rule and KaTeX, and
markdown-it followed by MathJax 3 typesetting the page (TeX input with every package, ``$``
and ``\\(`` delimiters, escapes, environments and refs on). No ``href``, ``src``, ``on*`` or
``javascript:`` attribute may appear, however hostile the names, titles and texts are.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from symattn import scaled_dot_product_attention
from symattn.judge.check import check
from symattn.present.document import DocOptions, build_document, meta_from_spec
from symattn.present.notebook import summary_markdown
from symattn.present.render import render_markdown
from symattn.present.reports import audit_markdown, check_markdown
from symattn.read.audit import audit
from symattn.spec import loads_spec

from .. import regen_golden
from ..conftest import ROOT, require_tool

NODE_MODULES = ROOT / ".ci" / "node" / "node_modules"
SCRIPT = ROOT / "tests" / "math_safety_check.js"
#: the payloads of row 8, and their cousins
PAYLOADS = (
    r"\(\href{javascript:alert(1)}{click}\)",
    r"$\href{javascript:alert(2)}{x}$",
    r"$$\href{javascript:alert(3)}{x}$$",
    r"\[\href{javascript:alert(4)}{x}\]",
    r"\begin{array}{c}\href{javascript:alert(5)}{x}\end{array}",
    r"\\(\\href{javascript:alert(6)}{x}\\)",
    "`$\\href{javascript:alert(7)}{x}$`",
    '<a href="javascript:alert(8)">x</a>',
    r"\ref{x} \eqref{y}",
)


def _run(files: list[Path]) -> list[dict[str, object]]:
    node = require_tool("node")
    for module in ("markdown-it", "katex", "mathjax-full"):
        if not (NODE_MODULES / module).is_dir():
            require_tool(f"{module}-in-.ci-node")  # skips off CI, fails on CI
    run = subprocess.run(
        [node, str(SCRIPT), str(NODE_MODULES), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return [json.loads(line) for line in run.stdout.splitlines()]


def _hostile_spec(names: list[str], title: str) -> object:
    data = {
        "title": title,
        "notes": " ".join(PAYLOADS),
        "source": title,
        "tokens": names,
        "inputs": {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]},
        "claims": {"rows": {names[0]: {"weights": [0.5, 0.5], "output": [0.25, 0.75]}}},
    }
    return loads_spec(json.dumps(data), fmt="json")


def _outputs(tmp_path: Path) -> list[Path]:
    texts: dict[str, str] = {}
    for name, lang, suffix, text in regen_golden.documents():
        if suffix == "md":
            texts[f"golden.{name}.{lang}"] = text
    for k in range(0, len(PAYLOADS) - 1, 2):
        spec = _hostile_spec([PAYLOADS[k], PAYLOADS[k + 1]], PAYLOADS[k])
        meta = meta_from_spec(spec)  # type: ignore[arg-type]
        result = spec.run()  # type: ignore[attr-defined]
        texts[f"explain.{k}"] = render_markdown(build_document(result, meta, DocOptions()))
        texts[f"explain-check.{k}"] = render_markdown(
            build_document(result, meta, DocOptions(), check=True)
        )
        texts[f"check.{k}"] = check_markdown(check(spec), "en", PAYLOADS[k])  # type: ignore[arg-type]
        r = scaled_dot_product_attention(
            [[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]], key_labels=[PAYLOADS[k], PAYLOADS[k + 1]]
        )
        texts[f"notebook.{k}"] = summary_markdown(r)
    hostile_text = "\n\n".join(
        [f"{p}\n\n$$ 1 + 1 = 3 $$\n\nq = {p} = 5" for p in PAYLOADS] + ["$$ 2 = 2 $$"]
    )
    texts["audit"] = audit_markdown([audit(hostile_text, path=PAYLOADS[0])], "en")
    files = []
    for key, text in texts.items():
        files.append(tmp_path / f"{key}.md")
        files[-1].write_text(text, encoding="utf-8")
    return files


def test_no_output_holds_a_link_or_a_handler_after_katex_or_mathjax(tmp_path: Path) -> None:
    records = _run(_outputs(tmp_path))
    assert {r["renderer"] for r in records} == {"katex", "mathjax", "mathjax-spans"}
    bad = [r for r in records if r["unsafe"]]
    assert bad == []
    golden = [r for r in records if "golden.thinking" in str(r["file"])]
    assert golden and all(int(r["math"]) > 20 for r in golden)  # type: ignore[call-overload]


@pytest.mark.parametrize("payload", [r"\\(\\href{javascript:alert(1)}{click}\\)"])
def test_the_check_finds_a_link_that_math_renderers_make(tmp_path: Path, payload: str) -> None:
    """The control: text escaped the old way (backslash escapes) turns into a link."""
    f = tmp_path / "old.md"
    f.write_text(f"# Title {payload}\n", encoding="utf-8")
    records = {r["renderer"]: r for r in _run([f])}
    assert records["mathjax"]["unsafe"] == ["href=javascript:alert(1)"]
