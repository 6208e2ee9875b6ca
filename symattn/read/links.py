"""What the links of a chain say: a label (a name, not math), an expression, or nothing.

The first link may start with prose (``We assume that d_k``, ``假设 d_k``); the last may end
in prose (``= 0.82，即…``, ``= 2 here.``, ``= 2.``). Both are cut off before parsing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice
from typing import Final

from symattn.config import Limits
from symattn.errors import LimitError, SymattnError
from symattn.judge.findings import Message
from symattn.read.messages import reason_of
from symattn.read.notations import (
    EXPRESSION_START,
    FUNCTION_NAMES,
    PROSE_END,
    SENTENCE_END,
    TAIL_NOTE,
    TAIL_SYMBOL,
    VALUE_WRITTEN,
    WORD_AFTER,
)
from symattn.read.notes import note_cuts, without_shape
from symattn.read.syntax import Node, TokenKind, canonical_name, parse
from symattn.read.tokens import tokenize

__all__ = ["Parsed", "ParsedKind", "label_of", "read_first", "read_link", "unknown_math"]


class ParsedKind(StrEnum):
    """What the text of a link was read as."""

    LABEL = "label"  #: a name or a label, not math (``score(它,动物)``, ``Attention Output``)
    EXPR = "expr"  #: an expression of the grammar
    NONE = "none"  #: neither (words, or math the grammar does not know)


@dataclass(frozen=True)
class Parsed:
    """One link read: a label, an expression, or neither."""

    kind: ParsedKind
    node: Node | None = None
    label: str = ""
    offset: int = 0  # where the parsed text starts inside the link


NOTHING = Parsed(ParsedKind.NONE)

#: LaTeX commands (their names are no names of the text)
_COMMAND: Final = re.compile(r"\\[A-Za-z]+")


#: a word numbered by a count after it, after the words that qualify it (``Score 1``,
#: ``Token 3``, ``头 2``, ``Output slot 1``)
_NUMBERED_LABEL: Final = re.compile(
    r"(?:[A-Za-z]{2,20}\s+){0,3}(?P<word>[A-Za-z]{2,20}|[\u4e00-\u9fff]{1,6})\s*#?\d{1,3}"
)
#: the tokens a label is made of: names, and brackets and commas between them
_LABEL_TOKENS: Final = frozenset({TokenKind.NAME, TokenKind.OP})


def label_of(text: str, limits: Limits) -> str | None:
    """``score(它,动物)``, ``output_它``, ``{Attention Output}``: a name, not math."""
    try:
        toks = tokenize(text, limits=limits)
    except SymattnError:
        return None
    if not toks or any(t.kind not in _LABEL_TOKENS for t in toks):
        return None
    if any(t.kind == TokenKind.OP and t.text not in "(){}," for t in toks):
        return None
    words = [t.text for t in toks if t.kind == TokenKind.NAME]
    if not words:
        return None
    if all(t.kind == TokenKind.NAME or t.text in "{}" for t in toks):
        return canonical_name(" ".join(words))
    return canonical_name("".join(t.text for t in toks))


def read_first(text: str, limits: Limits) -> Parsed:
    """The first link: a label, an expression (prose before it dropped), or neither."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch in PROSE_END.chars][:64]
    # `Scores become [10/4, 20/4]`: words, then the expression; never after a value
    # (`[1, 0, 2] x [1, 4, 3]`: math the grammar does not know, the rest an operand of it)
    starts += [
        m.start() + 1
        for m in EXPRESSION_START.regex.finditer(text)
        if not _in_command(text, m.start())
        and VALUE_WRITTEN.regex.search(text[: m.start()]) is None
    ][:8]
    for start in starts:
        piece = text[start:].strip()
        if not piece:
            continue
        off = start + (len(text[start:]) - len(text[start:].lstrip()))
        numbered = _NUMBERED_LABEL.fullmatch(piece)
        if numbered is not None and numbered["word"].lower() not in FUNCTION_NAMES:
            # ``Score 1``, ``Head 2``, ``第 1 行``, ``Context: slot 1``: a word and the number
            # that counts it, a name
            return Parsed(ParsedKind.LABEL, label=canonical_name(piece), offset=off)
        label = label_of(without_shape(piece), limits)  # (``Q (2 × 3)`` names Q)
        if label is not None:
            tail = TAIL_SYMBOL.regex.search(piece)
            if tail is not None:
                return Parsed(
                    ParsedKind.LABEL,
                    label=canonical_name(tail.group("sym")),
                    offset=off + tail.start("sym"),
                )
            return Parsed(ParsedKind.LABEL, label=label, offset=off)
        try:
            return Parsed(ParsedKind.EXPR, parse(piece, limits=limits, normalized=True), offset=off)
        except SymattnError:
            continue
    return NOTHING


def _in_command(text: str, at: int) -> bool:
    """Whether the letter at ``at`` ends a LaTeX command (``\\ln 2`` is no word then math)."""
    k = at
    while k > 0 and text[k - 1].isascii() and text[k - 1].isalpha():
        k -= 1
    return k > 0 and text[k - 1] == "\\"


def unknown_math(text: str, limits: Limits) -> Message | None:
    """Why a link is math the grammar does not know (``\\ln``, ``\\binom``, ``\\max``,
    ``5!``), or None when it is something else (prose, a name)."""
    if not text.strip():
        return None  # (``总和 $= …$``: the words before the math name it)
    try:
        parse(text, limits=limits, normalized=True)
    except LimitError as e:
        return reason_of(e)  # (too big or too deep to read: said, never dropped)
    except SymattnError as e:
        reason = reason_of(e)
        letters = any(ch.isalpha() for ch in _COMMAND.sub("", text))
        # (``5!``: the token ``!`` the grammar does not know, wherever the reason names it)
        bang = "!" in reason.params.values() or "'!'" in str(reason.params.get("detail", ""))
        if reason.key == "unsupported-command" or bang or not letters:
            return reason  # (no names: it is arithmetic, and it was not read)
    return None


def read_link(text: str, last: bool, limits: Limits) -> Parsed:
    """A later link; the last one may end in prose (``= 0.82，即…``, ``= 2 here.``, ``= 2.``)."""
    if last and (end := SENTENCE_END.regex.match(text)) is not None:
        text = end.group("body")
    try:
        return Parsed(ParsedKind.EXPR, parse(text, limits=limits, normalized=True))
    except SymattnError as first_error:
        if not last:
            raise
        for k in islice(note_cuts(text), 3):
            try:  # `[1, 0] ← token 1`, `\end{bmatrix}_{2×2}`, `… \end{bmatrix}.`: a note
                return Parsed(ParsedKind.EXPR, parse(text[:k], limits=limits, normalized=True))
            except SymattnError:
                continue
        note = TAIL_NOTE.find(text)
        if note is not None and any(ch.isdigit() for ch in text[: note.start()]):
            try:  # `≈ 87% \quad \text{(animal)}`: a note after the value, not math
                return Parsed(
                    ParsedKind.EXPR, parse(text[: note.start()], limits=limits, normalized=True)
                )
            except SymattnError:
                pass
        word = WORD_AFTER.regex.search(text)
        cut = next(
            (i for i, ch in enumerate(text) if ch in PROSE_END.chars or ch == ","),
            word.start() if word else None,
        )
        piece = text[:cut].rstrip() if cut else text.rstrip(")）]")
        if piece and piece != text:
            try:
                return Parsed(ParsedKind.EXPR, parse(piece, limits=limits, normalized=True))
            except SymattnError:
                pass
        raise first_error
