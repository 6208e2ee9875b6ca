"""The text of an exact tensor as numpy prints an array: ``SoftmaxTensor([[0.8929582, ...]])``.

``repr(t)`` of any :class:`~symattn.exact.tensor.ExactTensor` goes through
:func:`tensor_repr`: the class, then the entries in nested brackets, comma-separated,
columns aligned, in one number format for the whole array as numpy chooses it (integers,
fixed point with one number of decimals, or scientific notation). Entries are exact when
they are short terminating decimals (``2.5``, ``-3``), ``-inf`` where masked, and otherwise
correctly rounded (decided from certified enclosures, never from floats). Like numpy, an
array with more than :data:`THRESHOLD` entries shows :data:`EDGE` entries at each end of
every axis, ``...`` between.
A repr never raises: anything that goes wrong gives the class and shape alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING, Any

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.exact.ball import Ball
from symattn.numbers.rounding import Rounding, terminating_decimal

if TYPE_CHECKING:
    from symattn.exact.tensor import ExactTensor

__all__ = [
    "DIGITS",
    "EDGE",
    "THRESHOLD",
    "SMALL",
    "decide_entries",
    "formatted_values",
    "tensor_repr",
    "tensor_values",
]

#: significant digits of an entry that is not a short exact decimal (numpy prints 8)
DIGITS = 8
#: past this many entries, only the first and last EDGE of each axis are shown (as numpy)
THRESHOLD = 1000
EDGE = 3
#: an exact decimal with at most this many significant digits is printed exactly
SHORT = 10
#: a tensor with at most this many entries is refined whole; a larger one entry by entry
SMALL = 256


def _positions(n: int, summarise: bool) -> list[int | None]:
    if not summarise or n <= 2 * EDGE:
        return list(range(n))
    return [*range(EDGE), None, *range(n - EDGE, n)]


def _exact_text(q: Fraction) -> str | None:
    d = terminating_decimal(q)
    if d is None:
        return None
    text = format(d, "f")
    return text if len(text.lstrip("-0.").replace(".", "")) <= SHORT else None


def _text(value: Any) -> str:
    if isinstance(value, Decimal):
        if value.is_infinite():
            return "-inf" if value < 0 else "inf"
        return format(value, "f") if -30 < value.adjusted() < 30 else format(value, "E")
    return str(value)


def decide_entries(
    t: ExactTensor,
    indices: list[tuple[int, ...]],
    decide: Callable[[Ball], Any] | Sequence[Callable[[Ball], Any]],
    *,
    neg_inf: Any = None,
    start_bits: int = 64,
    limits: Limits = DEFAULT_LIMITS,
    floats: np.ndarray | None = None,
    rational: Callable[[tuple[int, ...]], Fraction | None] | None = None,
) -> list[Any]:
    """``decide`` (one for all, or one per entry) on an enclosure of each entry at
    ``indices``, cheap for a few entries of a large tensor.

    When most entries are asked for, or the tensor is small, it is refined as a whole
    (:meth:`ExactTensor.certify_entries`). For a few entries of a larger one, each entry's
    first enclosure comes from its exact surd (scaled scores) or from its correctly rounded
    float64 (``floats``, else ``t.to_numpy()``) widened to one ulp on each side (the value
    lies within half an ulp); only entries that this does not decide are refined exactly.
    ``rational`` answers ``t.rational`` faster when the caller knows more (a row of weights).
    """
    deciders = list(decide) if isinstance(decide, Sequence) else [decide] * len(indices)
    size = 1
    for n in t.shape:
        size *= n
    if size <= SMALL or 4 * len(set(indices)) >= size:
        return t.certify_entries(
            indices, deciders, neg_inf=neg_inf, start_bits=start_bits, limits=limits
        )
    results: list[Any] = [None] * len(indices)
    pending: list[int] = []
    surd_of = getattr(t, "surd", None)
    for n, idx in enumerate(indices):
        if t.is_neg_inf(idx):
            results[n] = neg_inf
            continue
        q = (rational or t.rational)(idx)
        if q is not None:
            results[n] = deciders[n](Ball.exact(q))
            continue
        ball = None
        if surd_of is not None:
            value = surd_of(idx)
            if value is not None:
                with flint.ctx.workprec(start_bits + 64):
                    ball = Ball.from_arb(value.arb())
        else:
            if floats is None:
                floats = t.to_numpy(limits=limits)
            f = float(floats[idx])
            if math.isfinite(f):
                ulp = Fraction(math.ulp(f))
                ball = Ball(Fraction(f) - ulp, Fraction(f) + ulp)
        res = deciders[n](ball) if ball is not None else None
        if res is None:
            pending.append(n)
        else:
            results[n] = res
    if pending:
        refined = t.certify_entries(
            [indices[n] for n in pending],
            [deciders[n] for n in pending],
            neg_inf=neg_inf,
            start_bits=start_bits,
            limits=limits,
        )
        for n, res in zip(pending, refined, strict=True):
            results[n] = res
    return results


def tensor_values(t: ExactTensor, indices: list[tuple[int, ...]]) -> dict[tuple[int, ...], str]:
    """The shown text of each entry at ``indices`` (exact or correctly rounded)."""
    out: dict[tuple[int, ...], str] = {}
    rest: list[tuple[int, ...]] = []
    for idx in indices:
        if t.is_neg_inf(idx):
            out[idx] = "-inf"
            continue
        q = t.rational(idx)
        text = _exact_text(q) if q is not None else None
        if text is not None:
            out[idx] = text
        else:
            rest.append(idx)

    def decide(b: Ball) -> Decimal | None:
        if b.lower == b.upper == 0:
            return Decimal(0)
        return b.round_significant(DIGITS, Rounding.HALF_EVEN)

    values = decide_entries(t, rest, decide, neg_inf=Decimal("-Infinity"))
    for idx, v in zip(rest, values, strict=True):
        out[idx] = _text(v)
    return out


#: a fixed-point array shows at most this many decimals (as numpy's ``precision``)
PRECISION = 8


def _mode(values: list[Decimal]) -> str:
    """How numpy would print these finite values: ``int``, ``fixed`` or ``sci``."""
    if all(v == v.to_integral_value() for v in values):
        return "int"
    nonzero = [abs(v) for v in values if v != 0]
    if nonzero:
        big, small = max(nonzero), min(nonzero)
        if big >= Decimal("1e8") or small < Decimal("1e-4") or big / small >= 1000:
            return "sci"
    return "fixed"


def _decimals_of(v: Decimal) -> int:
    exp = v.normalize().as_tuple().exponent
    return max(0, -exp) if isinstance(exp, int) else 0


def _sci(v: Decimal, digits: int) -> str:
    if v == 0:
        return "0." + "0" * digits + "e+00"
    text = format(v, f".{digits}e")
    mantissa, exp = text.split("e")
    return f"{mantissa}e{exp[0]}{exp[1:].rjust(2, '0')}"


def _is_short_exact(t: ExactTensor, idx: tuple[int, ...]) -> bool:
    q = t.rational(idx)
    return q is not None and _exact_text(q) is not None


def formatted_values(t: ExactTensor, indices: list[tuple[int, ...]]) -> dict[tuple[int, ...], str]:
    """The text of each entry at ``indices`` in one format for the whole array, as numpy
    chooses it: integers; fixed point with one number of decimals (at most
    :data:`PRECISION`, each entry correctly rounded to them); or scientific notation when
    the magnitudes are far apart. Entries that are not short exact decimals are rounded to
    :data:`DIGITS` significant digits first (decided from certified enclosures)."""
    shown = tensor_values(t, indices)
    finite = {idx: Decimal(v) for idx, v in shown.items() if v not in ("-inf", "inf")}
    if not finite:
        return shown
    mode = _mode(list(finite.values()))
    out = dict(shown)
    exact = {idx for idx in finite if _is_short_exact(t, idx)}
    if mode == "int":
        out.update({idx: str(int(v)) for idx, v in finite.items()})
    elif mode == "sci":
        digits = max(len(v.normalize().as_tuple().digits) for v in finite.values()) - 1
        if len(exact) < len(finite):
            digits = DIGITS - 1  # a rounded entry has DIGITS significant digits, all shown
        out.update({idx: _sci(v, max(digits, 1)) for idx, v in finite.items()})
    else:
        places = min(PRECISION, max(_decimals_of(v) for v in finite.values()))
        # a rounded entry is rounded again from its enclosure to exactly these decimals
        # (padding it with zeros would claim digits it does not have)
        finer = [idx for idx in finite if idx not in exact]

        def decide(b: Ball) -> Decimal | None:
            return b.round_decimals(places, Rounding.HALF_EVEN)

        for idx, v in zip(finer, decide_entries(t, finer, decide), strict=True):
            finite[idx] = v
        quantum = Decimal(1).scaleb(-places)
        out.update({idx: format(v.quantize(quantum), "f") for idx, v in finite.items()})
    return out


def tensor_repr(t: ExactTensor) -> str:
    """``Name([[0.8929582, 0.1070418]])``, as numpy prints an array (never raises): one
    number format for the whole array (:func:`formatted_values`); ``.exact()`` gives the
    exact entries."""
    name = type(t).__name__
    try:
        return f"{name}({_body(t, len(name) + 1)})"
    except Exception:  # noqa: BLE001 - a repr must never raise; the header alone is a summary
        return f"{name}(shape={tuple(t.shape)})"


def _body(t: ExactTensor, indent: int) -> str:
    shape = tuple(t.shape)
    if not shape:
        return formatted_values(t, [()])[()]
    size = 1
    for n in shape:
        size *= n
    summarise = size > THRESHOLD
    axes = [_positions(n, summarise) for n in shape]
    wanted = [
        tuple(i for i in idx if i is not None)
        for idx in product(*axes)
        if all(i is not None for i in idx)
    ]
    values = formatted_values(t, wanted)
    width = max((len(v) for v in values.values()), default=1)

    def block(prefix: tuple[int, ...], depth: int) -> list[str]:
        if depth == len(shape) - 1:
            items = [
                "..." if j is None else values[prefix + (j,)].rjust(width) for j in axes[depth]
            ]
            return ["[" + ", ".join(items) + "]"]
        out: list[str] = []
        blank = len(shape) - depth - 2
        for k, i in enumerate(axes[depth]):
            if k:
                out[-1] += ","
                out.extend([""] * blank)
            out.extend(["..."] if i is None else block(prefix + (i,), depth + 1))
        lines = ["[" + out[0]] + [(" " + line) if line else "" for line in out[1:]]
        lines[-1] += "]"
        return lines

    lines = block((), 0)
    pad = " " * indent
    return "\n".join([lines[0], *((pad + line) if line else "" for line in lines[1:])])
