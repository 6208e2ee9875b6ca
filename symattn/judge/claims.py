"""Where each claim of a spec is: the walk over its claims, in spec order, with positions.

A position is what a report shows (``weights[Thinking,Machines]``): the query token and the
key token (or the output column); the trace step and the tensor index locate the exact value.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from symattn.numbers import Written
from symattn.spec import RowClaims, Spec
from symattn.stages import ROW_STAGES, SCALING_STAGES, TOKEN_STAGES, Stage

#: trace steps whose values depend on the divisor (judged in the author's frame)
FRAME_STEPS = frozenset(
    {*(s.step for s in ROW_STAGES if s.scaled), "head_outputs", "concat", "output"}
)


@dataclass(frozen=True)
class Located:
    """A claim and its place: the trace step and the position shown in reports."""

    step: str
    position: tuple[str, ...]
    claim: Written


@dataclass(frozen=True)
class RowClaim:
    """One claim of a query row: its stage, its column (None for the row's sum) and the claim."""

    stage: Stage
    column: int | None
    claim: Written

    @property
    def field(self) -> str:
        """The spec field (``weights``)."""
        return self.stage.claim

    @property
    def step(self) -> str:
        """The trace step (``weights``)."""
        return self.stage.step

    def index(self, i: int) -> tuple[int, ...]:
        """The entry's index in the stage's tensor, for query row ``i``."""
        return (i,) if self.column is None else (i, self.column)


def row_claims(rc: RowClaims, stages: Iterable[Stage] = ROW_STAGES) -> Iterator[RowClaim]:
    """The claims of one row at ``stages``, in computation order, then column order."""
    for stage in stages:
        val: Written | tuple[Written | None, ...] | None = getattr(rc, stage.claim)
        if isinstance(val, tuple):
            for j, w in enumerate(val):
                if w is not None:
                    yield RowClaim(stage, j, w)
        elif val is not None:
            yield RowClaim(stage, None, val)


def col_label(spec: Spec, fieldname: str, j: int) -> str:
    """The label of column ``j`` of a row field: the key token, or the index for outputs."""
    if fieldname == "output":
        return str(j)
    tokens = spec.tokens
    return tokens[j] if j < len(tokens) else str(j)


def row_position(spec: Spec, row: str, rc: RowClaim) -> tuple[str, ...]:
    """``(row,)`` for the sum, ``(row, column label)`` otherwise."""
    return (row,) if rc.column is None else (row, col_label(spec, rc.field, rc.column))


def row_index(labels: tuple[str, ...] | None, token: str) -> int | None:
    """The index of ``token`` among ``labels`` (None when absent)."""
    if labels is None:
        return None
    try:
        return labels.index(token)
    except ValueError:
        return None


def all_claims(spec: Spec) -> list[Located]:
    """Every claim of ``spec``: the scaling claims, the tokens' projections, the rows."""
    c = spec.claims
    out: list[Located] = []
    step: str
    for step in SCALING_STAGES:
        w: Written | None = getattr(c, step)
        if w is not None:
            out.append(Located(step, (), w))
    for token, tc in c.tokens.items():
        for fieldname, step in TOKEN_STAGES.items():
            for j, x in enumerate(getattr(tc, fieldname) or ()):
                if x is not None:
                    out.append(Located(step, (token, str(j)), x))
    for row, claims in c.rows.items():
        for rc in row_claims(claims):
            out.append(Located(rc.step, row_position(spec, row, rc), rc.claim))
        for j, x in enumerate(claims.concat):
            if x is not None:
                out.append(Located("concat", (row, str(j)), x))
    for h, hc in c.heads.items():
        head = f"h{h + 1}"
        for token, tc in hc.tokens.items():
            for fieldname, step in TOKEN_STAGES.items():
                for j, x in enumerate(getattr(tc, fieldname) or ()):
                    if x is not None:
                        out.append(Located(f"{step}_heads", (head, token, str(j)), x))
        for row, claims in hc.rows.items():
            for rc in row_claims(claims):
                step = "head_outputs" if rc.field == "output" else rc.step
                out.append(Located(step, (head, *row_position(spec, row, rc)), rc.claim))
    return out
