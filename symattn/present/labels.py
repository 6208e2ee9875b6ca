"""Token names are data: how a name is shown, visibly and escaped, in every place it appears.

A tokenizer may produce any string: ``[CLS]``, ``<pad>``, ``</s>``, ``▁the``, ``Ġthe``,
``a_b``, ``#1``, ``x^2``, CJK, emoji. Every one is shown as it is, in prose (escaped by the
format, set off as code) and inside formulas (``\\text{...}``, its special characters written
by name), never replaced by a number. A character that would be invisible or would reorder the
text around it (zero-width characters, bidi controls, other format and control characters) is
shown as its code, ``\\u202e``, by :func:`visible`, the one place that decides it.

Inside math the special characters are written as named commands (``\\textless{}``,
``\\textunderscore{}``), not as a backslash before the character, because a Markdown renderer
that does not know math removes a backslash before punctuation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from types import MappingProxyType

from symattn.present.mathwidth import text_width

#: Unicode categories shown as their code: format (bidi, zero-width), control, separators
#: other than the space, unassigned and private-use characters, surrogates
HIDDEN_CATEGORIES = frozenset({"Cf", "Cc", "Zl", "Zp", "Cn", "Co", "Cs"})
#: other characters that show nothing: variation selectors and fillers
HIDDEN_EXTRA = frozenset(
    {chr(c) for c in (*range(0xFE00, 0xFE10), 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800)}
)
#: whitespace characters kept as they are (a tab or a newline becomes a space elsewhere)
KEPT = frozenset("\t\n\r")

#: special characters of user text inside ``\\text{}`` in math, written by name
MATH_TEXT_SPECIALS: Mapping[str, str] = MappingProxyType(
    {
        "\\": r"\textbackslash{}",
        "{": r"\textbraceleft{}",
        "}": r"\textbraceright{}",
        "$": r"\textdollar{}",
        "_": r"\textunderscore{}",
        "^": r"\textasciicircum{}",
        "~": r"\textasciitilde{}",
        "<": r"\textless{}",
        ">": r"\textgreater{}",
        "|": r"\textbar{}",
        "#": r"\#",
        "%": r"\%",
        "&": r"\&",
        "\n": " ",
        "\r": " ",
        "\t": " ",
    }
)
_MATH_SPECIAL = re.compile("|".join(re.escape(k) for k in MATH_TEXT_SPECIALS))
#: the widest name set in a formula, in em (a longer one is cut, with an ellipsis)
MAX_LABEL_EM = 12.0


def is_hidden(ch: str) -> bool:
    """Whether ``ch`` would be invisible or reorder text (so it is shown as its code)."""
    if ch in KEPT:
        return False
    return unicodedata.category(ch) in HIDDEN_CATEGORIES or ch in HIDDEN_EXTRA


def code_of(ch: str) -> str:
    """``\\u202e`` (``\\U0001f600`` past the basic plane): how a hidden character is shown."""
    n = ord(ch)
    return f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


#: the characters that may be hidden: everything but printable ASCII (a C-speed pre-filter,
#: so a long text is not looked at character by character in Python)
_MAYBE_HIDDEN = re.compile(r"[^\x20-\x7e]+")
#: the characters of HIDDEN_EXTRA, found at C speed
_EXTRA = re.compile("[" + "".join(sorted(HIDDEN_EXTRA)) + "]")


def _all_shown(run: str) -> bool:
    """Whether no character of ``run`` is hidden, decided at C speed for the common case: a
    printable run (no Cc, Cf, Cs, Co, Cn, Zl, Zp, nor a space other than U+0020) holds no
    hidden category, and then only HIDDEN_EXTRA is left to look for."""
    return run.isprintable() and _EXTRA.search(run) is None


def visible(text: str) -> str:
    """``text`` with every hidden character (:func:`is_hidden`) written as its code."""
    out = _MAYBE_HIDDEN.sub(_shown, text)
    return text if out == text else out


def shown_with(text: str, code: Callable[[str], str]) -> str:
    """``text`` with every hidden character written as ``code(ch)``."""
    return _MAYBE_HIDDEN.sub(
        lambda m: (
            m.group(0)
            if _all_shown(m.group(0))
            else "".join(code(c) if is_hidden(c) else c for c in m.group(0))
        ),
        text,
    )


def _shown(m: re.Match[str]) -> str:
    run = m.group(0)
    if _all_shown(run):
        return run
    return "".join(code_of(c) if is_hidden(c) else c for c in run)


def math_text(text: str) -> str:
    """User text inside ``\\text{...}``: visible, every special character by name."""
    return _MATH_SPECIAL.sub(lambda m: MATH_TEXT_SPECIALS[m.group(0)], visible(text))


def math_label(name: str) -> str:
    """``\\text{name}``: the name as it is, cut with ``\\ldots`` past :data:`MAX_LABEL_EM`."""
    shown = visible(name)
    if text_width(shown) <= MAX_LABEL_EM:
        return r"\text{" + math_text(shown) + "}"
    cut = ""
    for ch in shown:
        if text_width(cut + ch) > MAX_LABEL_EM - 1.2:
            break
        cut += ch
    return r"\text{" + math_text(cut) + r"}\ldots"


def row_labels(names: tuple[str, ...]) -> tuple[str, ...]:
    """Labels of matrix rows (or columns): every name in ``\\text{}``."""
    return tuple(math_label(n) for n in names)
