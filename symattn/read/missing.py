"""What could not be checked for want of inputs, and what needs none.

When the text states weights or outputs but no problem could be rebuilt from it, one
``missing-input`` (info) says what was stated and not checked. Weights need no inputs to be
checked for one thing: a row of weights must sum to 1 within its roundings
(``not-normalized``), wherever it comes from.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from symattn.judge.findings import Finding, Join, Message
from symattn.judge.verdict import normalization_gap
from symattn.read.facts import Fact
from symattn.read.messages import fraction_text, say
from symattn.read.observations import Spot
from symattn.read.report import text_finding

__all__ = ["missing_inputs", "unnormalized"]


def _rows(f: Fact) -> list[list[Spot]]:
    if not f.dims or any(s is None for s in f.spots):
        return []
    width = f.dims[-1]
    spots = [s for s in f.spots if s is not None]
    return [spots[i : i + width] for i in range(0, len(spots), width)]


def unnormalized(facts: Iterable[Fact], judged: frozenset[int]) -> list[Finding]:
    """``not-normalized`` for each row of stated weights (not judged in a problem) whose
    written values cannot sum to 1."""
    out = []
    for f in facts:
        if f.role != "weights" or f.given or f.elided or len(f.dims) not in (1, 2):
            continue
        if (
            f.source not in ("name", "code")
            or (f.how == "printout" and f.source != "code")
            or any(s is not None and not 0 <= s.written.value <= 1 for s in f.spots)
        ):
            continue  # only weights the text (or its code) says are weights, each in [0, 1]
        for row in _rows(f):
            if len(row) < 2 or all(s.at in judged for s in row):
                continue
            gap = normalization_gap([s.written for s in row])
            if gap is None:
                continue
            total, lo, hi = gap
            msg = say(
                "not-normalized",
                sum=fraction_text(total),
                low=fraction_text(lo),
                high=fraction_text(hi),
            )
            first = row[0]
            out.append(
                text_finding(
                    "not-normalized",
                    first.line,
                    first.column,
                    " + ".join(s.written.text for s in row),
                    "1",
                    "1",
                    msg,
                    "not-normalized",
                )
            )
            out.extend(
                text_finding(
                    "not-normalized",
                    s.line,
                    s.column,
                    s.written.text,
                    "",
                    None,
                    msg,
                    "not-normalized",
                )
                for s in row[1:]
            )
    return out


def missing_inputs(facts: Sequence[Fact]) -> list[Finding]:
    """One ``missing-input`` (info) saying which stated weights and outputs were not checked."""
    stated = [f for f in facts if f.role in ("weights", "output") and not f.given and f.spots]
    if not any(f.dims for f in stated):
        return []  # single numbers alone (``z ≈ 0.5``) say too little to call them attention
    what: list[Message] = []
    weights = [s for f in stated if f.role == "weights" for s in f.spots if s is not None]
    if weights:
        shown = tuple(dict.fromkeys(s.written.text for s in weights))[:12]
        what.append(say("what-weights", values=Join(shown)))
    for f in stated:
        if f.role == "output":
            texts = [s.written.text for s in f.spots if s is not None][:12]
            what.append(say("what-output", values="[" + ", ".join(texts) + "]"))
    first = min((s for f in stated for s in f.spots if s is not None), key=lambda s: s.at)
    msg = say("missing-input", what=Join(tuple(what[:6]), say("and")))
    return [
        text_finding(
            "missing-input",
            first.line,
            first.column,
            first.written.text,
            "?",
            None,
            msg,
            "missing-input",
        )
    ]
