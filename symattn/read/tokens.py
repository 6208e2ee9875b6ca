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
from symattn.judge.findings import Message
from symattn.read.mapped import Mapped
from symattn.read.messages import not_checked, plain
from symattn.read.notations import (
    FRAC_DIGITS,
    FUNCTION_NAMES,
    GREEK_NAMES,
    SPELLING_OF,
    SPELLINGS,
    SUBSCRIPT_OF,
    TEXT_NAME,
    TOKEN_RULES,
    UNICODE_SUBSCRIPT,
    WORD_TIMES,
)

__all__ = ["RELATIONS", "ExprError", "ReadLimitError", "Token", "normalize", "respell", "tokenize"]

#: the relations of a chain, in the grammar's spelling
RELATIONS: Final = "=≈"


class ExprError(InputError):
    """Text that is not an expression of the safe grammar (or breaks one of its bounds):
    ``reason`` says why, as a message of the ``[unchecked]`` catalog table."""

    def __init__(self, reason: Message) -> None:
        super().__init__(plain(reason))
        self.reason = reason


class ReadLimitError(LimitError):
    """Text beyond a bound of the safe grammar (a limit): ``reason`` says which, as a message
    of the ``[unchecked]`` catalog table."""

    def __init__(self, reason: Message) -> None:
        super().__init__(plain(reason))
        self.reason = reason


def _spelling_pattern(written: str) -> str:
    """A spelling as a pattern; a command spelled as a word, a function's or a letter's
    (``\\ln``, ``\\nu``), only as a whole command (never the start of ``\\lneq`` or
    ``\\nunito``)."""
    word = written[1:]
    whole = (
        written[:1] == "\\" and word.isalpha() and (word in FUNCTION_NAMES or word in GREEK_NAMES)
    )
    return re.escape(written) + ("(?![A-Za-z])" if whole else "")


_SPELLING_RE: Final = re.compile(
    "|".join(_spelling_pattern(s.written) for s in sorted(SPELLINGS, key=lambda s: -len(s.written)))
)


#: the sign each word of :data:`~symattn.read.notations.WORD_TIMES` stands for
_WORD_SIGN: Final = {"x": "×", "nx": "×", "dot": "·", "period": "·"}


def respell(text: Mapped) -> Mapped:
    """``text`` in the grammar's spelling (:data:`~symattn.read.notations.SPELLINGS`), each
    character still mapped to where it was written; ``\\text{Attention Scores}`` is the one
    name ``Attention_Scores`` (:data:`~symattn.read.notations.TEXT_NAME`), ``K₂`` is ``K_2``
    (:data:`~symattn.read.notations.UNICODE_SUBSCRIPT`)."""
    subscripts = [
        (m.start(), m.end(), _subscript("".join(SUBSCRIPT_OF[c] for c in m.group())))
        for m in UNICODE_SUBSCRIPT.regex.finditer(text.text)
    ]
    if subscripts:  # ``K₂`` is ``K_2``, ``dₖ`` is ``d_k``
        text = text.replace(subscripts)
    names = [
        (m.start(), m.end(), "_".join(m.group("words").split()))
        for m in TEXT_NAME.regex.finditer(text.text)
        if m.group() not in SPELLING_OF  # (``\text{softmax}`` is the function)
    ]
    if names:
        text = text.replace(names)
    signs = [
        (*m.span(g), _WORD_SIGN[g])
        for m in WORD_TIMES.regex.finditer(text.text)
        for g in _WORD_SIGN
        if m.group(g)
    ]
    if signs:  # ``0.5760 x 4`` is ``0.5760 × 4``; ``q dot k_1``, ``x1 . W_Q`` are products
        text = text.replace(signs)
    out: list[tuple[int, int, str]] = []
    for m in _SPELLING_RE.finditer(text.text):
        old = m.group()
        new = SPELLING_OF[old]
        if (
            old.startswith("\\")
            and old[-1].isalpha()
            and new[-1:].isalpha()
            and new not in GREEK_NAMES
        ):
            new += " "  # \exp{x}: keep the name apart from what follows (a letter's name
            # keeps its subscript: \alpha_1 is alpha_1)
        out.append((m.start(), m.end(), new))
    text = text.replace(out) if out else text
    if "\\frac" in text.text:  # ``\frac13`` is ``\frac{1}{3}``
        digits = [
            (m.start(), m.end(), f"\\frac{{{m.group('num')}}}{{{m.group('den')}}}")
            for m in FRAC_DIGITS.regex.finditer(text.text)
        ]
        if digits:
            text = text.replace(digits)
    return text


def _subscript(chars: str) -> str:
    return f"_{chars}" if len(chars) == 1 else f"_{{{chars}}}"


def normalize(text: str) -> tuple[str, tuple[int, ...]]:
    """The text in the grammar's spelling, and for each character its offset in ``text``
    (for short texts and tests; readers use :func:`respell`, which keeps runs, not a position
    per character)."""
    m = respell(Mapped.of(text, 0, len(text)))
    return m.text, tuple(m.at(i) for i in range(len(m.text)))


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
        raise ReadLimitError(
            not_checked("expression-too-long", length=len(text), limit=limits.max_line_length)
        )
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise ExprError(not_checked("unexpected-character", char=text[pos], offset=pos))
        kind = m.lastgroup or ""
        if kind != "space":
            if kind == "num" and len(m.group()) > limits.max_literal_length:
                raise ReadLimitError(
                    not_checked(
                        "literal-too-long", length=len(m.group()), limit=limits.max_literal_length
                    )
                )
            tokens.append(Token(kind, m.group(), pos))
        pos = m.end()
    return tuple(tokens)
