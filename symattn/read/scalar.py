"""Exact real numbers as frozen trees: decided exactly, enclosed in certified balls, or
computed as a double-precision program would.

A :class:`Scalar` implements the ``Quantity`` protocol of :mod:`symattn.judge.verdict`:
``rational()`` is the exact value when it is rational, ``arb(prec)`` a certified ball
otherwise; ``float64()`` replays the author's own floating-point arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import cached_property
from typing import Final, Protocol

import flint

from symattn.exact import arb_of
from symattn.read.messages import not_checked
from symattn.read.tokens import ExprError, ReadLimitError

__all__ = ["E", "Fold", "Op", "Scalar", "lit"]

#: bound on |x| in exp(x): e^1000000 is far beyond any worked example
_MAX_EXP_ARG: Final = 10**6


class Quantity(Protocol):
    """Anything with an exact value (an entry of an exact tensor)."""

    def rational(self) -> Fraction | None: ...

    def arb(self, prec: int) -> flint.arb: ...


class Op(Enum):
    """What a node of a :class:`Scalar` is."""

    LIT = "lit"  # an exact rational (``value``)
    E = "e"  # the constant e
    NEG = "neg"
    SUM = "sum"
    PROD = "prod"
    POW = "pow"
    EXP = "exp"
    SQRT = "sqrt"
    LN = "ln"  # the natural logarithm
    EXT = "ext"  # a quantity computed elsewhere (``ext``)


class Fold(Enum):
    """How an item of a ``PROD`` enters the product."""

    MUL = "*"
    DIV = "/"


@dataclass(frozen=True)
class Scalar:
    """An exact real number as a tree of :class:`Op` nodes.

    ``SUM`` and ``PROD`` are n-ary and fold left to right (each ``PROD`` item carries its
    :class:`Fold`), as a person (or a double-precision program) computes them.
    """

    op: Op
    args: tuple[Scalar, ...] = ()
    value: Fraction | None = None
    ops: tuple[Fold, ...] = ()
    max_bits: int = field(default=20_000, compare=False)
    #: for ``op == "ext"``: a quantity computed elsewhere (an entry of the problem behind
    #: the text), with ``rational()`` and ``arb(prec)``
    ext: Quantity | None = field(default=None, compare=False)

    # -- exact
    @cached_property
    def _rational(self) -> Fraction | None:
        return _RATIONAL[self.op](self)

    def rational(self) -> Fraction | None:
        """The exact value when it is rational (decided exactly), else None."""
        return self._rational

    def arb(self, prec: int) -> flint.arb:
        """A certified ball containing the value, computed at ``prec`` bits."""
        with flint.ctx.workprec(prec):
            return self._arb()

    def _arb(self) -> flint.arb:
        r = self.rational()
        if r is not None:
            return arb_of(r)
        return _ARB[self.op](self)

    def float64(self) -> float | None:
        """The value as a double-precision program computes it (None on overflow or error)."""
        try:
            return _FLOAT[self.op](self)
        except (OverflowError, ZeroDivisionError, ValueError):
            return None

    def with_e(self, approx: Scalar) -> Scalar:
        """The same tree with the constant e replaced by ``approx`` (e.g. 2.718)."""
        if self.op is Op.E:
            return approx
        if not self.args:
            return self
        return Scalar(
            self.op, tuple(a.with_e(approx) for a in self.args), self.value, self.ops, self.max_bits
        )

    @cached_property
    def uses_e(self) -> bool:
        """Whether the constant e occurs in the tree."""
        return self.op is Op.E or any(a.uses_e for a in self.args)


def lit(value: Fraction | int, max_bits: int = 20_000) -> Scalar:
    """A literal exact number."""
    return Scalar(Op.LIT, value=Fraction(value), max_bits=max_bits)


E: Final = Scalar(Op.E)


# --------------------------------------------------------------------------- exact values


def _frac_bits(x: Fraction) -> int:
    return x.numerator.bit_length() + x.denominator.bit_length()


def _check_bits(x: Fraction, s: Scalar) -> Fraction:
    if _frac_bits(x) > s.max_bits:
        raise ReadLimitError(not_checked("bits-exceeded", bits=s.max_bits))
    return x


def _rationals(s: Scalar) -> list[Fraction] | None:
    """The exact values of the arguments, or None when one is irrational."""
    vals = [a.rational() for a in s.args]
    return None if any(v is None for v in vals) else [v for v in vals if v is not None]


def _r_sum(s: Scalar) -> Fraction | None:
    vals = _rationals(s)
    return None if vals is None else _check_bits(sum(vals, Fraction(0)), s)


def _r_prod(s: Scalar) -> Fraction | None:
    vals = [a.rational() for a in s.args]
    for v, op in zip(vals, s.ops, strict=True):
        if op is Fold.DIV and v == 0:
            raise ExprError(not_checked("division-by-zero"))
    known = _rationals(s)
    if known is None:
        if any(v == 0 for v, op in zip(vals, s.ops, strict=True) if op is Fold.MUL):
            # 0 times anything finite is 0; the other factors are finite by construction
            return Fraction(0)
        return None
    acc = Fraction(1)
    for v, op in zip(known, s.ops, strict=True):
        acc = acc * v if op is Fold.MUL else acc / v
        _check_bits(acc, s)
    return acc


def _integer_root(x: Fraction, n: int) -> Fraction | None:
    """The exact n-th root of ``x >= 0`` when rational."""

    def iroot(a: int) -> int | None:
        if a.bit_length() >= 1000:
            return None
        approx: float = a ** (1.0 / n)
        r = round(approx)
        for c in (r - 1, r, r + 1):
            if c >= 0 and c**n == a:
                return c
        return None

    p, q = iroot(x.numerator), iroot(x.denominator)
    return Fraction(p, q) if p is not None and q is not None else None


def _r_pow(s: Scalar) -> Fraction | None:
    base, exponent = s.args
    if base.op is Op.E:
        return _r_exp(Scalar(Op.EXP, (exponent,), max_bits=s.max_bits))
    b, x = base.rational(), exponent.rational()
    if b is None or x is None:
        return None
    if b == 0 and x <= 0:
        raise ExprError(not_checked("zero-power"))
    if x.denominator == 1:
        n = x.numerator
        if abs(n) * max(1, _frac_bits(b)) > s.max_bits:
            raise ReadLimitError(not_checked("power-too-large", power=n))
        return b**n
    if b < 0:
        raise ExprError(not_checked("negative-fractional-power"))
    if x.denominator > 64 or abs(x.numerator) * _frac_bits(b) > s.max_bits:
        return None
    root = _integer_root(b, x.denominator)
    return None if root is None else root**x.numerator


def _r_exp(s: Scalar) -> Fraction | None:
    x = s.args[0].rational()
    if x is not None:
        return Fraction(1) if x == 0 else None  # Lindemann: e^x is irrational for rational x != 0
    form = _log_form(s.args[0])
    if form is None:
        return None
    logs, constant = form
    if constant != 0:
        return None  # e^(c + ...) with rational c != 0 and rational powers: irrational
    acc = Fraction(1)
    for base, power in logs.items():
        raised = _r_pow(Scalar(Op.POW, (lit(base), lit(power)), max_bits=s.max_bits))
        if raised is None:
            return None  # e^{ln 2 / 2} = sqrt(2): no rational value
        acc = _check_bits(acc * raised, s)
    return acc


#: how many logarithms one exponent may hold for :func:`_log_form` (bounded work)
_MAX_LOGS: Final = 8


def _log_form(s: Scalar) -> tuple[dict[Fraction, Fraction], Fraction] | None:
    """``s`` as ``c + Σ a_i ln(b_i)`` with rational ``c``, ``a_i`` and rational ``b_i > 0``
    (``2 ln 2 - ln 3``), or None when it is not of that form (then e^s is decided as
    irrational or by its ball only)."""
    r = s.rational()
    if r is not None:
        return {}, r
    if s.op is Op.LN:
        x = s.args[0].rational()
        return ({x: Fraction(1)}, Fraction(0)) if x is not None and x > 0 else None
    if s.op is Op.NEG:
        inner = _log_form(s.args[0])
        return None if inner is None else _scaled(inner, Fraction(-1))
    if s.op is Op.SUM:
        logs: dict[Fraction, Fraction] = {}
        constant = Fraction(0)
        for a in s.args:
            part = _log_form(a)
            if part is None:
                return None
            constant += part[1]
            for base, power in part[0].items():
                logs[base] = logs.get(base, Fraction(0)) + power
            if len(logs) > _MAX_LOGS:
                return None
        return {b: p for b, p in logs.items() if p != 0}, constant
    if s.op is Op.PROD:
        # one factor with logarithms, the others rational (and only divided by if rational)
        factor, form = Fraction(1), None
        for a, op in zip(s.args, s.ops, strict=True):
            v = a.rational()
            if v is not None:
                if op is Fold.DIV and v == 0:
                    return None
                factor = factor * v if op is Fold.MUL else factor / v
                continue
            if form is not None or op is Fold.DIV:
                return None
            form = _log_form(a)
            if form is None:
                return None
        return None if form is None else _scaled(form, factor)
    return None


def _scaled(
    form: tuple[dict[Fraction, Fraction], Fraction], k: Fraction
) -> tuple[dict[Fraction, Fraction], Fraction]:
    logs, constant = form
    return {b: p * k for b, p in logs.items() if p * k != 0}, constant * k


def _r_ln(s: Scalar) -> Fraction | None:
    arg = s.args[0]
    x = arg.rational()
    if x is not None:
        if x <= 0:
            raise ExprError(not_checked("log-not-positive"))
        return Fraction(0) if x == 1 else None  # Lindemann: ln x is irrational for x != 1
    if arg.op is Op.E:
        return Fraction(1)
    if arg.op is Op.EXP or (arg.op is Op.POW and arg.args[0].op is Op.E):
        return arg.args[-1].rational()  # ln(e^r) = r
    return None


def _r_sqrt(s: Scalar) -> Fraction | None:
    x = s.args[0].rational()
    if x is None:
        return None
    if x < 0:
        raise ExprError(not_checked("sqrt-negative"))
    p, q = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return Fraction(p, q) if p * p == x.numerator and q * q == x.denominator else None


def _r_neg(s: Scalar) -> Fraction | None:
    x = s.args[0].rational()
    return None if x is None else -x


def _r_ext(s: Scalar) -> Fraction | None:
    return s.ext.rational() if s.ext is not None else None


_RATIONAL: Final[Mapping[Op, Callable[[Scalar], Fraction | None]]] = {
    Op.EXT: _r_ext,
    Op.LIT: lambda s: s.value,
    Op.E: lambda s: None,
    Op.NEG: _r_neg,
    Op.SUM: _r_sum,
    Op.PROD: _r_prod,
    Op.POW: _r_pow,
    Op.EXP: _r_exp,
    Op.SQRT: _r_sqrt,
    Op.LN: _r_ln,
}


# --------------------------------------------------------------------------- certified balls


def _a_prod(s: Scalar) -> flint.arb:
    acc = flint.arb(1)
    for a, op in zip(s.args, s.ops, strict=True):
        v = a._arb()
        acc = acc * v if op is Fold.MUL else acc / v
    return acc


def _a_exp_of(x: flint.arb) -> flint.arb:
    if not x.is_finite() or abs(x.mid()) > _MAX_EXP_ARG:
        raise ReadLimitError(not_checked("exp-too-large", bound=_MAX_EXP_ARG))
    return x.exp()


def _a_pow(s: Scalar) -> flint.arb:
    base, exponent = s.args
    x = exponent._arb()
    if base.op is Op.E:
        return _a_exp_of(x)
    r = exponent.rational()
    if r is not None and r.denominator == 1 and abs(r.numerator) <= s.max_bits:
        return base._arb() ** r.numerator
    b = base._arb()
    if not b > 0:
        raise ExprError(not_checked("fractional-power-unclear"))
    return _a_exp_of(b.log() * x)


def _a_sqrt(s: Scalar) -> flint.arb:
    x = s.args[0]._arb()
    if x < 0:
        raise ExprError(not_checked("sqrt-negative"))
    return x.sqrt()


def _a_ln(s: Scalar) -> flint.arb:
    x = s.args[0]._arb()
    if not x > 0:
        raise ExprError(not_checked("log-unclear"))
    return x.log()


def _a_sum(s: Scalar) -> flint.arb:
    acc = flint.arb(0)
    for a in s.args:
        acc += a._arb()
    return acc


def _a_ext(s: Scalar) -> flint.arb:
    if s.ext is None:
        raise ExprError(not_checked("outside-quantity"))
    ball: flint.arb = s.ext.arb(flint.ctx.prec)
    return ball


_ARB: Final[Mapping[Op, Callable[[Scalar], flint.arb]]] = {
    Op.EXT: _a_ext,
    Op.E: lambda s: flint.arb.const_e(),
    Op.NEG: lambda s: -s.args[0]._arb(),
    Op.SUM: _a_sum,
    Op.PROD: _a_prod,
    Op.POW: _a_pow,
    Op.EXP: lambda s: _a_exp_of(s.args[0]._arb()),
    Op.SQRT: _a_sqrt,
    Op.LN: _a_ln,
}


# --------------------------------------------------------------------------- double precision


def _need(x: float | None) -> float:
    if x is None:
        raise ValueError("no float value")
    return x


def _f_lit(s: Scalar) -> float:
    if s.value is None:
        raise ValueError("a literal without a value")
    return float(s.value)


def _f_prod(s: Scalar) -> float:
    acc = 1.0
    first = True
    for a, op in zip(s.args, s.ops, strict=True):
        v = _need(a.float64())
        if first and op is Fold.MUL:
            acc, first = v, False
            continue
        first = False
        acc = acc * v if op is Fold.MUL else acc / v
    return acc


def _f_sum(s: Scalar) -> float:
    vals = [_need(a.float64()) for a in s.args]
    acc = vals[0]
    for v in vals[1:]:
        acc += v
    return acc


def _f_pow(s: Scalar) -> float:
    base, exponent = s.args
    x = _need(exponent.float64())
    if abs(x) > _MAX_EXP_ARG:
        raise OverflowError
    if base.op is Op.E:
        return math.exp(x)
    b = _need(base.float64())
    result: float | complex = b**x
    if isinstance(result, complex):
        raise ValueError("complex")
    return float(result)


def _f_exp(s: Scalar) -> float:
    x = _need(s.args[0].float64())
    if abs(x) > _MAX_EXP_ARG:
        raise ValueError("no float value")
    return math.exp(x)


def _f_ext(s: Scalar) -> float:
    r = s.rational()
    if r is not None:
        return float(r)
    ball = s.arb(64)
    return float(ball.mid())


_FLOAT: Final[Mapping[Op, Callable[[Scalar], float]]] = {
    Op.EXT: _f_ext,
    Op.LIT: _f_lit,
    Op.E: lambda s: math.e,
    Op.NEG: lambda s: -_need(s.args[0].float64()),
    Op.SUM: _f_sum,
    Op.PROD: _f_prod,
    Op.POW: _f_pow,
    Op.EXP: _f_exp,
    Op.SQRT: lambda s: math.sqrt(_need(s.args[0].float64())),
    Op.LN: lambda s: math.log(_need(s.args[0].float64())),
}
