from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from symattn.cli.output import write_text_atomic
from symattn.config import Limits
from symattn.errors import InputError, LimitError
from symattn.io import decode, read_text

TEXT = "d_k = 2，e^{1.0} ≈ 2.71 它"


@pytest.mark.parametrize(
    "data",
    [
        TEXT.encode("utf-8"),
        codecs.BOM_UTF8 + TEXT.encode("utf-8"),
        codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
        TEXT.encode("gb18030"),
    ],
    ids=["utf8", "utf8-bom", "utf16le", "utf16be", "gb18030"],
)
def test_decode_encodings(data: bytes) -> None:
    assert decode(data, "t.md") == TEXT


def test_undecodable_names_offset() -> None:
    with pytest.raises(InputError, match=r"t\.md: .*offset 3"):
        decode(b"abc\xff\xff\xff\x80\x80", "t.md")


def test_read_text_limits_and_missing(tmp_path: Path) -> None:
    p = tmp_path / "big.txt"
    p.write_bytes(b"x" * 101)
    with pytest.raises(LimitError, match="max_file_bytes=100"):
        read_text(p, limits=Limits(max_file_bytes=100))
    with pytest.raises(InputError, match="no such file"):
        read_text(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="directory"):
        read_text(tmp_path)


def test_atomic_write_replaces_and_cleans_up(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    target.write_text("old", encoding="utf-8")
    write_text_atomic(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]


def test_failed_write_leaves_existing_file_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.md"
    target.write_text("precious", encoding="utf-8")

    def fail(*args: object, **kw: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("symattn.io.os.replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_text_atomic(target, "half")
    assert target.read_text(encoding="utf-8") == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]


def test_write_into_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        write_text_atomic(tmp_path / "no" / "out.md", "x")
