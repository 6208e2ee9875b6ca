"""Nothing lost: ``-o FILE`` of every command is atomic, and texts in the encodings people use
(UTF-8 with/without BOM, UTF-16 with BOM, GB18030) read the same; undecodable input names
the byte offset.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import symattn.cli.output
from symattn.cli.main import main
from symattn.errors import SymattnError
from symattn.io import decode
from symattn.present.reports import audit_json
from symattn.read.audit import audit
from symattn.spec import load_spec

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
        symattn.cli.output, "write_bytes_atomic", lambda path, data: real(path, boom(data))
    )
    assert main([*argv, "-o", "out.txt"]) == 2
    assert "simulated rendering failure" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "OLD CONTENT"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "s.toml"]
