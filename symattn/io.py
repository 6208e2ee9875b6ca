"""Reading untrusted files: size limits before reading, and decoding with clear errors."""

from __future__ import annotations

import codecs
import os
import sys
from pathlib import Path

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode(data: bytes, name: str) -> str:
    """Text from bytes: UTF-8 (with or without BOM), UTF-16 with BOM, else GB18030.

    Undecodable input is an :class:`InputError` naming the byte offset.
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            if codec == "utf-8-sig":  # decode after the BOM, so offsets count from the file start
                return _decode(data[len(bom) :], "utf-8", name, offset=len(bom), label="UTF-8")
            return _decode(data, codec, name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as utf8_error:
        try:
            return data.decode("gb18030")
        except UnicodeDecodeError:
            raise InputError(
                f"{name}: cannot decode the text: invalid UTF-8 at byte offset {utf8_error.start} "
                "(and it is not GB18030 either)"
            ) from None


def _decode(data: bytes, codec: str, name: str, *, offset: int = 0, label: str = "") -> str:
    """``data`` decoded as ``codec``; an error names the byte offset (plus ``offset``)."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError as e:
        raise InputError(
            f"{name}: cannot decode the text as {label or codec}: "
            f"invalid bytes at offset {e.start + offset}"
        ) from None


def read_bytes(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The bytes of ``path`` (``-`` is stdin), refusing files over ``limits.max_file_bytes``."""
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read(limits.max_file_bytes + 1)
    else:
        p = Path(path)
        try:
            if p.is_dir():
                raise InputError(f"{name}: is a directory, not a file")
            with p.open("rb") as f:
                data = f.read(limits.max_file_bytes + 1)
        except FileNotFoundError:
            raise InputError(f"{name}: no such file") from None
        except PermissionError:
            raise InputError(f"{name}: permission denied") from None
        except OSError as e:
            raise InputError(f"{name}: cannot read: {e.strerror}") from None
    if len(data) > limits.max_file_bytes:
        # one wording for the library and the command line (which says --limit max_file_bytes=N)
        raise LimitError(
            f"{name}: larger than max_file_bytes={limits.max_file_bytes} "
            "(raise it with Limits(max_file_bytes=...))"
        )
    return data


def read_text(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> str:
    """The decoded text of ``path`` (see :func:`decode`)."""
    return decode(read_bytes(path, limits=limits), str(path))
