"""Field validators: one field of a parsed spec checked, or one sentence saying what is wrong.

Every error names the file, the field (as a dotted TOML path) and the problem, and suggests
the closest known name for a misspelt one. Nothing in a spec is evaluated.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from itertools import chain
from typing import Any

import numpy as np

from symattn.config import Limits
from symattn.errors import InputError, SpecError
from symattn.numbers import Written, as_written, to_exact_array
from symattn.numbers.arrays import MAX_SHARED

#: characters no name may hold: control characters (C0, DEL, C1: terminal escapes start with
#: them) and lone surrogates (half a UTF-16 pair, which no encoding can write)
_NOT_IN_NAMES = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: the same for free text (title, source, notes), where tab and line breaks are fine
_NOT_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def bad_character(text: str, pattern: re.Pattern[str]) -> str | None:
    """What is wrong with the first character of ``text`` that ``pattern`` forbids, or None."""
    m = pattern.search(text)
    if m is None:
        return None
    code = ord(m.group())
    what = "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "the control character"
    return f"contains {what} U+{code:04X} at position {m.start() + 1}; remove it"


def field_key(k: str) -> str:
    """A key as TOML would write it in a dotted path (quoted unless it is a bare key)."""
    bare = k and all(c.isascii() and (c.isalnum() or c in "_-") for c in k)
    return k if bare else json.dumps(k, ensure_ascii=False)


def type_name(x: object) -> str:
    """What a parsed value is, in words (``a number``, ``a table``)."""
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, (int, Decimal)):
        return "a number"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, list):
        return "a list"
    if isinstance(x, dict):
        return "a table"
    return type(x).__name__


#: the types a parser hands over that :func:`is_number` accepts (exact types: not bool)
_NUMBER_TYPES = frozenset({int, Decimal, str})


def is_number(x: object) -> bool:
    """Whether a parsed value may be a number (numbers and strings; never booleans)."""
    return isinstance(x, (int, Decimal, str)) and not isinstance(x, bool)


#: names beyond this many get no "did you mean" (difflib is quadratic in their count)
MAX_SUGGEST = 1000


def suggest(word: str, options: Iterable[str]) -> str | None:
    """The option closest to ``word`` (same letters in another case first), or None."""
    options = tuple(options)
    if len(options) > MAX_SUGGEST:
        return None  # (a close match among thousands of names is no help, and costly)
    for o in options:
        if o.casefold() == word.casefold():
            return o
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.5)
    return close[0] if close else None


def short(v: object, limit: int = 40) -> str:
    """A short printable form of a value for an error message."""
    if isinstance(v, (list, dict)):
        return type_name(v)
    if isinstance(v, bool):
        text = "true" if v else "false"
    elif isinstance(v, Decimal):
        text = str(v)
    else:
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Fields:
    """Validates the fields of one parsed spec document; raises on the first problem."""

    def __init__(self, name: str, limits: Limits) -> None:
        self.name = name
        self.limits = limits
        # claimed numbers read once: text by its value, a parsed number by the object (held
        # here, so its id is not reused); a parser hands over one object per number text
        self._by_text: dict[str, Written] = {}
        self._by_object: dict[int, tuple[object, Written]] = {}

    def err(self, field: str, problem: str) -> SpecError:
        """The error for ``field``: ``<file>: <field>: <problem>``."""
        return SpecError(f"{self.name}: {field}: {problem}")

    def unknown(self, table: Mapping[str, Any], known: Iterable[str], where: str) -> None:
        """Reject a key of ``table`` that is not ``known`` (suggesting the closest)."""
        known = tuple(known)
        for k in table:
            if k not in known:
                close = suggest(k, known)
                hint = f"; did you mean {close!r}?" if close else f"; known: {', '.join(known)}"
                field = f"{where}.{field_key(k)}" if where else field_key(k)
                raise self.err(field, f"unknown field{hint}")

    def wrap(self, exc: InputError, field: str) -> InputError:
        """The same error class, its message prefixed with the file (and the field if absent)."""
        msg = str(exc)
        return type(exc)(f"{self.name}: {msg}" if field in msg else f"{self.name}: {field}: {msg}")

    # -- scalars

    def text(self, d: Mapping[str, Any], field: str) -> str:
        """A string field (``""`` when absent)."""
        v = d.get(field, "")
        if not isinstance(v, str):
            raise self.err(field, f"expected a string, got {type_name(v)}")
        problem = bad_character(v, _NOT_IN_TEXT)
        if problem is not None:
            raise self.err(field, problem)
        return v

    def boolean(self, d: Mapping[str, Any], field: str) -> bool:
        """A boolean field (false when absent)."""
        v = d.get(field, False)
        if not isinstance(v, bool):
            raise self.err(field, f"expected true or false, got {type_name(v)}")
        return v

    def pos_int(self, v: object, field: str) -> int:
        """A positive integer."""
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.err(field, f"expected a positive integer, got {short(v)}")
        if v <= 0:
            raise self.err(field, f"expected a positive integer, got {v}")
        return v

    def written(self, v: object, field: str) -> Written:
        """A claimed number, kept as written."""
        known = self._known(v)
        if known is not None:
            return known
        if not is_number(v) or (isinstance(v, str) and not v.strip()):
            raise self.err(field, f"expected a number (or a number in a string), got {short(v)}")
        try:
            w = as_written(v, limits=self.limits, what=field)
        except InputError as exc:
            raise self.wrap(exc, field) from exc
        if len(self._by_text) + len(self._by_object) < MAX_SHARED:
            if type(v) is str:
                self._by_text[v] = w
            else:
                self._by_object[id(v)] = (v, w)
        return w

    def written_entries(self, v: list[Any], field: str, start: int = 0) -> list[Written]:
        """The claimed numbers of a list, ``field[i]`` (from ``start``) named only in errors."""
        out: list[Written] = []
        for i, x in enumerate(v, start):
            known = self._known(x)
            out.append(known if known is not None else self.written(x, f"{field}[{i}]"))
        return out

    def _known(self, v: object) -> Written | None:
        if type(v) is str:
            return self._by_text.get(v)
        hit = self._by_object.get(id(v))
        return hit[1] if hit is not None else None

    # -- names

    def names(self, v: object, field: str) -> tuple[str, ...]:
        """A non-empty list of distinct, printable names."""
        if not isinstance(v, list) or not v:
            raise self.err(field, f"expected a non-empty list of names, got {short(v)}")
        self.limits.check_elements(len(v), f"{self.name}: {field}", "names")
        seen: set[str] = set()
        for i, t in enumerate(v, 1):
            if not isinstance(t, str) or not t.strip():
                raise self.err(field, f"entry {i} must be a non-empty string, got {short(t)}")
            problem = bad_character(t, _NOT_IN_NAMES)
            if problem is not None:
                raise self.err(field, f"entry {i} {t!r} {problem}")
            if t in seen:
                raise self.err(field, f"duplicate name {t!r}")
            seen.add(t)
        return tuple(v)

    def subset(
        self,
        names: tuple[str, ...],
        of: tuple[str, ...],
        field: str,
        of_field: str,
        known: frozenset[str] | None = None,
    ) -> None:
        """Reject a name not among ``of`` (the names of ``of_field``); linear in both. In a
        loop, hand ``known = frozenset(of)`` once."""
        known = frozenset(of) if known is None else known
        for t in names:
            if t not in known:
                close = suggest(t, of)
                hint = f"; did you mean {close!r}?" if close else ""
                raise self.err(field, f"{t!r} is not one of {of_field}{hint}")

    # -- matrices

    def matrix(self, v: object, field: str) -> list[list[Any]]:
        """Check that ``v`` is a non-empty rectangular list of rows of numbers."""
        if not isinstance(v, list) or not v:
            raise self.err(field, f"expected a matrix (a non-empty list of rows), got {short(v)}")
        width = len(v[0]) if isinstance(v[0], list) else 0
        for i, row in enumerate(v, 1):
            if not isinstance(row, list):
                raise self.err(
                    field,
                    f"row {i} is {type_name(row)}, expected a list of numbers"
                    " (write a single row as [[...]])",
                )
            if not row:
                raise self.err(field, f"row {i} is empty")
            if len(row) != width:
                raise self.err(field, f"row {i} has {len(row)} entries, expected {width}")
        self.limits.check_elements(len(v) * width, f"{self.name}: {field}")
        return v

    def numeric(self, v: list[list[Any]], field: str) -> np.ndarray:
        """A matrix of numbers as a read-only exact array."""
        if not set(map(type, chain.from_iterable(v))) <= _NUMBER_TYPES:  # (one C-speed pass)
            for i, row in enumerate(v, 1):
                for j, x in enumerate(row, 1):
                    if not is_number(x):
                        raise self.err(
                            field, f"row {i}, column {j} is {type_name(x)}, expected a number"
                        )
        try:
            arr = to_exact_array(v, what=field, limits=self.limits)
        except InputError as exc:
            raise self.wrap(exc, field) from exc
        arr.setflags(write=False)
        return arr
