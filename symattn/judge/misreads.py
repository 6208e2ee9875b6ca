"""Misread inputs: a dot product recomputed with one input misread reproduces the claim.

Scores are dot products of Q and K, outputs of the weights and V, projections of X and W. An
input with a digit dropped or doubled, its sign flipped, two adjacent inputs swapped, or the
entry of the neighbouring row/column used, that reproduces the claim at its written
precision, names the cause of a ``wrong-value`` (``V[b,0] = 30 → 3``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import flint

from symattn.engine import AttentionResult
from symattn.exact import Evaluator, ExactTensor, arb_of
from symattn.judge.formatting import decimal_text, frac_text
from symattn.judge.messages import Cause
from symattn.judge.quantities import Computed, Const, Quantity
from symattn.judge.run import Run
from symattn.judge.slips import Slip
from symattn.numbers import Written
from symattn.numbers.rounding import terminating_decimal

#: misread inputs are searched in dot products of at most this many terms
MAX_TERMS = 64
#: inputs with more decimals than this are not misread digit by digit
MAX_DECIMALS = 39


@dataclass(frozen=True)
class Operand:
    """One vector of a dot product: its entries (None: irrational), labels and neighbours."""

    tensor: ExactTensor
    index: tuple[tuple[int, int], ...]
    entries: tuple[Fraction | None, ...]
    labels: tuple[str, ...]
    #: the entries at the same place one row/column over
    neighbours: tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class Misreading:
    """``side`` with entry ``k`` (and, when swapped, ``k + 1``) misread: the new entries."""

    cause: Cause
    k: int
    entries: tuple[Fraction, ...]


def operand(
    tensor: ExactTensor, name: str, fixed: int, axis: int, label: Callable[[int, int], str]
) -> Operand:
    """Row ``fixed`` (``axis`` 1) or column ``fixed`` (``axis`` 0) of a 2-D tensor."""
    n, m = tensor.shape
    length = m if axis == 1 else n
    other = n if axis == 1 else m
    index = tuple((fixed, k) if axis == 1 else (k, fixed) for k in range(length))
    entries = tuple(tensor.rational(ix) for ix in index)
    neighbours = []
    for k in range(length):
        near = []
        for f in (fixed - 1, fixed + 1):
            if 0 <= f < other:
                q = tensor.rational((f, k) if axis == 1 else (k, f))
                if q is not None:
                    near.append(q)
        neighbours.append(tuple(near))
    labels = tuple(f"{name}[{label(*ix)}]" for ix in index)
    return Operand(tensor, index, entries, labels, tuple(neighbours))


def operands(
    step: str, idx: tuple[int, ...], res: AttentionResult
) -> tuple[Operand, Operand] | None:
    """The two vectors whose dot product is ``step[idx]``, or None for other steps."""
    if len(idx) != 2 or res.weights.ndim != 2:
        return None
    i, j = idx
    ql, kl = res.query_labels, res.key_labels

    def lab(labels: tuple[str, ...] | None) -> Callable[[int, int], str]:
        return lambda r, c: f"{labels[r] if labels is not None and r < len(labels) else r},{c}"

    def plain(r: int, c: int) -> str:
        return f"{r},{c}"

    if step == "scores":
        if res.trace.find("Q") is None:  # the example starts from the scores
            return None
        return (
            operand(res.stage("Q"), "Q", i, 1, lab(ql)),
            operand(res.stage("K"), "K", j, 1, lab(kl)),
        )
    if step == "output":
        return (
            operand(res.weights, "w", i, 1, lab(ql)),
            operand(res.stage("V"), "V", j, 0, lab(kl)),
        )
    x = res.trace.find("X")
    if step in ("Q", "K", "V") and x is not None:
        labels = ql if step == "Q" else kl
        w = res.trace.get(f"W_{step}").value
        return (operand(x.value, "X", i, 1, lab(labels)), operand(w, f"W_{step}", j, 0, plain))
    return None


def digit_misreadings(x: Fraction) -> Iterator[tuple[Cause, Fraction]]:
    """``x`` with one digit dropped or doubled, as written in decimal."""
    exact = terminating_decimal(x)
    exponent = exact.as_tuple().exponent if exact is not None else None
    if exact is None or not isinstance(exponent, int) or -exponent > MAX_DECIMALS:
        return
    text = decimal_text(exact)
    seen: set[Fraction] = {x}
    for p, ch in enumerate(text):
        if not ch.isdigit():
            continue
        misread: tuple[tuple[Cause, str], ...] = (
            ("misread-dropped-digit", text[:p] + text[p + 1 :]),
            ("misread-doubled-digit", text[:p] + ch + text[p:]),
        )
        for cause, t in misread:
            if t.strip("-.") == "":
                continue
            try:
                y = Fraction(t)
            except (ValueError, ZeroDivisionError):
                continue
            if y not in seen:
                seen.add(y)
                yield cause, y


def misreadings(side: Operand) -> Iterator[Misreading]:
    """Every plausible misreading of one entry of ``side`` (or of two adjacent entries)."""
    vec: list[Fraction] = []
    for e in side.entries:
        if e is None:
            return
        vec.append(e)

    def with_(k: int, y: Fraction) -> tuple[Fraction, ...]:
        return (*vec[:k], y, *vec[k + 1 :])

    for k, x in enumerate(vec):
        for cause, y in digit_misreadings(x):
            yield Misreading(cause, k, with_(k, y))
        if x != 0:
            yield Misreading("misread-sign", k, with_(k, -x))
        for y in side.neighbours[k]:
            if y != x:
                yield Misreading("misread-neighbour", k, with_(k, y))
    for k in range(len(vec) - 1):
        if vec[k] != vec[k + 1]:
            yield Misreading("misread-swapped", k, (*vec[:k], vec[k + 1], vec[k], *vec[k + 2 :]))


def dot_quantity(other: Operand, new: tuple[Fraction, ...]) -> Quantity:
    """``other · new`` as a quantity (exact when ``other`` is rational)."""
    rational = [e for e in other.entries if e is not None]
    if len(rational) == len(other.entries):
        return Const(sum((a * b for a, b in zip(rational, new, strict=True)), Fraction(0)))

    def fn() -> flint.arb:
        values = Evaluator(flint.ctx.prec).arb(other.tensor)
        total = flint.arb(0)
        for ix, b in zip(other.index, new, strict=True):
            if b != 0:
                total += values[ix] * arb_of(b)
        return total

    return Computed(fn)


def misread_text(side: Operand, m: Misreading) -> str:
    """``K[马路,1] = 0.225 → 0.25`` (or the two swapped entries)."""
    k, old = m.k, side.entries

    def entry(x: Fraction | None) -> str:
        return "?" if x is None else frac_text(x)

    if m.cause == "misread-swapped":
        return f"{side.labels[k]} = {entry(old[k])}, {side.labels[k + 1]} = {entry(old[k + 1])}"
    return f"{side.labels[k]} = {entry(old[k])} → {frac_text(m.entries[k])}"


def find_misread(
    run: Run, w: Written, step: str, idx: tuple[int, ...], res: AttentionResult
) -> Slip | None:
    """An input misread that reproduces the claim at its written precision, or None."""
    plan = operands(step, idx, res)
    if plan is None:
        return None
    left, right = plan
    if len(left.entries) > MAX_TERMS:
        return None
    for side, other in ((right, left), (left, right)):
        for m in misreadings(side):
            if run.holds(w, dot_quantity(other, m.entries)):
                return Slip(m.cause, misread_text(side, m))
    return None
