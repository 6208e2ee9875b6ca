"""The stages of one query row of attention: the one table that names them.

Each stage has the name of its step in the trace (``engine``), the field that holds an
author's claims for it in a spec (``spec``), the slot of the worked row in a document
(``present``), and whether it has one entry per key. ``judge`` and ``read`` walk the same
table, so adding a stage is one row here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class StepName(StrEnum):
    """The trace step a number is about (a StrEnum: its value is the step's name in the trace,
    ``AttentionResult.stage(step)``, and where specs and reports name it)."""

    Q = "Q"  #: the queries (X W_Q)
    K = "K"  #: the keys (X W_K)
    V = "V"  #: the values (X W_V)
    SCORES = "scores"  #: Q K^T
    SCALED = "scaled_scores"  #: the scores scaled (by 1/√d_k)
    EXP = "exp_scores"  #: their exponentials
    SUM = "exp_sums"  #: each row's sum of exponentials
    WEIGHTS = "weights"  #: the softmax of each row
    OUTPUT = "output"  #: the weights times V
    D_K = "d_k"  #: the key width a text states
    SQRT_D_K = "sqrt_d_k"  #: the divisor √d_k a text states


@dataclass(frozen=True)
class Stage:
    """One stage of a query row, as every layer names it."""

    step: StepName  #: the trace step (``AttentionResult.stage(step)``)
    claim: str  #: the spec field under ``[claims.rows.<token>]``
    per_key: bool  #: one entry per key (else: one number, or one per value column)
    slot: str | None  #: the attribute of a worked row in a document (``None``: not a list)
    scaled: bool  #: its value depends on the divisor (judged in the author's frame)


#: the stages of a query row, in computation order
ROW_STAGES: tuple[Stage, ...] = (
    Stage(StepName.SCORES, "scores", True, "dots", False),
    Stage(StepName.SCALED, "scaled", True, "scaling", True),
    Stage(StepName.EXP, "exp", True, "exps", True),
    Stage(StepName.SUM, "sum", False, None, True),
    Stage(StepName.WEIGHTS, "weights", True, "weights", True),
    Stage(StepName.OUTPUT, "output", False, "outputs", True),
)

#: spec claim field -> stage
BY_CLAIM: Mapping[str, Stage] = MappingProxyType({s.claim: s for s in ROW_STAGES})
#: trace step -> stage
BY_STEP: Mapping[str, Stage] = MappingProxyType({s.step: s for s in ROW_STAGES})

#: the per-token projections an author may print (spec field -> trace step)
TOKEN_STAGES: Mapping[str, StepName] = MappingProxyType(
    {"q": StepName.Q, "k": StepName.K, "v": StepName.V}
)
#: the scaling claims (spec field = trace step)
SCALING_STAGES: tuple[StepName, ...] = (StepName.D_K, StepName.SQRT_D_K)
