"""The trace: an append-only record of every operation attention performed.

Each operation appends one frozen :class:`Step` holding what it computed (a whole
:class:`~symattn.exact.ExactTensor`, never one object per entry), from which earlier steps
(ordered), and the attributes a template needs. Rendering and checking read the trace
only; per-entry detail (the terms of one dot product, one weighted sum) is expanded
lazily by :meth:`Trace.terms`, only for the entries a document asks for.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from symattn.errors import InputError
from symattn.exact import ExactTensor, Surd

#: version of the JSON export (``Trace.to_json``); bump on incompatible change
SCHEMA = "symattn.trace/1"

#: the operations a step may record, with what they mean
OPS: Mapping[str, str] = MappingProxyType(
    {
        "input": "a given array (Q, K, V, X, a weight matrix, a mask)",
        "matmul": "matrix product of its two inputs",
        "transpose": "swap of the last two axes",
        "repeat_kv": "key/value heads repeated for grouped-query attention",
        "split_heads": "last axis split into heads, heads moved before the sequence axis",
        "concat_heads": "heads moved back and concatenated along the last axis",
        "sqrt": "square root of d (the divisor sqrt(d_k))",
        "divide": "first input divided by the second (a scalar)",
        "multiply": "input multiplied by a scalar scale",
        "mask": "mask applied: masked entries become -inf, additive entries are added",
        "exp": "e to the power of each entry (0 where masked)",
        "sum": "sum over the last axis",
        "softmax": "each exp divided by its row's sum; all-masked rows give zeros",
    }
)


@dataclass(frozen=True)
class Step:
    """One operation: ``value = op(*inputs)``."""

    index: int
    op: str
    name: str
    inputs: tuple[int, ...]
    value: Any  # ExactTensor, or a read-only bool array for a boolean mask
    attrs: Mapping[str, Any]

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of the value."""
        return tuple(self.value.shape)


@dataclass(frozen=True)
class Term:
    """One product ``left * right`` inside a sum; ``left_at``/``right_at`` locate the operands."""

    left: Any
    right: Any
    left_at: tuple[int, ...]
    right_at: tuple[int, ...]


class Trace:
    """An append-only sequence of :class:`Step`."""

    def __init__(self) -> None:
        self._steps: list[Step] = []

    def append(
        self, op: str, name: str, inputs: tuple[Step, ...], value: Any, **attrs: Any
    ) -> Step:
        """Record a new step and return it."""
        if op not in OPS:
            raise ValueError(f"unknown trace operation {op!r}")
        step = Step(
            len(self._steps),
            op,
            name,
            tuple(s.index for s in inputs),
            value,
            MappingProxyType(attrs),
        )
        self._steps.append(step)
        return step

    def __len__(self) -> int:
        return len(self._steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(tuple(self._steps))

    def __getitem__(self, index: int) -> Step:
        return self._steps[index]

    @property
    def steps(self) -> tuple[Step, ...]:
        """All steps, in order."""
        return tuple(self._steps)

    def find(self, name: str) -> Step | None:
        """The last step called ``name``, or ``None``."""
        for step in reversed(self._steps):
            if step.name == name:
                return step
        return None

    def get(self, name: str) -> Step:
        """The last step called ``name``; ``KeyError`` when there is none."""
        step = self.find(name)
        if step is None:
            raise KeyError(f"the trace has no step {name!r}")
        return step

    def operands(self, step: Step) -> tuple[Step, ...]:
        """The steps ``step`` was computed from, in order."""
        return tuple(self._steps[i] for i in step.inputs)

    # -- lazy per-entry detail -------------------------------------------------

    def terms(self, step: Step, index: tuple[int, ...]) -> tuple[Term, ...]:
        """The products summed into entry ``index`` of a ``matmul`` step.

        Rational operands come as ``Fraction``; others (weights) as the operand tensor's
        exact entry position only (``left`` is ``None``): a template rounds them itself.
        """
        if step.op != "matmul":
            raise InputError(f"step {step.name!r} is a {step.op}, not a matrix product")
        left, right = (s.value for s in self.operands(step))
        n = left.shape[-1]
        lb = _batch_index(index[:-2], left.shape[:-2])
        rb = _batch_index(index[:-2], right.shape[:-2])
        out = []
        for k in range(n):
            la = lb + (index[-2], k)
            ra = rb + (k, index[-1])
            out.append(Term(_rational_or_none(left, la), _rational_or_none(right, ra), la, ra))
        return tuple(out)

    # -- export ----------------------------------------------------------------

    def to_json(self, *, digits: int = 17, exact_limit: int = 4096) -> dict[str, Any]:
        """A JSON-ready dict (schema :data:`SCHEMA`, documented in ``docs/trace.md``).

        Each step lists ``approx``: entries correctly rounded to ``digits`` significant
        digits (strings); ``exact``: exact entries as strings when the step has at most
        ``exact_limit`` entries.
        """
        return {
            "schema": SCHEMA,
            "steps": [_step_json(s, digits, exact_limit) for s in self._steps],
        }


def _batch_index(batch: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    tail = batch[len(batch) - len(shape) :] if shape else ()
    return tuple(0 if n == 1 else b for b, n in zip(tail, shape, strict=True))


def _rational_or_none(t: Any, at: tuple[int, ...]) -> Fraction | None:
    return t.rational(at) if isinstance(t, ExactTensor) else None


def _jsonable(value: Any) -> Any:
    if isinstance(value, (Fraction, Surd)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


def _nested(a: Any, fmt: Any) -> Any:
    def walk(x: Any) -> Any:
        return [walk(v) for v in x] if isinstance(x, list) else fmt(x)

    return walk(np.asarray(a, dtype=object).tolist())


def _step_json(step: Step, digits: int, exact_limit: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "index": step.index,
        "op": step.op,
        "name": step.name,
        "inputs": list(step.inputs),
        "shape": list(step.shape),
        "attrs": {k: _jsonable(v) for k, v in step.attrs.items()},
    }
    value = step.value
    if not isinstance(value, ExactTensor):
        out["exact"] = _nested(np.asarray(value), lambda b: bool(b))
        return out
    if np.prod(step.shape) <= exact_limit:
        out["exact"] = _nested(value.exact(), str)
    out["approx"] = _nested(value.evalf(digits), str)
    return out
