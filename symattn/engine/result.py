"""The result of an attention computation: its trace, and each stage by name."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.engine.trace import Step, Trace
from symattn.exact import BallArray, ExactTensor, RoundedArray, Surd


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@dataclass(frozen=True, repr=False)
class AttentionResult:
    """Every stage of one attention computation, exactly.

    Stages are :class:`~symattn.exact.ExactTensor`: ``exact()`` for exact values,
    ``enclose(digits)`` for certified balls (a :class:`~symattn.exact.BallArray`),
    ``evalf(digits)`` for correctly rounded decimals (a :class:`~symattn.exact.RoundedArray`),
    ``to_numpy()`` for correctly rounded float64.
    """

    trace: Trace
    query_labels: tuple[str, ...] | None = None
    key_labels: tuple[str, ...] | None = None

    def describe(self) -> str:
        """One line, as a person writes it: ``AttentionResult: 1 query \u00d7 2 keys`` (then
        ``, 2 heads`` or ``, batch of 3``); never raises."""
        try:
            shape = list(self.weights.shape)
            words = [_count(shape[-2], "query", "queries"), _count(shape[-1], "key", "keys")]
            lead = shape[:-2]
            extra = []
            if lead and self.trace.find("head_outputs") is not None:
                extra.append(_count(lead.pop(), "head", "heads"))
            if lead:
                extra.append("batch of " + " \u00d7 ".join(str(n) for n in lead))
            return "AttentionResult: " + " \u00d7 ".join(words) + "".join(", " + e for e in extra)
        except Exception:  # noqa: BLE001 - a repr must never raise
            return "AttentionResult"

    def __repr__(self) -> str:
        """The shape, then the weights and the output as numpy prints arrays (values decided
        from certified bounds; see :mod:`symattn.exact.display`), then how floats were read."""
        head = self.describe()
        try:
            lines = [head]
            for name, t in (("weights", self.weights), ("output", self.output)):
                body = repr(t).splitlines()
                lines.append(f"{name} = {body[0]}")
                lines.extend(" " * (len(name) + 3) + line if line else "" for line in body[1:])
            lines.append(self.describe_inputs())
            return "\n".join(lines)
        except Exception:  # noqa: BLE001 - a repr must never raise
            return head

    @property
    def float_readings(self) -> dict[str, str]:
        """How each input's floats were read: ``"binary"`` (their exact values) or
        ``"shortest"`` (their shortest repr), by input name."""
        return {s.name: s.attrs["floats"] for s in self.trace if "floats" in s.attrs}

    def describe_inputs(self) -> str:
        """One line: which inputs were read as binary floats, which by shortest repr (or
        that none held a float: integers, fractions and decimal strings are exact as given)."""
        by: dict[str, list[str]] = {"binary": [], "shortest": []}
        for name, reading in self.float_readings.items():
            by[reading].append(name)
        parts = [
            f"{', '.join(names)} {how}"
            for names, how in (
                (by["binary"], "as exact binary floats"),
                (by["shortest"], "by shortest repr"),
            )
            if names
        ]
        return "inputs read: " + ("; ".join(parts) or "exact (no floats given)")

    def stage(self, name: str) -> ExactTensor:
        """The value of the last step called ``name`` (``"scores"``, ``"weights"``, ...)."""
        value = self.trace.get(name).value
        if not isinstance(value, ExactTensor):
            raise KeyError(f"the step {name!r} holds a boolean mask, not an exact tensor")
        return value

    def _step(self, name: str) -> Step:
        return self.trace.get(name)

    @property
    def query(self) -> ExactTensor:
        """Q (given, or projected from X)."""
        return self.stage("Q")

    @property
    def key(self) -> ExactTensor:
        """K."""
        return self.stage("K")

    @property
    def value(self) -> ExactTensor:
        """V."""
        return self.stage("V")

    @property
    def scores(self) -> ExactTensor:
        """``Q K^T``: rational."""
        return self.stage("scores")

    @property
    def scaled_scores(self) -> ExactTensor:
        """Scores times the scale: exact algebraic numbers, e.g. ``5*sqrt(2)/2``."""
        return self.stage("scaled_scores")

    @property
    def masked_scores(self) -> ExactTensor:
        """Scaled scores after the mask (the scaled scores when there is none)."""
        step = self.trace.find("masked_scores")
        return step.value if step is not None else self.scaled_scores

    @property
    def exp_scores(self) -> ExactTensor:
        """``e`` to the power of each (masked) scaled score."""
        return self.stage("exp_scores")

    @property
    def exp_sums(self) -> ExactTensor:
        """Each row's sum of ``exp_scores``: the softmax denominator."""
        return self.stage("exp_sums")

    @property
    def weights(self) -> ExactTensor:
        """Attention weights; each unmasked row sums to exactly 1."""
        return self.stage("weights")

    @property
    def output(self) -> ExactTensor:
        """The attention output."""
        return self.stage("output")

    @property
    def d_k(self) -> Fraction | None:
        """The ``d`` of the divisor ``sqrt(d)`` used (``None`` for a non-positive scale)."""
        step = self.trace.find("sqrt_d_k")
        return step.attrs["d_k"] if step is not None else None

    @property
    def start(self) -> str:
        """Where the computation starts: ``"x"`` (embeddings and projection matrices),
        ``"qkv"`` (Q, K, V given), ``"scores"`` or ``"scaled"`` (a given score matrix)."""
        inputs = {s.name for s in self.trace if s.op == "input"}
        for name, start in (("X", "x"), ("Q", "qkv"), ("scores", "scores")):
            if name in inputs:
                return start
        return "scaled"

    @property
    def key_width(self) -> int:
        """The width ``E`` of the keys (``d_k`` as the data says it)."""
        return self._step("K^T").shape[-2]

    @property
    def scale(self) -> Surd:
        """The exact factor the scores were multiplied by."""
        step = self.trace.find("sqrt_d_k")
        if step is None:
            scale = self._step("scaled_scores").attrs["scale"]
            assert isinstance(scale, Surd)  # the engine records the Surd it multiplied by
            return scale
        root = step.value.surd(())
        assert isinstance(root, Surd)
        # 1/(p) or 1/(q sqrt r) = sqrt(r)/(q r)
        if root.q == 0:
            return Surd(1 / root.p)
        return Surd(Fraction(0), 1 / (root.q * root.r), root.r)

    @property
    def fully_masked_rows(self) -> tuple[tuple[int, ...], ...]:
        """Rows (index without the key axis) whose keys were all masked: their weights are 0."""
        rows: tuple[tuple[int, ...], ...] = self._step("weights").attrs["fully_masked_rows"]
        return rows

    # conveniences on the output (``method``: "auto", "fast" or "exact", see ExactTensor.certify)
    def enclose(
        self, digits: int = 30, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto"
    ) -> BallArray:
        """Certified balls around the output, narrower than ``10**-digits``."""
        return self.output.enclose(digits, limits=limits, method=method)

    def evalf(
        self, digits: int = 15, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto"
    ) -> RoundedArray:
        """The output correctly rounded to ``digits`` significant digits."""
        return self.output.evalf(digits, limits=limits, method=method)

    def to_numpy(self, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto") -> np.ndarray:
        """The output correctly rounded to float64."""
        return self.output.to_numpy(limits=limits, method=method)

    def to_json(self, **kw: Any) -> dict[str, Any]:
        """The trace as JSON (see :meth:`Trace.to_json`), with the labels."""
        data = self.trace.to_json(**kw)
        data["query_labels"] = list(self.query_labels) if self.query_labels else None
        data["key_labels"] = list(self.key_labels) if self.key_labels else None
        return data
