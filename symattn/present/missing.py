"""The "cannot compute" document: what is missing, and the author's numbers as written."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from symattn.numbers import Written
from symattn.present.keys import CLAIMS, lookup
from symattn.present.model import DocMeta, Line, Msg, math_seg, msg, token_seg
from symattn.present.numbers import PLAIN_DECIMAL, rational_latex, vector_latex
from symattn.spec import Claims
from symattn.stages import TOKEN_STAGES

#: an input's name -> its symbol
INPUT_SYMBOLS: Mapping[str, str] = MappingProxyType(
    {"W_Q": "W^{Q}", "W_K": "W^{K}", "W_V": "W^{V}", "W_O": "W^{O}"}
)

#: a row claim field -> the symbol of its vector (every row stage but the sum, in order)
ROW_CLAIM_SYMBOLS: Mapping[str, str] = MappingProxyType(
    {
        "scores": "q \\cdot k",
        "scaled": "s",
        "exp": "e^{s}",
        "weights": "w",
        "output": "o",
    }
)
#: the row claim field of the one sum (shown after the vectors, as ``Z = ...``)
SUM_CLAIM = "sum"


def missing_sentences(meta: DocMeta) -> tuple[Msg, ...]:
    """Why nothing can be computed: the inputs the source does not give."""
    names = tuple(math_seg(INPUT_SYMBOLS.get(n, n)) for n in meta.missing)
    return (
        msg("missing_intro"),
        msg("missing_inputs", names=names),
        msg("missing_consequence"),
    )


def claim_number(w: Written | None) -> str:
    """A claimed number as the author wrote it when it is a plain decimal, else its exact value."""
    if w is None:
        return "?"
    text = str(w.text)
    return text if PLAIN_DECIMAL.fullmatch(text) else rational_latex(w.value)


def _claim_vector(values: Sequence[Written | None]) -> str:
    return vector_latex([claim_number(w) for w in values])


def unverifiable(claims: Claims | None) -> tuple[Line, ...]:
    """Every number the author claims, as written, with a caption saying whose it is."""
    if claims is None:
        return ()
    lines: list[Line] = []
    for token, tc in claims.tokens.items():
        for field in TOKEN_STAGES:
            vals = getattr(tc, field)
            if vals is not None:
                caption = msg(lookup(CLAIMS, field, "claim"), token=token_seg(token))
                lines.append(Line(caption, f"{field} = {_claim_vector(vals)}"))
    for token, rc in claims.rows.items():
        for field, sym in ROW_CLAIM_SYMBOLS.items():
            vals = getattr(rc, field)
            if any(w is not None for w in vals):
                caption = msg(lookup(CLAIMS, field, "claim"), token=token_seg(token))
                lines.append(Line(caption, f"{sym} = {_claim_vector(vals)}"))
        if rc.sum is not None:
            caption = msg(lookup(CLAIMS, SUM_CLAIM, "claim"), token=token_seg(token))
            lines.append(Line(caption, f"Z = {claim_number(rc.sum)}"))
    return tuple(lines)
