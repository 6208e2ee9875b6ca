"""Writing a spec document (the nested tables ``load_spec`` reads) as TOML, with comments.

The writer knows only the value types a spec holds: strings, booleans, integers, and lists
and tables of them. Every string is written as a TOML basic string with every control
character escaped, so any token name or note round-trips through ``tomllib`` unchanged. Each
value may carry a comment (``comments[path]``, the path a tuple of keys and list indexes);
a list with commented entries is written one entry a line. The output is linear in the
document.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

__all__ = ["Path", "spec_to_toml"]

#: where a value sits in the document: table keys and list indexes
Path = tuple[str | int, ...]

_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n",
                   "\f": "\\f", "\r": "\\r"}  # fmt: skip


def _string(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or 0x80 <= ord(ch) < 0xA0:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else _string(k)


def _comment(text: str) -> str:
    """A comment: one line, control characters dropped (a comment cannot hold them)."""
    clean = "".join(ch if ch.isprintable() else " " for ch in text)
    return f"  # {clean}" if clean else ""


def _inline(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(str(k))} = {_inline(x)}" for k, x in v.items()) + " }"
    if isinstance(v, Sequence):
        return "[" + ", ".join(_inline(x) for x in v) + "]"
    raise TypeError(f"a spec holds no {type(v).__name__}")


def _value(v: object, path: Path, comments: Mapping[Path, str]) -> str:
    """A value after ``key = ``: inline, or one entry a line when entries carry comments."""
    if isinstance(v, Sequence) and not isinstance(v, str):
        notes = [comments.get((*path, i), "") for i in range(len(v))]
        if any(notes):
            lines = [f"    {_inline(x)},{_comment(n)}" for x, n in zip(v, notes, strict=True)]
            return "[\n" + "\n".join(lines) + "\n]"
    return _inline(v)


def _is_table(v: object) -> bool:
    return isinstance(v, Mapping)


def spec_to_toml(
    data: Mapping[str, object], comments: Mapping[Path, str] | None = None, header: str = ""
) -> str:
    """``data`` as a TOML document: plain keys first, then each sub-table under its header;
    ``header`` becomes comment lines at the top."""
    notes = comments or {}
    out = [f"# {line}".rstrip() for line in header.splitlines()]

    def table(d: Mapping[str, object], path: Path) -> None:
        for k, v in d.items():
            if not _is_table(v):
                note = _comment(notes.get((*path, k), ""))
                out.append(f"{_key(k)} = {_value(v, (*path, k), notes)}{note}")
        for k, v in d.items():
            if isinstance(v, Mapping):
                sub = (*path, k)
                out.append("")
                out.append("[" + ".".join(_key(str(p)) for p in sub) + "]")
                table(v, sub)

    table(data, ())
    return "\n".join(out).strip("\n") + "\n"
