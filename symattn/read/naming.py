"""What the words around an array say it is: its role read from its names, its label, the
call it is an argument of and the prose before it, and the query row the prose names.

:func:`array_role` tries, most trusted first, the names the text gives the array (an
assignment, a printed name), its label (``**K_animal (Exact Match):**``, ``q1 的原始分数``),
the name a notebook echoes above a printout (``In [16]: scaled_scores``) and the phrase of a
stage in the prose before it (``Step 5: Apply Softmax``); :func:`call_argument` reads an
array written as an argument of ``attention(Q, K, V)``, :func:`softmax_argument` one
written as the argument of ``softmax(``; :func:`row_named` the row a phrase before a fact
names (``For first row …:``). The names and phrases themselves are matched by
:mod:`symattn.read.roles`.
"""

from __future__ import annotations

import re
from typing import Final

from symattn.read.notations import (
    ARRAY_WRAPPER,
    ATTENTION_CALL,
    ECHOED_NAME,
    LABEL_SYMBOL,
    ROW_PHRASE,
    SOFTMAX_ARGUMENT,
    SOFTMAX_VALUE,
    TOKEN_LABEL,
)
from symattn.read.roles import Role, RoleName, phrase_role, stage_rank, symbol_role

__all__ = [
    "array_role",
    "call_argument",
    "row_named",
    "softmax_argument",
    "softmax_value",
    "token_labeled",
]


def call_argument(text: str, at: int) -> RoleName | None:
    """The input an array is, as an argument of ``attention(Q, K, V)`` written on its line."""
    start = max(text.rfind("\n", max(0, at - 400), at) + 1, at - 400)
    before = text[start:at]
    m = ATTENTION_CALL.last(before)
    if m is None:
        return None
    depth, commas = 0, 0
    for ch in before[m.end() :]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "," and depth == 0:
            commas += 1
    return (RoleName.Q, RoleName.K, RoleName.V)[commas] if depth == 0 and commas < 3 else None


def softmax_argument(text: str, at: int) -> bool:
    """Whether the array at ``at`` is written as the argument of softmax on its line."""
    start = max(text.rfind("\n", max(0, at - 200), at) + 1, at - 200)
    return SOFTMAX_ARGUMENT.regex.search(text[start:at]) is not None


def softmax_value(text: str, at: int) -> str:
    """``softmax([2.0, 1.0, 1.0]) →`` before the array at ``at`` on its line: the array is
    the value the author claims for that softmax (the call as written), else ""."""
    start = max(text.rfind("\n", max(0, at - 500), at) + 1, at - 500)
    m = SOFTMAX_VALUE.regex.search(text[start:at])
    return m.group(0).strip() if m is not None else ""


def _first_symbol(label: str) -> Role | None:
    """``**K_animal (Exact Match):**``: the symbol a label starts with."""
    m = LABEL_SYMBOL.regex.match(label)
    if m is None:
        return None
    return symbol_role(m.group("sym") or m.group("paren"))


def _labelled_row(label: str) -> Role | None:
    """The role of a label that starts with a symbol: the symbol's, unless the words after a
    query's symbol name a later stage of its row (``q1 的原始分数``, ``q_2's weights``): then
    the words say what the array is, and the symbol which row it is."""
    r = _first_symbol(label)
    if r is None or r.role is not RoleName.Q:
        return r
    m = LABEL_SYMBOL.regex.match(label)
    words = phrase_role(label[m.end() :]) if m is not None else None
    if words is None or stage_rank(words.role) <= stage_rank(RoleName.V):
        return r
    return Role(words.role, r.index, r.token, r.head)


def _chained_names(label: str) -> Role | None:
    """``Scaled = QK^T / 1.41``: a label that writes several names of one array, one role
    (the one every name that says a role agrees on; None when they disagree)."""
    if "=" not in label:
        return None
    roles = {r for part in label.split("=") if (r := symbol_role(part.strip())) is not None}
    return roles.pop() if len(roles) == 1 else None


#: a label of two or more words (letters only): the author's own name for what follows
_PROSE_LABEL: Final = re.compile(r"[A-Za-z]{2,}(?:[ \t]+[A-Za-z]{2,}){1,6}")


#: a log's tag before a printout's label (``[Decode] Attention scores:``, ``[INFO] Q:``): no
#: part of the name (its opening bracket may be cut off with the text before the label)
_LOG_TAG: Final = re.compile(r"^\s*\[?[A-Za-z][\w -]{0,19}\]\s+")


def array_role(names: list[str], label: str, context: str) -> tuple[Role | None, str]:
    """The role of an array: from its names, then its label, then the prose before it."""
    label = _LOG_TAG.sub("", label)
    for n in names:
        r = symbol_role(n)
        if r is not None:
            return r, n
    if label:
        r = (
            symbol_role(label)
            or _chained_names(label)
            or _labelled_row(label)
            or phrase_role(label)
        )
        if r is not None:
            return r, label
        if _PROSE_LABEL.fullmatch(label.strip()):
            # ``Input token indices: tensor([0, 6, 7, 8])`` under ``## Output Example``: the
            # author's own words for it name no stage, and the heading's are the section's
            return None, label
    if context:
        echoed = _echoed_name(context)
        if echoed is not None:
            return echoed
        r = phrase_role(context)
        if r is not None:
            return r, ""
    return None, names[0] if names else label


def _echoed_name(context: str) -> tuple[Role, str] | None:
    """``In [16]:`` / ``scaled_scores`` right above a printout: the name a notebook cell echoes
    names the array below it (rather than a stage the code lines above it mention)."""
    before = context.rstrip()
    opening = ARRAY_WRAPPER.regex.search(before)
    if opening is not None:
        before = before[: opening.start()].rstrip()  # (``array(`` opens the printout itself)
    m = ECHOED_NAME.regex.fullmatch(before.rsplit("\n", 1)[-1].strip())
    if m is None:
        return None
    r = symbol_role(m.group("name"))
    return (r, m.group("name")) if r is not None else None


_ORDINALS: Final = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


def row_named(context: str) -> int | None:
    """The query row the last two lines before a fact name (``For first row …:``)."""
    tail = "\n".join(context.rsplit("\n", 8)[-8:])
    m = ROW_PHRASE.last(tail)
    if m is None:
        return None
    word = next(v for v in m.groupdict().values() if v)
    return _ORDINALS.get(word.lower(), int(word) if word.isdigit() else None)


def token_labeled(text: str, at: int) -> str:
    """The token a quoted label heading the line of offset ``at`` names for the vectors
    written on it (``Word "cat" → Q = […], K = […]``: cat), or ""; only the words before
    the line's first definition count."""
    start = max(text.rfind("\n", max(0, at - 400), at) + 1, at - 400)
    head = text[start:at]
    if "=" in head:  # (a later vector of the line: the words before the first one's name)
        head = head.split("=", 1)[0].rstrip()
        head = head[: len(head) - len(head.split()[-1])] if head.split() else head
    m = TOKEN_LABEL.find(head)
    return m["token"] if m is not None else ""
