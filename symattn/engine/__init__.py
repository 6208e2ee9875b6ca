"""The operations of attention, computed exactly and recorded in a trace."""

from symattn.engine.attention import (
    attention_from_scores,
    cross_attention,
    multi_head_attention,
    scaled_dot_product_attention,
    self_attention,
)
from symattn.engine.result import AttentionResult
from symattn.engine.trace import OPS, SCHEMA, Step, Term, Trace

__all__ = [
    "OPS",
    "SCHEMA",
    "AttentionResult",
    "attention_from_scores",
    "cross_attention",
    "Step",
    "Term",
    "Trace",
    "multi_head_attention",
    "scaled_dot_product_attention",
    "self_attention",
]
