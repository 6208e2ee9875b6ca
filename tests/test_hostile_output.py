"""Output injection: text copied from input into a document is escaped for its format.

LaTeX is compiled with xelatex in its default restricted ``\\write18`` mode with
``-recorder``: the .fls must list no file outside the document's folder and the TeX tree,
``/etc/passwd`` must appear nowhere, and no ``PWNED`` file may appear. Markdown is rendered
with markdown-it (``html: true``, the strict setting) and every math span with KaTeX.
JSON outputs of ``explain``, ``check`` and ``audit`` give every string back unchanged.
"""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symattn.cli.main import main
from symattn.present.document import DocOptions, build_document, meta_from_spec
from symattn.present.render import (
    escape_latex,
    escape_markdown,
    render_json,
    render_latex,
    render_markdown,
)
from symattn.present.reports import audit_json
from symattn.read.audit import audit
from symattn.spec import loads_spec

from .conftest import ROOT, require_tool

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"
INJECTIONS = [p for p in (HOSTILE / "injection.txt").read_text(encoding="utf-8").splitlines() if p]
ALL = "".join(INJECTIONS)
NODE_MODULES = ROOT / ".ci" / "node" / "node_modules"

MARKDOWN_IT_JS = r"""
const path = require("path");
let MarkdownIt;
try { MarkdownIt = require(path.join(process.argv[2], "markdown-it")); } catch (e) { MarkdownIt = require("markdown-it"); }
const md = new MarkdownIt({ html: true, linkify: false });
const src = require("fs").readFileSync(process.argv[3], "utf8");
process.stdout.write(md.render(src));
"""


SAFE_ELEMENTS = {
    "h1",
    "h2",
    "h3",
    "h4",
    "p",
    "blockquote",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "code",
    "pre",
    "em",
    "strong",
    "ul",
    "ol",
    "li",
    "hr",
    "br",
}


