"""Token names inside math: only names that cannot change the math they sit in.

A token name is user text. In prose it is escaped for the output format (and set off as code);
inside a formula it may only appear as ``\\text{...}`` when every character is inert in TeX,
KaTeX and MathJax alike: letters, digits and marks of any script, spaces, and a few
punctuation marks. Anything else (a backslash, a dollar, braces, ``_``, ``^``, ``%``, ``#``,
``&``, ``~``, control or invisible characters) keeps the name out of math: the formula labels
that row by its number instead, and the prose names it.
"""

from __future__ import annotations

import unicodedata

from symattn.present.mathwidth import text_width

#: punctuation that is inert inside ``\text{}`` in TeX, KaTeX and MathJax
SAFE_PUNCTUATION = frozenset(" .,:;!?'()-+=/*")
#: Unicode categories of characters that are inert (letters, marks, digits)
SAFE_CATEGORIES = ("L", "M", "N")
#: the widest name set in a formula, in em (longer names are numbered)
MAX_LABEL_EM = 8.0


def is_math_safe(name: str) -> bool:
    """Whether every character of ``name`` is inert inside ``\\text{...}``."""
    if not name or name != name.strip():
        return False
    for ch in name:
        if ch in SAFE_PUNCTUATION:
            continue
        if not unicodedata.category(ch).startswith(SAFE_CATEGORIES):
            return False
    return True


def math_label(name: str) -> str | None:
    """``\\text{name}`` for a safe, short name; ``None`` when the name stays out of math."""
    if not is_math_safe(name) or text_width(name) > MAX_LABEL_EM:
        return None
    return r"\text{" + name + "}"


def row_labels(names: tuple[str, ...], symbol: str) -> tuple[str, ...]:
    """Labels of matrix rows: every name in ``\\text{}``, or ``symbol_i`` for all when any name
    cannot be set in math (a column of labels is all names or all numbers)."""
    labels = [math_label(n) for n in names]
    if all(lab is not None for lab in labels):
        return tuple(lab for lab in labels if lab is not None)
    return tuple(f"{symbol}_{{{i + 1}}}" for i in range(len(names)))
