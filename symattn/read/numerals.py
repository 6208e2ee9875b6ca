"""The one number scanner: where a text writes a number, for the census and every reader.

The digits are :data:`~symattn.read.notations.NUMERAL` (``12``, ``0.47``, ``2.``, ``.5``,
``1e-3``); what surrounds them decides whether they are a number of their own:

- :func:`numbers_in`: a number of running text is not part of a name (``x_2``, ``W1``,
  ``3D``, ``2nd``, ``v1.2``): no letter, digit, ``_`` or ``.`` right before it, no letter,
  digit or ``_`` right after it. The census counts these; every reader reads among them.
- :func:`words_in`: a number that is a word of its own (a table cell's ``0.5``, not the
  ``3`` of ``3个`` or of ``1.2.3``): no word character or ``.`` on either side, a sign kept.
- :func:`number_at`: the number (with its sign) that starts right at an offset, for the
  scanners that walk a text character by character (arrays, rows of numbers).
- :func:`percent` (of :mod:`symattn.numbers`): a number written with ``%`` after it
  (``87%``), for every reader.

Each is one regular-expression pass: linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from symattn.numbers import percent
from symattn.read.notations import NUMERAL_TEXT

__all__ = ["PERCENT", "SIGNS", "number_at", "numbers_in", "percent", "words_in"]

#: the sign right after a number that writes it as a percentage (``87%``, ``87％``)
PERCENT: Final = "%％"

#: the signs a number may be written with (``−`` is U+2212, the typographic minus)
SIGNS: Final = "-+−"

_IN_TEXT: Final = re.compile(rf"(?<![A-Za-z0-9_.]){NUMERAL_TEXT}(?![A-Za-z0-9_])")
_WORD: Final = re.compile(rf"(?<![\w.])[-−]?{NUMERAL_TEXT}(?![\w.])")
_SIGNED: Final = re.compile(rf"[-+]?{NUMERAL_TEXT}")


def numbers_in(text: str, start: int = 0, end: int | None = None) -> Iterator[re.Match[str]]:
    """Every number of running text in ``text[start:end]`` (digits only: a sign before one
    is the text's), in order."""
    return _IN_TEXT.finditer(text, start, len(text) if end is None else end)


def words_in(text: str, start: int = 0, end: int | None = None) -> Iterator[re.Match[str]]:
    """Every number in ``text[start:end]`` that is a word of its own, with its sign."""
    return _WORD.finditer(text, start, len(text) if end is None else end)


def number_at(text: str, at: int, end: int) -> re.Match[str] | None:
    """The number (``-0.5``, ``+1e-3``, ``2.``) that starts at offset ``at``, read no
    further than ``end``; None if none starts there."""
    return _SIGNED.match(text, at, end)
