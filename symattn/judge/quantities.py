"""Exact values to judge claims against, and certified decisions on their enclosures.

A :class:`Quantity` is anything with an exact value: ``rational()`` gives it when it is
rational (else ``None``), ``arb(prec)`` a ``flint.arb`` ball containing it, computed at
``prec`` bits. :func:`certify_value` refines the ball until a decision is certain.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Protocol, TypeVar, runtime_checkable

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.exact import Ball, Evaluator, ExactTensor, Surd, arb_of
from symattn.judge.formatting import decimal_text

T = TypeVar("T")


@runtime_checkable
class Quantity(Protocol):
    """Anything with an exact value."""

    def rational(self) -> Fraction | None:
        """The exact value when it is rational, else ``None``."""

    def arb(self, prec: int) -> flint.arb:
        """A ball containing the value, computed at working precision ``prec`` bits."""


@dataclass(frozen=True)
class TensorEntry:
    """One entry of an :class:`ExactTensor` as a :class:`Quantity`."""

    tensor: ExactTensor
    index: tuple[int, ...]

    def rational(self) -> Fraction | None:
        """The entry's rational value, if any."""
        return self.tensor.rational(self.index)

    def arb(self, prec: int) -> flint.arb:
        """A ball around the entry at ``prec`` bits (the tensor's balls at ``prec`` are kept
        while the tensor lives: judging every claim of a row evaluates the row once)."""
        done = _balls_of(self.tensor)
        balls = done.get(prec)
        if balls is None:
            balls = done[prec] = Evaluator(prec).arb(self.tensor)
        ball: flint.arb = balls[self.index]
        return ball


#: the balls of a tensor (by identity) at each precision asked for, while the tensor lives
_BALLS: dict[int, tuple[weakref.ref[ExactTensor], dict[int, np.ndarray]]] = {}


def _balls_of(tensor: ExactTensor) -> dict[int, np.ndarray]:
    """The cache of ``tensor``'s balls, dropped when the tensor is."""
    key = id(tensor)
    entry = _BALLS.get(key)
    if entry is not None and entry[0]() is tensor:
        return entry[1]
    done: dict[int, np.ndarray] = {}
    _BALLS[key] = (weakref.ref(tensor, lambda _: _BALLS.pop(key, None)), done)
    return done


@dataclass(frozen=True)
class Const:
    """A rational number as a :class:`Quantity`."""

    value: Fraction

    def rational(self) -> Fraction:
        """The value itself."""
        return self.value

    def arb(self, prec: int) -> flint.arb:
        """The exact ball (zero radius when dyadic)."""
        with flint.ctx.workprec(prec):
            return arb_of(self.value)


@dataclass(frozen=True)
class Computed:
    """A :class:`Quantity` given by a ball-valued function of the precision.

    ``fn(prec)`` is called inside ``flint.ctx.workprec(prec)``; ``exact`` is the value when
    it is known to be rational.
    """

    fn: Callable[[], flint.arb] = field(compare=False)
    exact: Fraction | None = None

    def rational(self) -> Fraction | None:
        """The known rational value, if any."""
        return self.exact

    def arb(self, prec: int) -> flint.arb:
        """``fn()`` at ``prec`` bits."""
        with flint.ctx.workprec(prec):
            return self.fn()


@dataclass(frozen=True)
class SurdQuantity:
    """A :class:`Surd` (``p + q√r``) as a :class:`Quantity`."""

    surd: Surd

    def rational(self) -> Fraction | None:
        """``p`` when the surd is rational."""
        return self.surd.p if self.surd.is_rational else None

    def arb(self, prec: int) -> flint.arb:
        """A ball around the surd at ``prec`` bits."""
        with flint.ctx.workprec(prec):
            return self.surd.arb()


def certify_value(
    value: Quantity,
    decide: Callable[[Ball], T | None],
    *,
    start_bits: int,
    limits: Limits = DEFAULT_LIMITS,
) -> T | None:
    """``decide`` on enclosures of ``value``, refined until it decides; None at the ceiling."""
    q = value.rational()
    if q is not None:
        return decide(Ball.exact(q))
    prec = max(start_bits, 16)
    while True:
        x = value.arb(prec)
        if x.is_finite():
            res = decide(Ball.from_arb(x))
            if res is not None:
                return res
        if prec >= limits.max_precision_bits:
            return None
        prec = min(2 * prec, limits.max_precision_bits)


def certified_decimals(value: Quantity, decimals: int, limits: Limits = DEFAULT_LIMITS) -> str:
    """``value`` correctly rounded (half-even) to ``decimals`` places; ``"?"`` at the ceiling."""

    def decide(b: Ball) -> Decimal | None:
        return b.round_decimals(decimals)

    got = certify_value(value, decide, start_bits=64, limits=limits)
    return decimal_text(got) if got is not None else "?"
