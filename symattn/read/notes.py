"""A value followed by a note: one rule for every reader.

A row of a matrix, a vector or the last value of a formula may end with a note the author
wrote beside it (``← token 1 的 query``, ``shape: [3, 3]``, ``（"吃"的 Query）``,
``# 平滑分布``, ``✅``, a sentence's final period). The rule: what follows a complete value is
a note when it starts as one (:data:`~symattn.read.notations.NOTE_START`, or a shape) and
holds no number, or only numbers that are a shape (:data:`~symattn.read.notations.SHAPE_NOTE`)
or an index (:data:`~symattn.read.notations.INDEX_NOTE`). A note is no part of the value and
its numbers are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from symattn.read.notations import INDEX_NOTE, LABEL_COPULA, NOTE_START, SHAPE_NOTE

#: a shape written last in a name or label (``Q (2 × 3)``, ``**Q**（5×4）：``)
_SHAPE_LAST: Final = re.compile(rf"\s*(?:{SHAPE_NOTE.regex.pattern})\s*[:：]?\s*$")
#: Markdown emphasis and code marks around a label (``**Q**``, `` `K` ``)
_EMPHASIS: Final = re.compile(r"\*\*|__|`+")

__all__ = ["NOTE_REACH", "is_note", "note_cuts", "plain_label", "without_shape"]

#: the longest note looked for (characters): notes are short, values may be long
NOTE_REACH: Final = 160


def is_note(rest: str, *, marked: bool = False) -> bool:
    """Whether ``rest``, the text right after a value, is a note (``marked``: only one that
    starts with a mark or a bracket, or is a shape; not with a word: after a row of bare
    numbers, ``2 3 个 token`` is prose)."""
    if not rest.strip() or len(rest) > NOTE_REACH:
        return False
    shape = SHAPE_NOTE.regex.match(rest.lstrip()) is not None
    if NOTE_START.regex.match(rest) is None and not shape:
        return False
    first = rest.lstrip()[:1]
    if marked and not shape and (first.isalnum() or first in "\\.,，;；:：。"):
        return False
    bare = INDEX_NOTE.regex.sub(" ", SHAPE_NOTE.regex.sub(" ", rest))
    return not any(ch.isdigit() for ch in bare)


def note_cuts(text: str) -> Iterator[int]:
    """The offsets, left to right, where a value of ``text`` may end and a note begin: outside
    brackets, right after a character that is not a space, with a note after it (one pass;
    only the last :data:`NOTE_REACH` characters are looked at)."""
    n = len(text)
    lo = max(1, n - NOTE_REACH)
    depth = 0
    for k, ch in enumerate(text):
        before = text[k - 1] if k else " "
        if (
            k >= lo
            and depth == 0
            and not before.isspace()
            and before != "\\"
            # (no cut inside a word or a command, nor before the argument of one)
            and not (before.isalnum() and (ch.isalnum() or ch in "{("))
            and is_note(text[k:])
        ):
            yield k
        if ch in "([{（":
            depth += 1
        elif ch in ")]}）":
            depth = max(0, depth - 1)


def without_shape(name: str) -> str:
    """``name`` without the shape written after it (``Q (2 × 3)`` -> ``Q``; a name that is
    only a shape, or has none, is kept)."""
    m = _SHAPE_LAST.search(name) if len(name) <= NOTE_REACH else None
    if m is None or not name[: m.start()].strip():
        return name
    return name[: m.start()].rstrip()


def plain_label(label: str) -> str:
    """The label of an array as its name: emphasis marks, a shape after it, the colon that
    ends it and a verb after its subject dropped (``**Q**（5×4）：`` -> ``Q``, ``Keys are``
    -> ``Keys``)."""
    label = _EMPHASIS.sub("", label).strip(" \t=:：,，").lstrip(".。;；")
    label = without_shape(label).strip(" \t=:：,，")
    copula = LABEL_COPULA.regex.fullmatch(label) if len(label) <= NOTE_REACH else None
    return copula.group("name") if copula is not None else label
