"""Loading a spec: reading the file, decoding it, and parsing TOML or JSON within the limits.

A spec is TOML (read with :mod:`tomllib`) or JSON, chosen by the file extension. Floats are
read as :class:`decimal.Decimal`, so ``0.340`` keeps its written form; the same number text
is read once and its value shared (:class:`_Numbers`), so a matrix of short decimals holds a
pointer per entry, not an object. Specs are untrusted:
the file size and the nesting depth are bounded before and after parsing, bytes are decoded
by :func:`symattn.io.decode`, and nothing is evaluated.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError, SpecError
from symattn.io import decode
from symattn.numbers.arrays import MAX_SHARED
from symattn.spec.build import build_spec
from symattn.spec.fields import short
from symattn.spec.model import Spec

#: file extension -> format
EXTENSIONS = MappingProxyType({".toml": "toml", ".json": "json"})
#: what the TOML depth scan sees: strings and comments (skipped whole), brackets, dots, ``=``,
#: commas and line ends
_TOML_TOKEN = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*(?:"""|$)|\'\'\'[\s\S]*?(?:\'\'\'|$)|"(?:[^"\\\n]|\\.)*"?'
    r"|'[^'\n]*'?|#[^\n]*|[\[\]{}.=,\n]"
)
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')


def load_spec(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Spec:
    """Read and validate a spec file (``.toml`` or ``.json``)."""
    name = os.fspath(path)
    ext = os.path.splitext(name)[1].lower()
    fmt = EXTENSIONS.get(ext)
    if fmt is None:
        raise SpecError(
            f"{name}: unknown spec format {ext or '(no extension)'!r}, expected .toml or .json"
        )
    try:
        with open(name, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > limits.max_file_bytes:
                raise _file_too_big(name, size, limits)
            data = fh.read(limits.max_file_bytes + 1)
    except OSError as exc:
        raise SpecError(f"{name}: cannot read the file: {exc.strerror or exc}") from exc
    if len(data) > limits.max_file_bytes:
        raise _file_too_big(name, len(data), limits)
    try:  # UTF-8 with or without BOM, UTF-16 with BOM, GB18030
        text = decode(data, name)
    except InputError as exc:
        raise SpecError(str(exc)) from None
    return loads_spec(text, fmt=fmt, name=name, limits=limits)


def loads_spec(
    text: str, *, fmt: str = "toml", name: str = "<spec>", limits: Limits = DEFAULT_LIMITS
) -> Spec:
    """Parse and validate spec text; ``fmt`` is ``"toml"`` or ``"json"``."""
    if fmt not in ("toml", "json"):
        raise SpecError(f"{name}: unknown spec format {fmt!r}, expected 'toml' or 'json'")
    if len(text) > limits.max_file_bytes:
        raise _file_too_big(name, len(text.encode("utf-8", "surrogatepass")), limits)
    if fmt == "toml" and _toml_too_deep(text, limits.max_nesting):
        raise _too_deep(name, limits)  # (before parsing: tomllib builds dotted keys in O(n²))
    data = _parse_json(text, name, limits) if fmt == "json" else _parse_toml(text, name)
    _check_depth(data, name, limits)
    if not isinstance(data, dict):
        raise SpecError(f"{name}: the top level must be an object (a table of fields)")
    return build_spec(data, name, limits)


def _file_too_big(name: str, size: int, limits: Limits) -> LimitError:
    return LimitError(
        f"{name}: file is {size} bytes, over limits.max_file_bytes = {limits.max_file_bytes}"
        " (raise it with --limit max_file_bytes=N)"
    )


def _too_deep(name: str, limits: Limits) -> LimitError:
    return LimitError(
        f"{name}: nesting deeper than limits.max_nesting = {limits.max_nesting}"
        " (raise it with --limit max_nesting=N)"
    )


def _decimal(text: str) -> Decimal:
    """A TOML/JSON float as a Decimal; an exponent beyond Decimal's range is a LimitError."""
    try:
        return Decimal(text)
    except ArithmeticError:  # decimal.InvalidOperation: exponent beyond 10**18
        raise LimitError(
            f"number {short(text)} has an exponent far beyond max_decimal_exponent"
        ) from None


class _Numbers(dict[str, Any]):
    """Number text -> its value, read once: the parser's ``parse_float``/``parse_int`` is
    ``_Numbers(read).__getitem__`` (a C-speed lookup; ``__missing__`` reads a new text)."""

    __slots__ = ("read",)

    def __init__(self, read: Callable[[str], Any]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, text: str) -> Any:
        value = self.read(text)
        if len(self) < MAX_SHARED:  # (all-distinct numbers: memory for nothing)
            self[text] = value
        return value


def _parse_toml(text: str, name: str) -> Any:
    try:
        return tomllib.loads(text, parse_float=_Numbers(_decimal).__getitem__)
    except RecursionError as exc:
        raise LimitError(f"{name}: nesting too deep for the TOML parser") from exc
    except ValueError as exc:  # TOMLDecodeError, and int() digit limits
        raise SpecError(f"{name}: TOML syntax error: {exc}") from exc


def _parse_json(text: str, name: str, limits: Limits) -> Any:
    if _json_too_deep(text, limits.max_nesting + 1):  # +1: the top-level object
        raise _too_deep(name, limits)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise SpecError(f"{name}: duplicate key {key!r} in a JSON object")
            out[key] = value
        return out

    try:
        return json.loads(
            text,
            parse_float=_Numbers(_decimal).__getitem__,
            parse_int=_Numbers(int).__getitem__,
            parse_constant=Decimal,
            object_pairs_hook=pairs,
        )
    except RecursionError as exc:
        raise _too_deep(name, limits) from exc
    except SpecError:
        raise
    except ValueError as exc:  # JSONDecodeError, and int() digit limits
        raise SpecError(f"{name}: JSON syntax error: {exc}") from exc


def _json_too_deep(text: str, cap: int) -> bool:
    """True when brackets in JSON text nest deeper than ``cap`` (strings skipped; linear time)."""
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > cap:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _toml_too_deep(text: str, cap: int) -> bool:
    """True when TOML text nests tables or arrays deeper than ``cap`` below the top, as
    ``_check_depth`` counts them: each part of a dotted key (``a.b.c = 1``) or table header
    (``[a.b.c]``) is a table, each bracket of a value an array or inline table. One pass over
    the text, strings and comments skipped (linear in the text)."""
    stack: list[tuple[str, int]] = []  # the open brackets of a value, with their depth
    section = 0  # the depth of the table the last header opened
    mode, parts, base, aot = "key", 1, 0, 0
    for m in _TOML_TOKEN.finditer(text):
        t = m.group()
        if t[0] in "\"'#":
            continue
        ctx = stack[-1][1] if stack else section
        if t == "\n":
            if not stack:
                mode, parts = "key", 1
        elif mode == "header":
            if t == ".":
                parts += 1
            elif t == "[":
                aot = 1  # ``[[a.b]]``: an array of tables, one level more
            elif t == "]":
                section = parts + aot
            if parts + aot > cap:
                return True
        elif mode == "key":
            if t == "[" and not stack:
                mode, parts, aot = "header", 1, 0
            elif t == ".":
                parts += 1
                if ctx + parts - 1 > cap:
                    return True
            elif t == "=":
                mode, base = "value", ctx + parts - 1
        elif t in "[{":
            depth = (base if mode == "value" else ctx) + 1
            if depth > cap:
                return True
            stack.append((t, depth))
            mode, parts = ("key", 1) if t == "{" else ("array", 1)
        elif t in "]}":
            if stack:
                stack.pop()
            mode = "array" if stack and stack[-1][0] == "[" else "after"
        elif t == "," and stack and stack[-1][0] == "{":
            mode, parts = "key", 1
    return False


#: what a parser builds that nests (exact types: json and tomllib build no subclasses)
_CONTAINERS = frozenset({dict, list})


def _check_depth(data: Any, name: str, limits: Limits) -> None:
    """Raise LimitError when containers nest deeper than ``limits.max_nesting`` below the top."""
    stack: list[tuple[Any, int]] = [(data, 0)] if isinstance(data, (dict, list)) else []
    while stack:
        node, depth = stack.pop()
        if depth > limits.max_nesting:
            raise _too_deep(name, limits)
        children = list(node.values()) if isinstance(node, dict) else node
        if _CONTAINERS.isdisjoint(map(type, children)):
            continue  # (a row of numbers: one C-speed pass, no Python work per entry)
        stack.extend((v, depth + 1) for v in children if isinstance(v, (dict, list)))
