"""What could not be checked: attention numbers a text states without the inputs to compute
them (``missing-input``, info), and whether stated weights sum to 1 (``not-normalized``)."""

from __future__ import annotations

from symattn.judge.findings import Finding, Join, Message
from symattn.judge.verdict import normalization_gap
from symattn.read.messages import fraction_text, say
from symattn.read.observations import Row, Scan, Stated, texts
from symattn.read.problem import label_kind
from symattn.read.report import text_finding

__all__ = ["missing_inputs"]


def missing_inputs(stated: tuple[Stated, ...], sc: Scan) -> list[Finding]:
    """No inputs: which stated weights and outputs could not be checked, and their sums."""
    claims: list[tuple[str, Row]] = []
    for s in stated:
        kind_m = label_kind(s.label) if s.label else None
        if kind_m is not None and kind_m[0] in ("weights", "output"):
            claims.append((kind_m[0], s.literals[-1]))
    claims += [(k if k != "weight" else "weights", v) for k, v in sc.prose]
    if not claims:
        return []
    weights = [s for k, v in claims if k == "weights" for s in v]
    outputs = [v for k, v in claims if k == "output"]
    what: list[Message] = []
    if weights:
        shown = tuple(dict.fromkeys(s.written.text for s in weights))
        what.append(say("what-weights", values=Join(shown)))
    for v in outputs:
        what.append(say("what-output", values="[" + ", ".join(texts(v)) + "]"))
    first = min((s for _, v in claims for s in v), key=lambda s: (s.line, s.column))
    msg = say("missing-input", what=Join(tuple(what), say("and")))
    out = [
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
    for k, v in claims:
        gap = normalization_gap([s.written for s in v]) if k == "weights" and len(v) > 1 else None
        if gap is not None:
            total, lo, hi = gap
            msg = say(
                "not-normalized",
                sum=fraction_text(total),
                low=fraction_text(lo),
                high=fraction_text(hi),
            )
            out.append(
                text_finding(
                    "not-normalized",
                    v[0].line,
                    v[0].column,
                    " + ".join(texts(v)),
                    "1",
                    "1",
                    msg,
                    "not-normalized",
                )
            )
    return out
