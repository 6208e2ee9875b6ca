"""The message catalogs (``templates/messages/<lang>.toml``): the only reader of them.

A catalog is one TOML file per language; its tables (``[check]``, ``[audit]``) are flattened
to dotted keys (``check.truncated``). A user's ``--templates DIR`` overrides keys one by one.
:func:`say` turns a typed :class:`~symattn.judge.findings.Message` into text; a key missing
from the catalog, or a placeholder the message does not fill, is an error, never the raw key.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from symattn.errors import InputError
from symattn.judge.findings import Join, Message
from symattn.present.resources import templates_dir

_LANG_RE = re.compile(r"[a-z]{2,3}(-[A-Za-z]{2,4})?")


def search_path(user: str | Path | None) -> list[Path]:
    """Template folders in lookup order: the user's ``--templates DIR``, then the package's."""
    paths = [Path(user)] if user is not None else []
    if user is not None and not paths[0].is_dir():
        raise InputError(f"--templates {user}: not a directory")
    return paths + [templates_dir()]


def load_messages(lang: str, templates: str | Path | None = None) -> Mapping[str, str]:
    """The message catalog for ``lang``: the package's, overridden key by key by the user's."""
    if not _LANG_RE.fullmatch(lang):
        raise InputError(f"--lang {lang!r}: expected a language code such as en or zh")
    return _load(lang, tuple(str(p) for p in search_path(templates)))


@lru_cache(maxsize=16)
def _load(lang: str, folders: tuple[str, ...]) -> Mapping[str, str]:
    merged: dict[str, str] = {}
    found = False
    for folder in reversed(folders):
        path = Path(folder) / "messages" / f"{lang}.toml"
        if path.is_file():
            found = True
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
                raise InputError(f"{path}: not a valid message catalog: {e}") from e
            merged.update(_flatten(data))
    if not found:
        have = sorted(p.stem for p in (templates_dir() / "messages").glob("*.toml"))
        raise InputError(f"no message catalog for language {lang!r}; available: {', '.join(have)}")
    return MappingProxyType(merged)


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    """Catalog keys with tables flattened: ``[check] truncated`` becomes ``check.truncated``."""
    out: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{prefix}{key}."))
        elif isinstance(value, str):
            out[f"{prefix}{key}"] = value
    return out


class Catalog(Mapping[str, str]):
    """Entries of one catalog table, keyed without the table's prefix.

    A key the table lacks is an error that names it, never the raw key.
    """

    def __init__(self, section: str, entries: Mapping[str, str]) -> None:
        self.section = section
        self._entries = MappingProxyType(dict(entries))

    def __getitem__(self, key: str) -> str:
        try:
            return self._entries[key]
        except KeyError:
            raise InputError(f"message catalog has no entry {self.section}.{key}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def catalog(
    lang: str,
    section: str,
    templates: str | Path | None = None,
    keys: Iterable[str] | None = None,
) -> Catalog:
    """One table of the ``lang`` catalog (``check``, ``audit``), keys without the prefix.

    With ``keys``, only those entries, each of which must be there.
    """
    head = section + "."
    messages = load_messages(lang, templates)
    if keys is not None:
        return Catalog(section, {k: text(messages, head + k) for k in keys})
    return Catalog(section, {k[len(head) :]: v for k, v in messages.items() if k.startswith(head)})


#: a language's plural rule: the category (``one``, ``other``) of a count
PLURAL_RULES: Mapping[str, Callable[[int], str]] = MappingProxyType(
    {
        "en": lambda n: "one" if n == 1 else "other",
        "zh": lambda n: "other",
    }
)


def plural_key(messages: Mapping[str, str], key: str, count: int | None, lang: str) -> str:
    """The catalog key of ``key`` in the plural form ``count`` needs.

    A sentence given as one string has one form for every count; one given as a table of
    forms (``{ one = "...", other = "..." }``) is flattened to ``key.one``, ``key.other``,
    and the language's rule picks the form (``other`` when the catalog lacks the category).
    """
    if key in messages:
        return key
    rule = PLURAL_RULES.get(lang.split("-")[0], PLURAL_RULES["en"])
    form = rule(count) if count is not None else "other"
    if f"{key}.{form}" in messages:
        return f"{key}.{form}"
    return f"{key}.other"


def text(messages: Mapping[str, str], key: str) -> str:
    """The catalog text of ``key`` (a dotted key); an error when the catalog lacks it."""
    try:
        return messages[key]
    except KeyError:
        raise InputError(f"message catalog has no entry {key!r}") from None


class _Params(Mapping[str, str]):
    """A message's parameters, each rendered only when its template uses it."""

    def __init__(self, message: Message, messages: Mapping[str, str]) -> None:
        self._message = message
        self._messages = messages

    def __getitem__(self, name: str) -> str:
        if name not in self._message.params:
            where = f"{self._message.section}.{self._message.key}"
            raise InputError(f"message {where} uses {{{name}}}, which it is not given")
        return show(self._message.params[name], self._messages)

    def __iter__(self) -> Iterator[str]:
        return iter(self._message.params)

    def __len__(self) -> int:
        return len(self._message.params)


def say(message: Message, messages: Mapping[str, str]) -> str:
    """The sentence ``message`` stands for, in the catalog's language (plain text)."""
    return text(messages, f"{message.section}.{message.key}").format_map(_Params(message, messages))


def show(value: object, messages: Mapping[str, str]) -> str:
    """One parameter value as plain text: messages rendered, lists as ``[a, b]``."""
    if isinstance(value, Message):
        return say(value, messages)
    if isinstance(value, Join):
        sep = say(value.sep, messages) if isinstance(value.sep, Message) else value.sep
        return value.prefix + sep.join(show(p, messages) for p in value.parts)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(x, messages) for x in value) + "]"
    return "" if value is None else str(value)
