"""Where each value of a spec is written: ``path -> (line, column)``, and where a claim is.

``tomllib`` and ``json`` give no positions, so this is a second, linear scan of a text the
loader has already accepted (:func:`load_spec` parsed it, within its limits): it keeps the
offset of every value and of every table header while it walks the keys. A path is the
tuple of keys and list indexes (``("claims", "rows", "fruit", "weights", 0)``); lines and
columns count from 1 (columns in characters). :func:`claim_path` says which path holds the
claim that a finding names by its trace step and position.
"""

from __future__ import annotations

import bisect
import json
import re
import tomllib
from collections.abc import Iterator
from typing import cast

from symattn.stages import BY_STEP, SCALING_STAGES, TOKEN_STAGES

Path = tuple[str | int, ...]
Positions = dict[Path, tuple[int, int]]

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_SPACE = re.compile(r"[ \t]*")
_GAP = re.compile(r"(?:[ \t\r\n\ufeff]+|#[^\n]*)*")  # white space, line breaks and comments
_BASIC = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_LITERAL = re.compile(r"'[^'\n]*'")
_ML_BASIC = re.compile(r'"""(?:[^\\]|\\.)*?"""(?!")', re.DOTALL)
_ML_LITERAL = re.compile(r"'''.*?'''(?!')", re.DOTALL)
_SCALAR = re.compile(r"[^\s,\]\}#]+(?:[ T][0-9][^\s,\]\}#]*)?")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_SCALAR = re.compile(r"[^\s,\]\}]+")
_JSON_GAP = re.compile(r"[ \t\r\n\ufeff]*")


