"""Nothing lost: ``-o FILE`` of every command is atomic, and texts in the encodings people use
(UTF-8 with/without BOM, UTF-16 with BOM, GB18030) read the same; undecodable input names
the byte offset.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import symattn.cli.output
from symattn.cli.main import main
from symattn.cli.output import CLEANUP_SIGNALS, write_text_atomic
from symattn.errors import SymattnError
from symattn.io import decode
from symattn.present.reports import audit_json
from symattn.read.audit import audit
from symattn.spec import load_spec

from .conftest import ROOT

SPEC_TOML = 'title = "注意力：它、动物与马路"\ntokens = ["动物", "马路"]\n[inputs]\nQ = [[1, 0], [0, 1]]\nK = [[1, 2], [3, 4]]\nV = [[1, 0], [0, 1]]\n'
DOC = "# 自注意力\n\n点积：$$ 1 \\times 1 + 2 \\times 2 = 6 $$\n\n$$ e^1 ≈ 2.71 $$\n"
ENCODINGS = {
    "utf-8": lambda t: t.encode("utf-8"),
    "utf-8-bom": lambda t: t.encode("utf-8-sig"),
    "utf-16-le-bom": lambda t: t.encode("utf-16"),
    "utf-16-be-bom": lambda t: b"\xfe\xff" + t.encode("utf-16-be"),
    "gb18030": lambda t: t.encode("gb18030"),
}


@pytest.mark.parametrize("enc", list(ENCODINGS))
def test_spec_encodings(enc: str, tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_bytes(ENCODINGS[enc](SPEC_TOML))
    spec = load_spec(f)
    assert spec.title == "注意力：它、动物与马路"
    assert spec.tokens == ("动物", "马路")


@pytest.mark.parametrize("enc", list(ENCODINGS))
def test_audit_encodings(
    enc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.md").write_bytes(ENCODINGS[enc](DOC))
    assert main(["audit", "p.md", "--format", "json"]) == 1
    got = json.loads(capsys.readouterr().out)["files"][0]
    want = audit_json([audit(DOC, path="p.md")])["files"][0]
    assert got["findings"] == want["findings"]
    assert {f["code"] for f in got["findings"]} >= {"wrong-value"}


@pytest.mark.parametrize(
    "data,offset",
    [
        (b"abc\xff", 3),
        (b"\x80", 0),
        (b"ok = 1\n\xff\xff\xff", 7),
        (b"\xef\xbb\xbfab\xff\xfe", 5),
        (b"\xff\xfe\x00\xd8", 2),
    ],
)
def test_undecodable_names_the_offset(data: bytes, offset: int, tmp_path: Path) -> None:
    with pytest.raises(SymattnError, match=f"offset {offset}"):
        decode(data, "x")
    (tmp_path / "s.toml").write_bytes(data)
    with pytest.raises(SymattnError, match=f"offset {offset}"):
        load_spec(tmp_path / "s.toml")


COMMANDS = [
    (["compute", "s.toml"], "compute"),
    (["explain", "s.toml", "--format", "latex"], "explain"),
    (["explain", "s.toml", "--format", "json"], "explain"),
    (["check", "s.toml", "--format", "json"], "check"),
]


@pytest.mark.parametrize("argv,name", COMMANDS)
def test_output_is_atomic_on_failure(
    argv: list[str],
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A failure after the output path is chosen leaves the old file as it was, and no temp file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(SPEC_TOML, encoding="utf-8")
    out = tmp_path / "out.txt"
    out.write_text("OLD CONTENT", encoding="utf-8")
    real_fdopen = symattn.io.os.fdopen

    class Exploding:
        """A file object whose write fails half way (as a full disk would)."""

        def __init__(self, fd: int, mode: str) -> None:
            self.f = real_fdopen(fd, mode)

        def __enter__(self) -> Exploding:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()

        def write(self, data: bytes) -> int:
            self.f.write(data[: len(data) // 2])
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(symattn.io.os, "fdopen", Exploding)
    code = main([*argv, "-o", "out.txt"])
    err = capsys.readouterr().err
    assert code == 2
    assert "No space left on device" in err and len(err.strip().splitlines()) == 1
    assert out.read_text(encoding="utf-8") == "OLD CONTENT"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "s.toml"]
    monkeypatch.setattr(symattn.io.os, "fdopen", real_fdopen)
    assert main([*argv, "-o", "out.txt"]) in (0, 1)
    assert out.read_text(encoding="utf-8") != "OLD CONTENT"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "s.toml"]


@pytest.mark.parametrize("argv,name", COMMANDS)
def test_render_failure_leaves_output_untouched(
    argv: list[str],
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An error raised while the text is made (here: by the atomic writer's caller) never truncates."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(SPEC_TOML, encoding="utf-8")
    out = tmp_path / "out.txt"
    out.write_text("OLD CONTENT", encoding="utf-8")

    def boom(data: bytes) -> bytes:
        raise SymattnError("simulated rendering failure")

    real = symattn.cli.output.write_bytes_atomic
    monkeypatch.setattr(
        symattn.cli.output,
        "write_bytes_atomic",
        lambda path, data, **kw: real(path, boom(data), **kw),
    )
    assert main([*argv, "-o", "out.txt"]) == 2
    assert "simulated rendering failure" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "OLD CONTENT"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "s.toml"]


# -- issue 15: -o writes only regular files, keeps modes, cleans up on signals ---------------


def _spec(tmp_path: Path) -> str:
    (tmp_path / "s.toml").write_text(SPEC_TOML, encoding="utf-8")
    return str(tmp_path / "s.toml")


def _write(tmp_path: Path, *extra: str) -> list[str]:
    return ["compute", _spec(tmp_path), "-o", *extra]


def test_row9_fifo_and_socket_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Row 9: a FIFO or a socket named by -o is refused, and stays what it was."""
    monkeypatch.chdir(tmp_path)  # a short socket path (AF_UNIX paths are limited to ~100 bytes)
    os.mkfifo("fifo")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind("sock")
        for name, kind, test in (
            ("fifo", "FIFO", stat.S_ISFIFO),
            ("sock", "socket", stat.S_ISSOCK),
        ):
            assert main(_write(tmp_path, name)) == 2
            err = capsys.readouterr().err
            assert f"{name}: cannot write: it is a" in err and kind in err
            assert len(err.splitlines()) == 1
            assert test(os.lstat(name).st_mode)
    assert not list(tmp_path.glob(".*.tmp"))


