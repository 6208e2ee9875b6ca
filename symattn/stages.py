"""The stages of one query row of attention: the one table that names them.

Each stage has the name of its step in the trace (``engine``), the field that holds an
author's claims for it in a spec (``spec``), the slot of the worked row in a document
(``present``), and whether it has one entry per key. ``judge`` and ``read`` walk the same
table, so adding a stage is one row here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Stage:
    """One stage of a query row, as every layer names it."""

    step: str  #: the trace step (``AttentionResult.stage(step)``)
    claim: str  #: the spec field under ``[claims.rows.<token>]``
    per_key: bool  #: one entry per key (else: one number, or one per value column)
    slot: str | None  #: the attribute of a worked row in a document (``None``: not a list)
    scaled: bool  #: its value depends on the divisor (judged in the author's frame)


#: the stages of a query row, in computation order
ROW_STAGES: tuple[Stage, ...] = (
    Stage("scores", "scores", True, "dots", False),
    Stage("scaled_scores", "scaled", True, "scaling", True),
    Stage("exp_scores", "exp", True, "exps", True),
    Stage("exp_sums", "sum", False, None, True),
    Stage("weights", "weights", True, "weights", True),
    Stage("output", "output", False, "outputs", True),
)

#: spec claim field -> stage
BY_CLAIM: Mapping[str, Stage] = MappingProxyType({s.claim: s for s in ROW_STAGES})
#: trace step -> stage
BY_STEP: Mapping[str, Stage] = MappingProxyType({s.step: s for s in ROW_STAGES})

#: the per-token projections an author may print (spec field -> trace step)
TOKEN_STAGES: Mapping[str, str] = MappingProxyType({"q": "Q", "k": "K", "v": "V"})
#: the scaling claims (spec field = trace step)
SCALING_STAGES: tuple[str, ...] = ("d_k", "sqrt_d_k")