class _Collector(HTMLParser):
    """Every element and attribute of rendered HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs.extend((k, v or "") for k, v in attrs)


def html_elements(html: str) -> set[str]:
    """The element names in ``html``."""
    c = _Collector()
    c.feed(html)
    return c.tags


def unsafe_attributes(html: str) -> list[tuple[str, str]]:
    """Event handlers and javascript: URLs in ``html``."""
    c = _Collector()
    c.feed(html)
    return [
        (k, v)
        for k, v in c.attrs
        if k.startswith("on") or "javascript:" in v.lower() or k in ("href", "src")
    ]


def hostile_spec(names: list[str], title: str, notes: str) -> object:
    """A computable spec whose every free text is hostile."""
    data = {
        "title": title,
        "notes": notes,
        "source": title,
        "tokens": names,
        "inputs": {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]},
    }
    return loads_spec(json.dumps(data), fmt="json")


def document(names: list[str], title: str, notes: str) -> object:
    spec = hostile_spec(names, title, notes)
    return build_document(spec.run(), meta_from_spec(spec), DocOptions())  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def docs() -> list[object]:
    """One document per pair of injection strings as token names, all of them as the title."""
    out = []
    for i in range(0, len(INJECTIONS) - 1, 2):
        out.append(document([INJECTIONS[i], INJECTIONS[i + 1]], ALL, ALL))
    return out


def latex_bare(tex: str) -> list[str]:
    """Control words and bare specials of LaTeX text, escapes of specials (and the break
    opportunities ``\\allowbreak{}`` that long runs of user text get) removed."""
    import re

    tex = re.sub(
        r"\\text(?:backslash|asciicircum|asciitilde|less|greater|bar|braceleft|braceright"
        r"|dollar|underscore)\{\}|\{[][]\}|\\allowbreak\{\}"
        r"|\\ensuremath\{\\?[A-Za-z]*-?\}|\\symattn(?:char|cjk)\{[0-9A-F]+\}\{[^{}\\]+\}"
        r"|(?<=\})\\ldots",  # a long token name in a formula, cut
        "",
        tex,
    )
    return [
        t
        for t in re.findall(r"\\[A-Za-z@]+|\\.|[{}$&#%^_~]", tex, re.DOTALL)
        if not (len(t) == 2 and not t[1].isalpha())
    ]


@pytest.mark.parametrize("text", INJECTIONS)
def test_escape_latex_leaves_no_command(text: str) -> None:
    assert latex_bare(escape_latex(text)) == []


@pytest.mark.parametrize("text", INJECTIONS)
def test_escape_markdown_leaves_no_html_or_link(text: str) -> None:
    out = escape_markdown(text)
    assert "<" not in out
    assert "](" not in out
    import re

    assert not re.search(r"(?<!\\)(?:\\\\)*[`$*_]", out)


@given(st.text(max_size=60))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_escape_properties(text: str) -> None:
    assert latex_bare(escape_latex(text)) == []
    md = escape_markdown(text)
    assert "<" not in md and ">" not in md


def test_latex_document_has_no_user_command(docs: list[object]) -> None:
    plain = document(["a", "b"], "t", "n")
    base = sorted(latex_bare(render_latex(plain)))  # type: ignore[arg-type]
    for doc in docs:
        tex = render_latex(doc)  # type: ignore[arg-type]
        assert sorted(latex_bare(tex)) == base
        for word in ("\\input", "\\write", "\\catcode", "\\openin", "\\def", "\\immediate"):
            assert word not in tex


def test_xelatex_reads_nothing_outside(tmp_path: Path, docs: list[object]) -> None:
    """Compile the hostile LaTeX: no /etc/passwd read, nothing run, no PWNED."""
    xelatex = require_tool("xelatex")
    tex = render_latex(docs[0])  # type: ignore[arg-type]
    for doc in docs[1:]:  # every injection in one compile: the bodies of the other documents
        body = render_latex(doc, fragment=True)  # type: ignore[arg-type]
        tex = tex.replace("\\end{document}", body + "\n\\end{document}")
    (tmp_path / "doc.tex").write_text(tex, encoding="utf-8")
    proc = subprocess.run(
        [xelatex, "-recorder", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    log = (tmp_path / "doc.log").read_text(encoding="utf-8", errors="replace")
    assert proc.returncode == 0, log[-3000:]
    fls = (tmp_path / "doc.fls").read_text(encoding="utf-8", errors="replace")
    assert "/etc/passwd" not in fls
    assert "root:x:" not in log
    allowed = (
        str(tmp_path),
        "/usr/",
        "/etc/texmf",
        "/etc/fonts",
        "/var/lib/texmf",
        "/var/cache/",
        "/opt/texlive",
        "/root/.texlive",
    )
    for line in fls.splitlines():
        if line.startswith(("INPUT ", "OUTPUT ")):
            f = line.split(" ", 1)[1]
            assert not f.startswith("/") or f.startswith(allowed), line
            assert f.startswith("/") or "/" not in f.removeprefix("./"), line
    assert "runsystem" not in log  # restricted \write18 would log "runsystem(...)" for a run
    assert not list(tmp_path.rglob("PWNED"))
    assert not (ROOT / "PWNED").exists()


def test_markdown_it_passes_no_html(tmp_path: Path, docs: list[object]) -> None:
    node = require_tool("node")
    if not (NODE_MODULES / "markdown-it").is_dir():
        require_tool("markdown-it-module-in-.ci/node")  # skip off CI, fail on CI
    (tmp_path / "md.js").write_text(MARKDOWN_IT_JS, encoding="utf-8")
    for i, doc in enumerate(docs):
        md = render_markdown(doc)  # type: ignore[arg-type]
        src = tmp_path / f"doc{i}.md"
        src.write_text(md, encoding="utf-8")
        html = subprocess.run(
            [node, str(tmp_path / "md.js"), str(NODE_MODULES), str(src)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
        assert html_elements(html) <= SAFE_ELEMENTS, html[:2000]
        assert not unsafe_attributes(html), html[:2000]


def test_katex_renders_every_math_span(tmp_path: Path, docs: list[object]) -> None:
    node = require_tool("node")
    if not (NODE_MODULES / "katex").is_dir():
        require_tool("katex-module-in-.ci/node")
    files = []
    for i, doc in enumerate(docs):
        f = tmp_path / f"doc{i}.md"
        f.write_text(render_markdown(doc), encoding="utf-8")  # type: ignore[arg-type]
        files.append(str(f))
    proc = subprocess.run(
        [node, str(ROOT / "tests" / "katex_check.js"), *files],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_json_document_round_trips(docs: list[object]) -> None:
    for i, doc in enumerate(docs):
        data = json.loads(render_json(doc))  # type: ignore[arg-type]
        assert data["title"] == ALL and data["notes"] == ALL and data["source"] == ALL
        dump = json.dumps(data, ensure_ascii=False)
        assert (
            INJECTIONS[2 * i] in dump
            or json.dumps(INJECTIONS[2 * i], ensure_ascii=False)[1:-1] in dump
        )


@pytest.mark.parametrize("fmt", ["json", "markdown", "text"])
def test_check_outputs_with_hostile_names(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    names = ["<script>alert(1)</script>", "\\input{/etc/passwd}"]
    data = {
        "title": ALL,
        "tokens": names,
        "inputs": {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]},
        "claims": {"rows": {names[0]: {"weights": ["0.5", "0.5"]}}},
    }
    (tmp_path / "s.json").write_text(json.dumps(data), encoding="utf-8")
    code = main(["check", "s.json", "--format", fmt])
    out = capsys.readouterr().out
    assert code == 1  # 0.5, 0.5 are wrong weights
    if fmt == "json":
        assert names[0] in json.dumps(json.loads(out), ensure_ascii=False)
    elif fmt == "markdown":
        assert "<script" not in out


@pytest.mark.parametrize("fmt", ["json", "markdown"])
def test_audit_outputs_with_hostile_text(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    text = "<script>alert(1)</script> [x](javascript:alert(1))\n\n$$ e^1 = 2.71 $$\n\n$$ <img src=x onerror=alert(1)> = 3 $$\n"
    (tmp_path / "p.md").write_text(text, encoding="utf-8")
    main(["audit", "p.md", "--format", fmt])
    out = capsys.readouterr().out
    if fmt == "json":
        data = json.loads(out)
        assert data == json.loads(json.dumps(data, ensure_ascii=True))
        assert data["files"][0]["findings"]
    else:
        assert not re.search(r"(?<!\\)<|(?<!\\)\]\(", out), out


@given(st.text(max_size=200))
@settings(max_examples=100, deadline=None)
def test_audit_json_round_trips_any_text(text: str) -> None:
    data = audit_json([audit(text)])
    assert json.loads(json.dumps(data)) == json.loads(json.dumps(data, ensure_ascii=False))