def _device_node(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A character device at ``path``: a real one (major 1, minor 3, like /dev/null) where we
    may create it, else a regular file that ``os.lstat``/``os.stat`` report as one. Never the
    system's /dev/null: a regression must not be able to replace a real device."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        return
    except PermissionError:
        path.write_text("")
    real_lstat, real_stat = os.lstat, os.stat

    def as_device(st: os.stat_result) -> os.stat_result:
        fields = list(st)
        fields[0] = stat.S_IFCHR | 0o666
        return os.stat_result(fields)

    def fake(real: Any) -> Any:
        def call(p: Any, *a: Any, **kw: Any) -> os.stat_result:
            st = real(p, *a, **kw)
            return as_device(st) if os.fspath(p) == str(path) else st

        return call

    monkeypatch.setattr(os, "lstat", fake(real_lstat))
    monkeypatch.setattr(os, "stat", fake(real_stat))


def test_row9_device_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Row 9: -o naming a device is refused (directly, and through a followed link); the device
    stays a device."""
    device = tmp_path / "null"
    _device_node(device, monkeypatch)
    link = tmp_path / "link"
    link.symlink_to(device)
    for argv in (
        _write(tmp_path, str(device)),
        [*_write(tmp_path, str(link)), "--follow-symlinks"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "it is a character device, not a regular file" in err
        assert stat.S_ISCHR(os.lstat(device).st_mode) and link.is_symlink()
    assert sorted(f.name for f in tmp_path.iterdir()) == ["link", "null", "s.toml"]


def test_row9_symlink_needs_follow_symlinks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Row 9: -o LINK is refused; with --follow-symlinks the file it points to is replaced and
    the link stays a link."""
    target = tmp_path / "real.txt"
    target.write_text("OLD", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert main(_write(tmp_path, str(link))) == 2
    err = capsys.readouterr().err
    assert "is a symbolic link" in err and "--follow-symlinks" in err
    assert target.read_text(encoding="utf-8") == "OLD" and link.is_symlink()
    assert main([*_write(tmp_path, str(link)), "--follow-symlinks"]) == 0
    assert link.is_symlink() and "d_k used" in target.read_text(encoding="utf-8")
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "new.txt")
    assert main([*_write(tmp_path, str(dangling)), "--follow-symlinks"]) == 0
    assert dangling.is_symlink() and (tmp_path / "new.txt").is_file()
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("command", ["compute", "explain", "check", "reference"])
def test_row9_every_command_with_o_has_follow_symlinks(command: str) -> None:
    from symattn.cli.main import build_parser

    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    assert "--follow-symlinks" in sub.format_help()


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_row17_existing_file_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    out = tmp_path / "out.txt"
    out.write_text("OLD", encoding="utf-8")
    out.chmod(mode)
    assert main(_write(tmp_path, str(out))) == 0
    assert stat.S_IMODE(out.stat().st_mode) == mode and "d_k used" in out.read_text("utf-8")


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_row17_new_file_honours_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    out = tmp_path / "new.txt"
    old = os.umask(umask)
    try:
        assert main(_write(tmp_path, str(out))) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == mode


_SIGNAL_CHILD = """
import os, signal, sys
from symattn.cli.main import main
real_fsync = os.fsync
def fsync(fd):  # the signal arrives while the temporary file exists
    os.kill(os.getpid(), signal.{name})
    real_fsync(fd)
os.fsync = fsync
sys.exit(main({argv!r}))
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("command", [["compute"], ["explain", "--format", "latex"]])
def test_row23_signal_during_o_leaves_no_temp_file(
    tmp_path: Path, name: str, command: list[str]
) -> None:
    """Row 23: SIGTERM/SIGHUP while -o is written: the old file stays, no .tmp is left, and the
    process ends by that signal (so a shell or a CI runner sees it)."""
    spec = _spec(tmp_path)
    out = tmp_path / "out.txt"
    out.write_text("OLD CONTENT", encoding="utf-8")
    argv = [command[0], spec, *command[1:], "-o", str(out)]
    p = subprocess.run(
        [sys.executable, "-c", _SIGNAL_CHILD.format(name=name, argv=argv)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert p.returncode == -getattr(signal, name), p.stderr
    assert f"terminated by {name}" in p.stderr and "Traceback" not in p.stderr
    assert out.read_text(encoding="utf-8") == "OLD CONTENT"
    assert sorted(f.name for f in tmp_path.iterdir()) == ["out.txt", "s.toml"]


def test_row23_signal_handlers_are_restored(tmp_path: Path) -> None:
    before = {s: signal.getsignal(s) for s in CLEANUP_SIGNALS}
    write_text_atomic(tmp_path / "x.txt", "x")
    assert {s: signal.getsignal(s) for s in CLEANUP_SIGNALS} == before


# -- issue 15 row 13: lone surrogates and control characters in spec text --------------------

SURROGATE_SPECS = {
    "token": {"tokens": ["a\ud800", "b"]},
    "query token": {"tokens": ["a", "b"], "query_tokens": ["\udfff"]},
    "title": {"title": "t\ud800"},
    "notes": {"notes": "\udc80 notes"},
    "source": {"source": "s\ud83d"},
    "escape in title": {"title": "\x1b]0;owned\x07\x1b[2J"},
    "C1 in token": {"tokens": ["a\x9b31m", "b"]},
    "claims row key": {"claims": {"rows": {"\ud800": {"scores": [1, 2]}}}},
}


@pytest.mark.parametrize("case", list(SURROGATE_SPECS))
@pytest.mark.parametrize("command", ["compute", "explain", "check"])
def test_row13_surrogates_and_controls_are_one_line_errors(
    case: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {
        "tokens": ["a", "b"],
        "inputs": {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "V": [[1, 0], [0, 1]]},
        **SURROGATE_SPECS[case],
    }
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(data), encoding="ascii")  # \\ud800 escapes: valid JSON
    assert main([command, str(spec)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err
    assert "\x1b" not in err and "\x9b" not in err
    err.encode("utf-8")  # no lone surrogate reaches the stream


def test_row13_surrogate_in_argv_as_a_subprocess(tmp_path: Path) -> None:
    """An undecodable file name reaches Python as a lone surrogate (surrogateescape); the
    report names it with a backslash escape instead of crashing on output."""
    name = b"\xff\xfe.md"
    (tmp_path / name.decode("utf-8", "surrogateescape")).write_text("$$ 1 + 1 = 3 $$\n")
    for fmt in ("text", "json", "markdown"):
        p = subprocess.run(
            [sys.executable.encode(), b"-m", b"symattn", b"audit", name, b"--format", fmt.encode()],
            capture_output=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
            timeout=120,
        )
        assert p.returncode == 1, p.stderr
        # Markdown sets the backslash of the escape in a code span of its own: `\`udcff
        shown = p.stdout.replace(b"`\\`", b"\\")
        assert b"Traceback" not in p.stderr and b"\\udcff" in shown
        p.stdout.decode("utf-8")
