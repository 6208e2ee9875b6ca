"""The arithmetic grammar's characters: text in the grammar's spelling, then its tokens.

:func:`normalize` maps LaTeX and unicode spellings (``\\times``, ``，``, ``１``) to the
grammar's own characters (:data:`~symattn.read.notations.SPELLINGS`) and remembers where each
character came from; :func:`tokenize` cuts normalized text into :class:`Token`\\ s
(:data:`~symattn.read.notations.TOKEN_RULES`). Nothing here evaluates anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError
from symattn.read.notations import SPELLING_OF, SPELLINGS, TOKEN_RULES

__all__ = ["RELATIONS", "ExprError", "Token", "normalize", "tokenize"]

#: the relations of a chain, in the grammar's spelling
RELATIONS: Final = "=≈"


class ExprError(InputError):
    """Text that is not an expression of the safe grammar (or breaks one of its bounds)."""


_SPELLING_RE: Final = re.compile(
    "|".join(re.escape(s.written) for s in sorted(SPELLINGS, key=lambda s: -len(s.written)))
)


def normalize(text: str) -> tuple[str, tuple[int, ...]]:
    """The text in the grammar's spelling, and for each character its offset in ``text``."""
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for m in _SPELLING_RE.finditer(text):
        for i in range(pos, m.start()):
            out.append(text[i])
            where.append(i)
        old = m.group()
        new = SPELLING_OF[old]
        if old.startswith("\\") and old[-1].isalpha() and new and new[-1].isalpha():
            new += " "  # \exp{x}: keep the name apart from what follows
        for ch in new:
            out.append(ch)
            where.append(m.start())
        pos = m.end()
    for i in range(pos, len(text)):
        out.append(text[i])
        where.append(i)
    return "".join(out), tuple(where)


@dataclass(frozen=True)
class Token:
    """One token: its kind (``num``, ``name``, ``cmd``, ``op``, ``rel``, ``dots``) and text."""

    kind: str
    text: str
    pos: int


_TOKEN_RE: Final = re.compile("|".join(f"(?P<{r.kind}>{r.pattern})" for r in TOKEN_RULES))


def tokenize(text: str, *, limits: Limits = DEFAULT_LIMITS) -> tuple[Token, ...]:
    """The tokens of already normalized text; anything else is an :class:`ExprError`."""
    if len(text) > limits.max_line_length:
        raise LimitError(
            f"expression of {len(text)} characters exceeds max_line_length={limits.max_line_length}"
        )
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise ExprError(f"unexpected character {text[pos]!r} at offset {pos}")
        kind = m.lastgroup or ""
        if kind != "space":
            if kind == "num" and len(m.group()) > limits.max_literal_length:
                raise LimitError(
                    f"number literal of {len(m.group())} characters exceeds "
                    f"max_literal_length={limits.max_literal_length}"
                )
            tokens.append(Token(kind, m.group(), pos))
        pos = m.end()
    return tuple(tokens)
