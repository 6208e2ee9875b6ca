"""Issue 15, row 24 (and the output half of row 13): what reaches a terminal.

Text that came from input (a document, a file name, a title) may hold terminal escape
sequences (``ESC ] 0 ; … BEL`` retitles the window, ``ESC [ 2 J`` clears it, OSC 8 makes
links) or C1 controls (``U+009B`` is an 8-bit CSI). Every command prints through one filter
(``cli.output.safe_streams``): to a terminal, escape sequences and control characters are
removed; to a pipe or a file the text is passed on unchanged. Lone surrogates are written as
backslash escapes on every stream, never as a ``UnicodeEncodeError``.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.cli.main import main
from symattn.cli.output import SafeStream, terminal_text

from .conftest import ROOT

ESC = "\x1b"
CONTROLS = {chr(c) for c in [*range(0x00, 0x20), *range(0x7F, 0xA0)]} - {"\t", "\n"}


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\x1b[31mred\x1b[0m", "ared"),  # CSI colours
        ("\x1b[2J\x1b[H\x1b[?25l" + "x", "x"),  # clear screen, home, hide cursor
        ("\x1b]0;owned\x07rest", "rest"),  # OSC window title ended by BEL
        ("\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\", "link"),  # OSC 8 hyperlink, ST
        ("\x1bP+q544e\x1b\\ok", "ok"),  # DCS request
        ("\x1b_apc\x1b\\ok", "ok"),  # APC
        ("a\x1bcb", "ab"),  # RIS: full reset
        ("a\x1b(0b", "ab"),  # charset switch to line drawing
        ("\x9b2Jok", "ok"),  # 8-bit CSI
        ("\x9d0;t\x9cok", "ok"),  # 8-bit OSC ended by 8-bit ST
        ("a\x07b\x08c\x7fd\x85e\x0bf\x0cg\x1ch\x00i", "abcdefghi"),
        ("x\ry", "xy"),  # a carriage return inside text could overwrite the line
        ("\raudit: 3/7 files", "\raudit: 3/7 files"),  # ...but a progress line redraws
        ("tab\there\nnext line", "tab\there\nnext line"),
        ("注意力 Ω √2 ≈ 1.41 — “quotes”", "注意力 Ω √2 ≈ 1.41 — “quotes”"),
        ("\x1b]0;no end\nnext", "\nnext"),  # an unterminated string ends at the line
        ("\x1b", ""),
        ("\x1b[", ""),
    ],
)
def test_row24_terminal_text(raw: str, shown: str) -> None:
    assert terminal_text(raw) == shown


@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(sorted(CONTROLS))))
@settings(max_examples=300, deadline=None)
def test_row24_terminal_text_leaves_no_control(text: str) -> None:
    shown = terminal_text(text)
    body = shown[1:] if shown.startswith("\r") else shown
    assert not set(body) & CONTROLS
    assert terminal_text(shown) == shown


def test_row24_lines_are_kept() -> None:
    """Stripping never joins two lines: every newline of the input survives."""
    text = "\n".join(f"{ESC}]0;t{i}\x07line {i} \x9b31m" for i in range(50))
    assert terminal_text(text).splitlines() == [f"line {i} " for i in range(50)]


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty", [True, False])
def test_row24_safe_stream(tty: bool) -> None:
    target = _Tty() if tty else io.StringIO()
    stream = SafeStream(target, terminal_text if tty else None)
    stream.write(f"a{ESC}[2Jb\ud800c")
    assert target.getvalue() == ("ab\\ud800c" if tty else f"a{ESC}[2Jb\\ud800c")


def test_row13_surrogates_never_raise_on_an_ascii_stream() -> None:
    raw = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    stream = SafeStream(raw, None)
    stream.write("Ω\ud800x\n")
    raw.flush()
    assert raw.buffer.getvalue() == b"\\u03a9\\ud800x\n"  # type: ignore[attr-defined]


HOSTILE_DOC = (
    "# Title \x1b]0;owned\x07 \x1b[2J\n\n"
    "A sentence \x9b31m in red \x1b]8;;http://evil/\x1b\\click\x1b]8;;\x1b\\.\n\n"
    "$$ 1 + 1 = 3 \x1b[8m $$\n\n"
    "$$ 2 + 2 = 5 $$\n"
)


def _run_on_pty(argv: list[str], cwd: Path) -> tuple[int, bytes]:
    """Run ``python -m symattn ARGV`` with stdout and stderr on a pseudo-terminal."""
    master, slave = pty.openpty()
    p = subprocess.Popen(
        [sys.executable, "-m", "symattn", *argv],
        stdout=slave,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
    )
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            p.kill()
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return p.wait(timeout=120), out


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_row24_audit_on_a_terminal_prints_no_escape(tmp_path: Path, fmt: str) -> None:
    doc = tmp_path / "post\x1b[2J.md"
    doc.write_text(HOSTILE_DOC, encoding="utf-8")
    code, out = _run_on_pty(["audit", doc.name, "--format", fmt], tmp_path)
    assert code == 1
    # only symattn's own colour codes (issue 21: each code in its severity's colour) remain
    text = re.sub(r"\x1b\[(?:3[136]|0)m", "", out.decode("utf-8"))
    assert not set(text) & (CONTROLS - {"\r"}), repr(text)  # the pty turns \n into \r\n
    assert "5" in text and "owned" not in text


def test_row24_errors_on_a_terminal_print_no_escape(tmp_path: Path) -> None:
    code, out = _run_on_pty(["compute", "nope\x1b]0;owned\x07\x9b2J.toml"], tmp_path)
    assert code == 2
    text = out.decode("utf-8")
    assert not set(text) & (CONTROLS - {"\r", "\n"}) and "owned" not in text
    assert "error" in text and "Traceback" not in text


def test_row24_pipes_get_the_text_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a terminal: the report is data and keeps what the document holds (JSON escapes it)."""
    monkeypatch.chdir(tmp_path)
    Path("p.md").write_text(HOSTILE_DOC, encoding="utf-8")
    assert main(["audit", "p.md", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["files"][0]["findings"]


#: issue 24 row 12: characters that reverse or hide text, and how every output shows them
BIDI = ("\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u202a", "\u202b", "\u202c", "\u200f")
INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad")


@pytest.mark.parametrize("ch", BIDI + INVISIBLE, ids=[f"U+{ord(c):04X}" for c in BIDI + INVISIBLE])
def test_row12_terminal_shows_bidi_and_invisible_characters_by_code(ch: str) -> None:
    shown = terminal_text(f"weights {ch}0.1 = 9.0")
    assert ch not in shown and f"\\u{ord(ch):04x}0.1" in shown


BIDI_SPEC = """schema = 1
title = "weights \\u202e0.1 = 9.0\\u202c"
tokens = ["a\\u200bb", "\\u2066x\\u2069"]
[inputs]
Q = [[1, 0], [0, 1]]
K = [[1, 0], [0, 1]]
V = [[1, 2], [3, 4]]
"""


@pytest.mark.parametrize("fmt", ["markdown", "latex", "html", "json"])
def test_row12_no_output_format_writes_them_raw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("s.toml").write_text(BIDI_SPEC, encoding="utf-8")
    assert main(["explain", "s.toml", "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert not set(out) & set(BIDI + INVISIBLE)
    assert "u202e" in out and "u200b" in out and "u2066" in out
    if fmt == "json":  # JSON escapes them: the data is unchanged
        assert json.loads(out)["title"] == "weights \u202e0.1 = 9.0\u202c"


def test_row12_explain_on_a_terminal_shows_them_by_code(tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(BIDI_SPEC, encoding="utf-8")
    code, out = _run_on_pty(["explain", "s.toml", "--format", "markdown"], tmp_path)
    text = out.decode("utf-8")
    assert code == 0 and not set(text) & set(BIDI + INVISIBLE)
    assert "\\u202e0.1" in text.replace("`\\`", "\\")
