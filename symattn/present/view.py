"""One two-dimensional attention inside a result: the whole of it, a batch item, or a head.

A result's stages may carry leading axes (a batch, heads). A :class:`View` is one
``(queries x keys)`` problem inside it: ``prefix`` indexes the leading axes of the attention
stages (scores, weights, ...), and its inputs are found through the trace (the operands of
the ``scores`` and output steps), so grouped-query attention, broadcast keys and heads need no
special case. Everything a document shows of one attention goes through a view.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import product

import numpy as np

from symattn.engine.result import AttentionResult
from symattn.engine.trace import Step
from symattn.exact import ExactTensor, LinearSurdTensor, SurdTensor

#: a stage of surds ``p + q sqrt(r)`` (scaled and masked scores)
SurdStage = SurdTensor | LinearSurdTensor

#: the steps of a multi-head computation that split the projections into heads
HEAD_STEPS = ("Q_heads", "K_heads", "V_heads")


def surds(t: ExactTensor) -> SurdStage:
    """``t`` as a stage of surds; an error for any other stage."""
    if not isinstance(t, (SurdTensor, LinearSurdTensor)):
        raise TypeError(f"expected a stage of surds, got {type(t).__name__}")
    return t


def _tail_index(prefix: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    """``prefix`` for an array whose leading axes ``shape`` broadcast against it."""
    tail = prefix[len(prefix) - len(shape) :] if shape else ()
    return tuple(0 if n == 1 else i for i, n in zip(tail, shape, strict=True))


@dataclass(frozen=True)
class View:
    """Attention of one batch item or head: ``prefix`` indexes the leading axes."""

    result: AttentionResult
    prefix: tuple[int, ...]
    qlabels: tuple[str, ...]
    klabels: tuple[str, ...]
    tag: str = ""  #: a superscript on every symbol of this view (``^{(2)}`` for head 2)

    def sym(self, base: str, sub: str = "") -> str:
        """A symbol of this view: ``s^{(2)}_{1,3}`` for ``sym("s", "1,3")`` in head 2."""
        return f"{base}{self.tag}_{{{sub}}}" if sub else f"{base}{self.tag}"

    # -- steps -----------------------------------------------------------------

    @cached_property
    def scores_step(self) -> Step | None:
        """``Q K^T`` (or the given scores; ``None`` when the example gives the scaled scores)."""
        return self.result.trace.find("scores")

    @cached_property
    def q_step(self) -> Step | None:
        """The queries (``None`` when the example starts at the scores)."""
        step = self.scores_step
        if step is None or step.op != "matmul":
            return None
        return self.result.trace.operands(step)[0]

    @cached_property
    def k_step(self) -> Step | None:
        """The keys (through the transpose ``K^T``)."""
        step = self.scores_step
        if step is None or step.op != "matmul":
            return None
        kt = self.result.trace.operands(step)[1]
        return self.result.trace.operands(kt)[0]

    @cached_property
    def output_step(self) -> Step:
        """``P V`` of this attention (per head before the concatenation)."""
        found = self.result.trace.find("head_outputs")
        return found if found is not None else self.result.trace.get("output")

    @cached_property
    def v_step(self) -> Step:
        return self.result.trace.operands(self.output_step)[1]

    # -- entries ---------------------------------------------------------------

    def at(self, *idx: int) -> tuple[int, ...]:
        """The index of entry ``idx`` of this view in the attention stages."""
        return self.prefix + idx

    def matrix_of(self, step: Step) -> np.ndarray:
        """The exact 2-D matrix of a rational step, for this view (broadcast axes taken at 0)."""
        value: ExactTensor = step.value
        lead = _tail_index(self.prefix, tuple(value.shape[:-2]))
        rows, cols = value.shape[-2], value.shape[-1]
        out = np.empty((rows, cols), dtype=object)
        for i, j in product(range(rows), range(cols)):
            q = value.rational(lead + (i, j))
            out[i, j] = q if q is not None else Fraction(0)
        return out

    @cached_property
    def Q(self) -> np.ndarray:  # noqa: N802 - the matrix's name
        assert self.q_step is not None
        return self.matrix_of(self.q_step)

    @cached_property
    def K(self) -> np.ndarray:  # noqa: N802
        assert self.k_step is not None
        return self.matrix_of(self.k_step)

    @cached_property
    def V(self) -> np.ndarray:  # noqa: N802
        return self.matrix_of(self.v_step)

    @cached_property
    def scores(self) -> np.ndarray:
        assert self.scores_step is not None
        return self.matrix_of(self.scores_step)

    @property
    def scaled(self) -> SurdStage:
        return surds(self.result.scaled_scores)

    @property
    def masked(self) -> SurdStage:
        return surds(self.result.masked_scores)

    @property
    def has_mask(self) -> bool:
        return self.result.trace.find("masked_scores") is not None

    @property
    def starts_at_scores(self) -> bool:
        return self.q_step is None

    @property
    def starts_scaled(self) -> bool:
        """Whether the example gives the scaled scores themselves."""
        return self.result.trace.get("scaled_scores").op == "input"

    @property
    def shape(self) -> tuple[int, int]:
        """(queries, keys)."""
        return len(self.qlabels), len(self.klabels)

    def active(self, i: int) -> list[int]:
        """The keys query ``i`` sees (not masked), in order."""
        m = self.masked
        return [j for j in range(len(self.klabels)) if not m.masked[self.at(i, j)]]

    def is_masked(self, i: int, j: int) -> bool:
        return bool(self.masked.masked[self.at(i, j)])


def views_of(
    result: AttentionResult, qlabels: tuple[str, ...], klabels: tuple[str, ...]
) -> tuple[View, ...]:
    """Every 2-D attention of ``result``, in order (one when it has no leading axes), each
    with its tag: ``^{(h)}`` for head ``h`` of multi-head attention, ``^{[b]}`` for batch
    item ``b`` (counted from 1)."""
    lead = tuple(result.weights.shape[:-2])
    heads = is_multi_head(result)
    out = []
    for idx in np.ndindex(*lead):
        tag = ""
        batch = idx[:-1] if heads else idx
        if batch:
            tag = "[" + ",".join(str(i + 1) for i in batch) + "]"
        if heads:
            tag = f"{tag}({idx[-1] + 1})"
        out.append(View(result, idx, qlabels, klabels, f"^{{{tag}}}" if tag else ""))
    return tuple(out)


def is_multi_head(result: AttentionResult) -> bool:
    """Whether ``result`` split projections into heads (``multi_head_attention``)."""
    return result.trace.find("head_outputs") is not None
