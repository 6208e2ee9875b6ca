"""What a name or a phrase says an array is: its stage, and which row, token or head.

:func:`clean_name` writes a name the one way the tables of
:mod:`symattn.read.notations.roles` read it; :func:`symbol_role` matches a whole name
(``attn_weights_2`` -> weights of query 2), :func:`phrase_role` looks for the phrase of a
stage in a label or in the prose before an array (the last one named wins: ``Step 5:
Apply Softmax / Attention weights:`` -> weights).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from symattn.read.notations.roles import (
    CASED_SYMBOLS,
    PHRASES,
    STAGE_PREFIXES,
    STAGE_QUALIFIERS,
    SYMBOL_FOR,
    SYMBOLS,
    TOKEN_IN_PARENS,
    RoleName,
)

__all__ = ["Role", "RoleName", "clean_name", "phrase_role", "stage_rank", "symbol_role"]

_SUBSCRIPT_DIGITS: Final = str.maketrans("₀₁₂₃₄₅₆₇₈₉ₖ", "0123456789k")
_FRAC: Final = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_SQRT: Final = re.compile(r"\\sqrt\s*\{([^{}]*)\}|\\sqrt\s*")
_COMMANDS: Final = (
    r"\\(?:text|mathbf|mathrm|boldsymbol|mathit|operatorname|vec|hat|bm|mathsf|textbf)"
)
_WRAP: Final = re.compile(_COMMANDS + r"\s*\{([^{}]*)\}")
_WRAP_NAME: Final = re.compile(_COMMANDS + r"\b")
_DROP: Final = re.compile(r"\\(?:left|right|big|Big|cdot|,|;|!|quad)|[$`*]|self\.|\.weight\b")
_GREEK: Final = {"\\alpha": "α", "\\top": "t", "\\intercal": "t"}


@dataclass(frozen=True)
class Role:
    """A stage of attention, and what the name or phrase says about where it belongs."""

    role: RoleName
    index: int | None = None  # a 1-based row (query) or key number
    token: str = ""  # a token named in the name (k_{I} -> I, K_animal -> animal)
    head: int | None = None  # a head number (W_Q1)
    row: str = ""  # score(row, col)
    col: str = ""


@lru_cache(maxsize=4096)
def clean_name(name: str) -> str:
    """A name written one way: markup dropped, lower case (ASCII), ``\\frac{a}{b}`` as
    ``a/b``, ``\\sqrt`` as ``√``, braces and spaces around ``_``/``^`` gone."""
    s = name.strip().translate(_SUBSCRIPT_DIGITS)
    for k, v in _GREEK.items():
        s = s.replace(k, v)
    s = _WRAP_NAME.sub("", _WRAP.sub(r"\1", s)).replace("，", ",")
    s = _SQRT.sub(lambda m: "√" + (m.group(1) or ""), s)
    for _ in range(3):
        s2 = _FRAC.sub(r"(\1)/(\2)", s)
        if s2 == s:
            break
        s = s2
    s = _DROP.sub(" ", s)
    s = s.replace("{", "").replace("}", "").replace("\\", "")
    s = re.sub(r"\(([^()/]*)\)/", r"\1/", s)
    s = re.sub(r"/\(([^()]*)\)", r"/\1", s)
    s = re.sub(r"\s*([_^/=·×*])\s*", r"\1", s)
    s = re.sub(r"\s+", " ", s).strip(" :：.,;")
    return "".join(ch.lower() if ch.isascii() else ch for ch in s)


#: stages whose rows are tokens: a token in parentheses after one names its row
_TOKEN_ROWS: Final = frozenset({RoleName.X, RoleName.Q, RoleName.K, RoleName.V, RoleName.KV})


@lru_cache(maxsize=4096)
def symbol_role(name: str) -> Role | None:
    """The role a whole name states (``k_1 (Thinking)``: key 1, token Thinking), or None."""
    found = _symbol(name)
    if found is not None:
        return found
    m = TOKEN_IN_PARENS.regex.fullmatch(name.strip())
    if m is None:
        return _symbol_for(name)
    found = _symbol(m.group("name"))
    inner = _symbol(m.group("token"))
    if inner is not None and (
        found is None
        or found.role not in _TOKEN_ROWS
        or inner.role == found.role
        or (inner.index is None and not inner.token)
    ):
        # ``Query (Q)`` names Q; ``embedding(w_1)`` is the embedding of word w_1 (a subscripted
        # symbol of another stage in the parentheses is a word's name, not that stage)
        return None
    if found is None or found.token or found.row or found.col or found.role not in _TOKEN_ROWS:
        return found  # (``w_1 (to itself)`` says which key, in words: no token of a row)
    return replace(found, token=m.group("token").strip())


def _symbol_for(name: str) -> Role | None:
    """``Q for last token``: the stage of the symbol the words follow (no token: the words
    are no token's name), when that symbol is one of a row's vectors or stages."""
    m = SYMBOL_FOR.regex.fullmatch(name.strip())
    if m is None or len(m.group("name")) < 1:
        return None
    found = _symbol(m.group("name"))
    if found is None or found.token or found.index is not None or found.role not in _TOKEN_ROWS:
        return None
    return found


_CASED: Final = {w.text: RoleName(w.means) for w in CASED_SYMBOLS}
#: a qualifier -> the stage it makes of the symbol (``None``: the symbol's own stage)
_QUALIFIERS: Final = {w.text: RoleName(w.means) if w.means else None for w in STAGE_QUALIFIERS}
#: a prefix that says whose value a stage's symbol is (``expected_Q``), and the symbol
_PREFIXED: Final = re.compile(
    "(?:" + "|".join(re.escape(w.text) for w in STAGE_PREFIXES) + r")[_ ](?P<rest>.+)"
)
#: the stages whose symbol a qualifier may follow (the inputs' subscripts name tokens)
_QUALIFIED: Final = frozenset(
    {RoleName.SCORES, RoleName.SCALED, RoleName.EXP, RoleName.WEIGHTS, RoleName.OUTPUT}
)
#: the one symbol row that names a score by its query and key (``score(它, 动物)``)
_SCORE_OF: Final = next(r for r in SYMBOLS if r.name == "score-of")
#: the stage each other symbol row states (every row's kind is a role: checked on import)
_SYMBOL_ROLE: Final = {r.name: RoleName(r.kind) for r in SYMBOLS if r is not _SCORE_OF}
#: the stage each phrase row states
_PHRASE_ROLE: Final = {r.name: RoleName(r.kind) for r in PHRASES}


def _symbol(name: str) -> Role | None:
    bare = name.strip().strip("$*` ").replace("{", "").replace("}", "")
    if bare in _CASED:
        return Role(_CASED[bare])
    s = clean_name(name)
    if not s or len(s) > 60:
        return None
    m = _PREFIXED.fullmatch(s)
    if m is not None:
        # `expected_Q`, `actual_scores`: whose value, not which stage; the rest says that
        rest = _symbol(m.group("rest"))
        if rest is not None:
            return rest
    for row in SYMBOLS:
        m = row.regex.fullmatch(s)
        if m is None:
            continue
        gd = {k: v for k, v in m.groupdict().items() if v}
        token = gd.get("t", "")
        if row is _SCORE_OF:
            r = gd.get("r") or gd.get("r2") or ""
            c = gd.get("c") or gd.get("c2") or ""
            return Role(
                RoleName.SCORES,
                row=r.translate(_SUBSCRIPT_DIGITS),
                col=c.translate(_SUBSCRIPT_DIGITS),
            )
        stage = _SYMBOL_ROLE[row.name]
        if token and stage in _QUALIFIED and token.lower() in _QUALIFIERS:
            # `S_scaled`, `weights_masked`: a version of the stage, not a token's row
            index = int(gd["i"]) if "i" in gd else None
            return Role(_QUALIFIERS[token.lower()] or stage, index, "", None)
        if "t" in gd and phrase_role(gd["t"]) is not None:
            return None  # `input_scores`: words, not a symbol and its token
        index = int(gd["i"]) if "i" in gd else None
        head = int(gd["h"]) if "h" in gd else None
        return Role(stage, index, gd.get("t", ""), head)
    return None


#: stages in computation order: in one line that names several, the last stage is meant
#: ("Softmax converts scores to probabilities" names the weights)
_STAGE_ORDER: Final = (
    RoleName.X,
    RoleName.Q,
    RoleName.K,
    RoleName.V,
    RoleName.SCORES,
    RoleName.SCALED,
    RoleName.EXP,
    RoleName.WEIGHTS,
    RoleName.OUTPUT,
)


def stage_rank(role: RoleName | None) -> int:
    """The place of a stage in the computation (-1 for what is not a stage of a row)."""
    return _STAGE_ORDER.index(role) if role in _STAGE_ORDER else -1


@lru_cache(maxsize=4096)
def phrase_role(text: str) -> Role | None:
    """The stage the last line of ``text`` that names one names (the latest stage of that
    line)."""
    spans: list[tuple[int, int, RoleName]] = []
    for row in PHRASES:
        for m in row.regex.finditer(text):
            spans.append((m.start(), m.end(), _PHRASE_ROLE[row.name]))
    # a phrase inside a longer one is the longer one's ("softmax output" names the weights)
    found = [
        (a, kind)
        for a, b, kind in spans
        if not any(x <= a and b <= y and (y - x) > (b - a) for x, y, _ in spans)
    ]
    if not found:
        return None
    last_at = max(at for at, _ in found)
    line_start = text.rfind("\n", 0, last_at) + 1
    kinds = {k for at, k in found if at >= line_start}
    best = max(kinds, key=stage_rank)
    return Role(best)