class _Lines:
    """Offset -> (line, column), by a binary search over the line starts."""

    def __init__(self, text: str) -> None:
        self.starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def at(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1


def positions(text: str, suffix: str) -> Positions:
    """Every value's position in a spec text (``.json``: JSON, otherwise TOML)."""
    if suffix.lower() == ".json":
        return _Json(text).scan()
    return _Toml(text).scan()


class _Toml:
    def __init__(self, text: str) -> None:
        self.text, self.lines, self.out = text, _Lines(text), Positions()
        self.tables: dict[Path, int] = {}

    def scan(self) -> Positions:
        i, table = 0, cast(Path, ())
        t = self.text
        while True:
            i = _GAP.match(t, i).end()  # type: ignore[union-attr]
            if i >= len(t):
                return self.out
            if t.startswith("[[", i):
                keys, i = self.keys(i + 2, "]]")
                n = self.tables.get(keys, 0)
                self.tables[keys] = n + 1
                table = (*keys, n)
                self.out.setdefault(table, self.lines.at(i))
            elif t[i] == "[":
                start = i
                table, i = self.keys(i + 1, "]")
                self.out.setdefault(table, self.lines.at(start))
            else:
                keys, i = self.keys(i, "=")
                i = self.value(_SPACE.match(t, i).end(), (*table, *keys))  # type: ignore[union-attr]

    def keys(self, i: int, end: str) -> tuple[tuple[str, ...], int]:
        """A dotted key up to ``end``; the offset after ``end``."""
        t, keys = self.text, []
        while True:
            i = _SPACE.match(t, i).end()  # type: ignore[union-attr]
            m = _BASIC.match(t, i) or _LITERAL.match(t, i) or _BARE.match(t, i)
            if m is None:
                raise ValueError(f"not a key at offset {i}")
            word = m.group()
            keys.append(tomllib.loads(f"k = {word}")["k"] if word[0] in "\"'" else word)
            i = _SPACE.match(t, m.end()).end()  # type: ignore[union-attr]
            if t.startswith(end, i):
                return tuple(keys), i + len(end)
            if t[i] != ".":
                raise ValueError(f"expected '.' or {end!r} at offset {i}")
            i += 1

    def value(self, i: int, path: Path) -> int:
        """Record the value at ``i`` (and its entries); the offset after it."""
        t = self.text
        self.out[path] = self.lines.at(i)
        if t[i] == "[":
            return self.items(i + 1, path, "]")
        if t[i] == "{":
            return self.items(i + 1, path, "}")
        for pattern in (_ML_BASIC, _ML_LITERAL, _BASIC, _LITERAL, _SCALAR):
            m = pattern.match(t, i)
            if m is not None:
                return m.end()
        raise ValueError(f"not a value at offset {i}")

    def items(self, i: int, path: Path, end: str) -> int:
        """The entries of an array (``]``) or an inline table (``}``)."""
        t, n = self.text, 0
        while True:
            i = _GAP.match(t, i).end()  # type: ignore[union-attr]
            if t[i] == end:
                return i + 1
            if t[i] == ",":
                i += 1
                continue
            if end == "]":
                i = self.value(i, (*path, n))
                n += 1
            else:
                keys, i = self.keys(i, "=")
                i = self.value(_SPACE.match(t, i).end(), (*path, *keys))  # type: ignore[union-attr]


class _Json:
    def __init__(self, text: str) -> None:
        self.text, self.lines, self.out = text, _Lines(text), Positions()

    def scan(self) -> Positions:
        self.value(_JSON_GAP.match(self.text, 0).end(), ())  # type: ignore[union-attr]
        return self.out

    def gap(self, i: int) -> int:
        return _JSON_GAP.match(self.text, i).end()  # type: ignore[union-attr]

    def value(self, i: int, path: Path) -> int:
        t = self.text
        self.out[path] = self.lines.at(i)
        if t[i] in "[{":
            end, n = ("]" if t[i] == "[" else "}"), 0
            i += 1
            while True:
                i = self.gap(i)
                if t[i] == end:
                    return i + 1
                if t[i] == ",":
                    i += 1
                    continue
                if end == "]":
                    i, n = self.value(i, (*path, n)), n + 1
                    continue
                m = _JSON_STRING.match(t, i)
                if m is None:
                    raise ValueError(f"not a key at offset {i}")
                key = json.loads(m.group())
                i = self.gap(m.end()) + 1  # the colon
                i = self.value(self.gap(i), (*path, key))
        m = _JSON_STRING.match(t, i) or _JSON_SCALAR.match(t, i)
        if m is None:
            raise ValueError(f"not a value at offset {i}")
        return m.end()


def claim_path(step: str, position: tuple[str, ...], tokens: tuple[str, ...]) -> Iterator[Path]:
    """The paths that may hold the claim a finding names (``weights``, ``("fruit", "apple")``),
    most specific first; the caller takes the first one the file has."""
    head: Path = ()
    if (
        step.endswith("_heads")
        or step == "head_outputs"
        or (position and re.fullmatch(r"h[0-9]+", position[0]))
    ):
        if position and re.fullmatch(r"h[0-9]+", position[0]):
            head = ("heads", position[0][1:])
            position = position[1:]
        step = "output" if step == "head_outputs" else step.removesuffix("_heads")
    base: Path = ("claims", *head)
    if step in SCALING_STAGES:
        yield ("claims", step)
        return
    fields: dict[str, str] = {v: k for k, v in TOKEN_STAGES.items()}
    if step in fields and position:
        token = position[0]
        yield from _entry((*base, "tokens", token, fields[step]), position[1:], tokens)
        yield (*base, "tokens", token)
        return
    row_field = BY_STEP[step].claim if step in BY_STEP else step
    if position:
        row = position[0]
        if row_field in ("interpretation",):
            yield (*base, "rows", row, "attends_most")
        yield from _entry((*base, "rows", row, row_field), position[1:], tokens)
        yield (*base, "rows", row)
    yield (*base,)


def _entry(field: Path, rest: tuple[str, ...], tokens: tuple[str, ...]) -> Iterator[Path]:
    """The entry ``rest`` names in ``field``: an index, or a token (a list or a table)."""
    if rest:
        label = rest[0]
        if label.isdigit():
            yield (*field, int(label))
        elif label in tokens:
            yield (*field, tokens.index(label))
        yield (*field, label)
    yield field
