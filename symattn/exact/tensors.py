"""Exact values of attention's stages, and certified numbers drawn from them.

Scores are rational; scaled scores live in Q(sqrt(r)) (:class:`Surd`); weights and
outputs are built from ``exp`` of those. Each stage is an :class:`ExactTensor`: a lazy,
read-only array that can give

* ``exact()``: the exact entries (``Fraction`` where rational, sympy expressions otherwise),
* ``enclose(digits)``: certified intervals (:class:`Ball`) narrower than ``10**-digits``,
* ``evalf(digits)``: correctly rounded decimals (``Decimal``),
* ``to_numpy()``: correctly rounded float64.

Certified numbers come from Arb ball arithmetic (python-flint), refined until they decide;
floats are never the source of truth. Where a value is rational (a weight of a row whose
active scores are all equal, an output whose value groups average alike), it is known
exactly: by the Lindemann-Weierstrass theorem ``exp`` of distinct algebraic numbers are
linearly independent over the algebraic numbers, so these are the only rational cases, and
ties at a rounding boundary are decided exactly instead of refined forever.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import flint
import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError, PrecisionError
from symattn.numbers.rounding import Rounding, decimal_exponent, round_decimals, round_significant

if TYPE_CHECKING:
    import sympy

T = TypeVar("T")

_MAX_RADICAND = 10**15


# --------------------------------------------------------------------------- scalars


def _squarefree_split(n: int) -> tuple[int, int]:
    """``(m, r)`` with ``n == m*m*r`` and ``r`` squarefree."""
    if n > _MAX_RADICAND:
        raise LimitError(
            f"cannot take the exact square root of {n}: radicands above {_MAX_RADICAND} are not supported"
        )
    m, r, p = 1, 1, 2
    while p * p * p <= n:
        while n % (p * p) == 0:
            n //= p * p
            m *= p
        if n % p == 0:
            n //= p
            r *= p
        p += 1 if p == 2 else 2
    s = math.isqrt(n)
    if s * s == n:
        m *= s
    else:
        r *= n
    return m, r


@dataclass(frozen=True)
class Surd:
    """The exact number ``p + q*sqrt(r)``: ``p, q`` rational, ``r >= 1`` squarefree."""

    p: Fraction
    q: Fraction = Fraction(0)
    r: int = 1

    def __post_init__(self) -> None:
        if self.r == 1 and self.q != 0:
            object.__setattr__(self, "p", self.p + self.q)
            object.__setattr__(self, "q", Fraction(0))

    @property
    def is_rational(self) -> bool:
        """Whether the value is rational."""
        return self.q == 0

    def __mul__(self, other: Fraction | int) -> Surd:
        f = Fraction(other)
        return Surd(self.p * f, self.q * f, self.r)

    __rmul__ = __mul__

    def __add__(self, other: Fraction | int) -> Surd:
        return Surd(self.p + Fraction(other), self.q, self.r)

    def sympy(self) -> sympy.Expr:
        """The value as a sympy expression, e.g. ``5*sqrt(2)/4``."""
        import sympy  # lazy: importing symattn does not load sympy

        return sympy.Rational(self.p.numerator, self.p.denominator) + sympy.Rational(
            self.q.numerator, self.q.denominator
        ) * sympy.sqrt(self.r)

    def arb(self) -> flint.arb:
        """A ball around the value at the current Arb working precision."""
        x = arb_of(self.p)
        if self.q:
            x += arb_of(self.q) * flint.arb(self.r).sqrt()
        return x

    def __str__(self) -> str:
        return str(self.sympy())


def sqrt_surd(n: int | Fraction) -> Surd:
    """``sqrt(n)`` exactly, for a positive rational ``n``."""
    f = Fraction(n)
    if f <= 0:
        raise InputError(f"cannot take the square root of {f}: it must be positive")
    a, b = f.numerator, f.denominator  # sqrt(a/b) = sqrt(a*b)/b
    m, r = _squarefree_split(a * b)
    return Surd(Fraction(0), Fraction(m, b), r)


def inv_sqrt(n: int | Fraction) -> Surd:
    """``1/sqrt(n)`` exactly, for a positive rational ``n`` (the default attention scale)."""
    f = Fraction(n)
    if f <= 0:
        raise InputError(f"cannot take 1/sqrt({f}): it must be positive")
    return sqrt_surd(1 / f)


#: values whose binary exponent lies beyond this are not written out as exact fractions: a
#: ``Ball`` bound there raises LimitError (``to_numpy`` and ``round`` decide them without it)
EXPONENT_RANGE_BITS = 1 << 18


def arb_to_fraction(x: flint.arb) -> Fraction:
    """The exact value of an exact (zero-radius) Arb number."""
    man, exp = x.man_exp()
    m, e = int(man), int(exp)
    return Fraction(m * 2**e) if e >= 0 else Fraction(m, 2**-e)


@dataclass(frozen=True, repr=False, eq=False, init=False)
class Ball:
    """A certified enclosure: the exact value lies in ``[lower, upper]``.

    Like a number with an uncertainty, value and error stay apart (``mid``, ``radius``);
    it refuses silent conversion to ``float``, which would drop the guarantee. A ball from
    Arb keeps its exact dyadic centre and radius as integers and builds the ``Fraction``
    bounds only when they are first read (read-only all the same).
    """

    _dyadic: tuple[int, int, int] | None  # (m, r, e): [(m - r) 2**e, (m + r) 2**e]

    def __init__(self, lower: Fraction, upper: Fraction) -> None:
        object.__setattr__(self, "_dyadic", None)
        self.__dict__["lower"] = lower
        self.__dict__["upper"] = upper

    @classmethod
    def exact(cls, value: Fraction) -> Ball:
        """The zero-width ball around a known value."""
        return cls(value, value)

    @classmethod
    def from_arb(cls, x: flint.arb) -> Ball:
        """The ball an Arb number stands for (bounds built lazily)."""
        if not x.is_finite():
            raise PrecisionError(f"enclosure {x} is not finite")
        mm, me = x.mid().man_exp()
        rm, re = x.rad().man_exp()
        m1, e1, m2, e2 = int(mm), int(me), int(rm), int(re)
        e = min(e1, e2)  # mid and radius are exact dyadics: over one power of two
        ball = object.__new__(cls)
        object.__setattr__(ball, "_dyadic", (m1 << (e1 - e), m2 << (e2 - e), e))
        return ball

    @staticmethod
    def _dyadic_value(m: int, e: int) -> Fraction:
        if m and not -EXPONENT_RANGE_BITS <= m.bit_length() + e <= EXPONENT_RANGE_BITS:
            raise LimitError(
                f"a value of about 2^{m.bit_length() + e} is beyond the range symattn writes out "
                f"exactly (2^±{EXPONENT_RANGE_BITS}); its digits are not computed"
            )
        return Fraction(m << e) if e >= 0 else Fraction(m, 1 << -e)

    @property
    def sign(self) -> int:
        """1 when every point is >= 0 (and some > 0), -1 when every point is <= 0, else 0."""
        if self._dyadic is not None:
            m, r, _ = self._dyadic
            return 1 if m - r >= 0 and m + r > 0 else -1 if m + r <= 0 and m - r < 0 else 0
        return 1 if self.lower >= 0 < self.upper else -1 if self.upper <= 0 > self.lower else 0

    @property
    def upper_bits(self) -> int:
        """An integer ``k`` with ``|x| < 2**k`` for every point ``x`` of the ball (cheap)."""
        if self._dyadic is not None:
            m, r, e = self._dyadic
            return (abs(m) + r).bit_length() + e
        top = max(abs(self.lower), abs(self.upper))
        return top.numerator.bit_length() - top.denominator.bit_length() + 1

    @property
    def lower_bits(self) -> int | None:
        """An integer ``k`` with ``|x| >= 2**k`` for every point (``None`` if the ball holds 0)."""
        if self.sign == 0:
            return None
        if self._dyadic is not None:
            m, r, e = self._dyadic
            low = abs(m) - r
            return low.bit_length() - 1 + e if low else None
        low = min(abs(self.lower), abs(self.upper))
        return low.numerator.bit_length() - low.denominator.bit_length() - 1 if low else None

    @cached_property
    def lower(self) -> Fraction:
        """The lower bound."""
        m, r, e = self._dyadic  # type: ignore[misc]
        return self._dyadic_value(m - r, e)

    @cached_property
    def upper(self) -> Fraction:
        """The upper bound."""
        m, r, e = self._dyadic  # type: ignore[misc]
        return self._dyadic_value(m + r, e)

    @property
    def mid(self) -> Fraction:
        """The centre of the ball."""
        if self._dyadic is not None:
            return self._dyadic_value(self._dyadic[0], self._dyadic[2])
        return (self.lower + self.upper) / 2

    @property
    def radius(self) -> Fraction:
        """Half the width."""
        if self._dyadic is not None:
            return self._dyadic_value(self._dyadic[1], self._dyadic[2])
        return (self.upper - self.lower) / 2

    @property
    def width(self) -> Fraction:
        """``upper - lower``."""
        if self._dyadic is not None:
            return self._dyadic_value(2 * self._dyadic[1], self._dyadic[2])
        return self.upper - self.lower

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ball):
            return NotImplemented
        return (self.lower, self.upper) == (other.lower, other.upper)

    def __hash__(self) -> int:
        return hash((self.lower, self.upper))

    def narrower_than(self, width: Fraction) -> bool:
        """Whether ``upper - lower < width`` (integer arithmetic for a ball from Arb)."""
        if self._dyadic is None:
            return self.width < width
        r, e = 2 * self._dyadic[1], self._dyadic[2]
        num, den = width.numerator, width.denominator
        bits = r.bit_length() + e  # r * 2**e lies in [2**(bits-1), 2**bits)
        w_bits = num.bit_length() - den.bit_length()  # width lies in (2**(w_bits-1), 2**(w_bits+1))
        if r == 0 or bits < w_bits - 1:
            return True
        if bits - 1 > w_bits + 1:
            return False
        return (r * den << e) < num if e >= 0 else r * den < num << -e

    def round_decimals(self, decimals: int, mode: Rounding = Rounding.HALF_EVEN) -> Decimal | None:
        """What every point rounds to at ``decimals`` places, or ``None`` when the two ends differ.

        The one place that decides a rounding from an enclosure.
        """
        lo = round_decimals(self.lower, decimals, mode)
        return lo if round_decimals(self.upper, decimals, mode) == lo else None

    def round_significant(self, digits: int, mode: Rounding = Rounding.HALF_EVEN) -> Decimal | None:
        """What every point rounds to at ``digits`` significant digits, or ``None``."""
        lo = round_significant(self.lower, digits, mode)
        return lo if round_significant(self.upper, digits, mode) == lo else None

    def __contains__(self, x: object) -> bool:
        return self.lower <= Fraction(x) <= self.upper  # type: ignore[arg-type]

    def __float__(self) -> float:
        raise TypeError(
            "a Ball is a certified interval; use .mid, .lower or .upper, or to_numpy() for correctly rounded floats"
        )

    def __repr__(self) -> str:
        return f"Ball{self}"

    def __str__(self) -> str:
        if self.width == 0:
            return f"[{_short(self.mid)}]"
        digits = max(1, -_floor_log10(self.width) + 2)
        return f"[{_short(self.mid, digits)} ± {float(self.radius):.1e}]"


def float_of(b: Ball) -> float | None:
    """The float64 every point of ``b`` rounds to (nearest-even), or ``None``."""
    sign = -1.0 if b.sign < 0 else 1.0
    if b.upper_bits < -1080:  # below half the smallest subnormal, 2**-1075: rounds to zero
        return math.copysign(0.0, sign)
    low = b.lower_bits
    if low is not None and low > 1030:  # beyond the largest double: rounds to infinity
        return math.copysign(math.inf, sign)
    lo, hi = float(b.lower), float(b.upper)  # Fraction -> float rounds correctly
    return lo if lo == hi else None


def _floor_log10(x: Fraction) -> int:
    return decimal_exponent(x) if x else 0


def _short(x: Fraction, decimals: int | None = None) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    if decimals is None:
        decimals = 20
    return str(round_decimals(x, decimals).normalize())


# --------------------------------------------------------------------------- evaluation


class Evaluator:
    """Arb values of tensors at one working precision, each tensor computed once."""

    def __init__(self, prec: int) -> None:
        self.prec = prec
        self._memo: dict[int, tuple[ExactTensor, np.ndarray]] = {}

    def arb(self, tensor: ExactTensor) -> np.ndarray:
        """The object array of ``flint.arb`` balls for ``tensor``."""
        hit = self._memo.get(id(tensor))
        if hit is None:
            with flint.ctx.workprec(self.prec):
                hit = (tensor, tensor._arb(self))
            self._memo[id(tensor)] = hit
        return hit[1]


def arb_of(x: Fraction | int, radius: Fraction | int = 0) -> flint.arb:
    """The Arb ball of an exact rational (and an exact ``radius``): the one converter."""
    f, r = Fraction(x), Fraction(radius)
    mid = flint.fmpq(f.numerator, f.denominator)
    return flint.arb(mid, flint.fmpq(r.numerator, r.denominator)) if r else flint.arb(mid)


_ARB_OF_FRACTION = np.frompyfunc(arb_of, 1, 1)


def _indices(shape: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    return iter(np.ndindex(*shape))


class ExactTensor(ABC):
    """A read-only array of exact real numbers, evaluated lazily."""

    shape: tuple[int, ...]

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @abstractmethod
    def _arb(self, ev: Evaluator) -> np.ndarray:
        """Arb balls for every entry at ``ev.prec`` (call ``ev.arb`` for operands)."""

    @abstractmethod
    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        """The entry's value when it is rational, else ``None``."""

    @abstractmethod
    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        """The entry's exact value as a sympy expression."""

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        """Whether the entry is -inf (a masked score)."""
        return False

    # -- exact ----------------------------------------------------------------

    def exact(self) -> np.ndarray:
        """Exact entries: ``Fraction`` where rational, otherwise a sympy expression."""
        out = np.empty(self.shape, dtype=object)
        for idx in _indices(self.shape):
            q = self.rational(idx)
            out[idx] = q if q is not None else self.sympy(idx)
        out.flags.writeable = False
        return out

    # -- certified ------------------------------------------------------------

    def certify(
        self,
        decide: Callable[[Ball], T | None],
        *,
        neg_inf: Any = None,
        start_bits: int = 64,
        limits: Limits = DEFAULT_LIMITS,
        method: str = "auto",
    ) -> np.ndarray:
        """Apply ``decide`` to enclosures of every entry, refining until each decides.

        ``decide`` gets a :class:`Ball` and returns a result or ``None`` (undecided).
        Rational entries get their exact zero-width ball at once; -inf entries (masked
        scores) get ``neg_inf``. Precision doubles up to ``limits.max_precision_bits``;
        past that, :class:`PrecisionError`. ``method="auto"`` lets a large attention output
        take the batched path of :mod:`symattn.fast` (same decisions, proved the same way);
        ``"exact"`` forces the per-entry path, ``"fast"`` the batched one where available.
        """
        routed = self._fast_certify(decide, start_bits, limits, method)
        if routed is not None:
            return routed
        indices = list(_indices(self.shape))
        results = self.certify_entries(
            indices, [decide] * len(indices), neg_inf=neg_inf, start_bits=start_bits, limits=limits
        )
        out = np.empty(self.shape, dtype=object)
        for idx, res in zip(indices, results):
            out[idx] = res
        out.flags.writeable = False
        return out

    def certify_entries(
        self,
        indices: list[tuple[int, ...]],
        decides: list[Callable[[Ball], T | None]],
        *,
        neg_inf: Any = None,
        start_bits: int = 64,
        limits: Limits = DEFAULT_LIMITS,
    ) -> list[Any]:
        """``decides[n]`` on the entry at ``indices[n]``, refining the undecided ones together.

        Rational entries get their exact zero-width ball once (whatever ``decide`` returns
        for it is kept); -inf entries get ``neg_inf``.
        """
        results: list[Any] = [None] * len(indices)
        pending: list[int] = []
        for n, idx in enumerate(indices):
            q = self.rational(idx)
            if self.is_neg_inf(idx):
                results[n] = neg_inf
            elif q is not None:
                results[n] = decides[n](Ball.exact(q))
            else:
                pending.append(n)
        prec = min(start_bits, limits.max_precision_bits)
        while pending:
            values = Evaluator(prec).arb(self)
            still: list[int] = []
            for n in pending:
                with flint.ctx.workprec(prec):
                    x = values[indices[n]]
                    ball = Ball.from_arb(x) if x.is_finite() else None
                res = decides[n](ball) if ball is not None else None
                if res is None:
                    still.append(n)
                else:
                    results[n] = res
            pending = still
            if pending:
                if prec >= limits.max_precision_bits:
                    raise PrecisionError(
                        f"undecided at {prec} bits of precision for {len(pending)} entries "
                        f"(first at index {indices[pending[0]]}); raise Limits(max_precision_bits=...)"
                    )
                prec = min(2 * prec, limits.max_precision_bits)
        return results

    def _fast_certify(
        self, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits, method: str
    ) -> np.ndarray | None:
        """``certify`` through a batched path, or ``None`` where there is none."""
        _use_fast(None, method)  # validates ``method``
        return None

    def _fast_float64(self, limits: Limits, method: str) -> np.ndarray | None:
        """``to_numpy`` through a batched path, or ``None`` where there is none."""
        _use_fast(None, method)
        return None

    def enclose(
        self, digits: int = 30, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto"
    ) -> np.ndarray:
        """Certified balls, each narrower than ``10**-digits``."""
        width = Fraction(1, 10**digits)
        start = int(digits * 3.33) + 32
        tiny = -(digits * 10 // 3) - 3  # a ball inside (-2**tiny, 2**tiny) is narrower than width

        def decide(b: Ball) -> Ball | None:
            if b.upper_bits < tiny:  # astronomically small: a coarser ball that is still narrow
                bound = Fraction(1, 1 << -tiny)
                return Ball(
                    -bound if b.sign <= 0 else Fraction(0), bound if b.sign >= 0 else Fraction(0)
                )
            return b if b.narrower_than(width) else None

        return self.certify(decide, start_bits=start, limits=limits, method=method)

    def evalf(
        self,
        digits: int = 15,
        *,
        mode: Rounding = Rounding.HALF_EVEN,
        limits: Limits = DEFAULT_LIMITS,
        method: str = "auto",
    ) -> np.ndarray:
        """Entries correctly rounded to ``digits`` significant digits, as ``Decimal``."""

        def decide(b: Ball) -> Decimal | None:
            return b.round_significant(digits, mode)

        return self.certify(
            decide,
            neg_inf=Decimal("-Infinity"),
            start_bits=int(digits * 3.33) + 32,
            limits=limits,
            method=method,
        )

    def round(
        self,
        decimals: int,
        *,
        mode: Rounding = Rounding.HALF_EVEN,
        limits: Limits = DEFAULT_LIMITS,
        method: str = "auto",
    ) -> np.ndarray:
        """Entries correctly rounded to ``decimals`` places after the point, as ``Decimal``."""

        def decide(b: Ball) -> Decimal | None:
            if b.upper_bits < -(decimals * 10 // 3) - 2:  # |x| < 10**-decimals / 2: rounds to 0
                return round_decimals(Fraction(0), decimals, mode)
            return b.round_decimals(decimals, mode)

        return self.certify(
            decide,
            neg_inf=Decimal("-Infinity"),
            start_bits=int(decimals * 3.33) + 48,
            limits=limits,
            method=method,
        )

    def to_numpy(self, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto") -> np.ndarray:
        """Entries correctly rounded to float64 (round-to-nearest-even), decided from enclosures."""
        routed = self._fast_float64(limits, method)
        if routed is not None:
            return routed

        def decide(b: Ball) -> float | None:
            return float_of(b)

        return np.asarray(
            self.certify(decide, neg_inf=-math.inf, start_bits=80, limits=limits, method="exact"),
            dtype=np.float64,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(shape={self.shape})"


# --------------------------------------------------------------------------- tensors


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.array(a, dtype=object)
    a.flags.writeable = False
    return a


def _readonly_view(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


_INT64_SAFE = 2**62


def _to_int64_if_small(ints: np.ndarray) -> np.ndarray:
    """``ints`` as int64 when every entry fits comfortably, else an object array of Python ints."""
    if ints.dtype == np.int64:
        return ints
    flat = ints.reshape(-1).tolist()
    if all(-_INT64_SAFE < i < _INT64_SAFE for i in flat):
        return np.array(flat, dtype=np.int64).reshape(ints.shape)
    return np.asarray(ints, dtype=object)


def _max_abs(ints: np.ndarray) -> int:
    """``max |ints|`` as a Python int (0 for an empty array)."""
    if ints.size == 0:
        return 0
    if ints.dtype == np.int64:
        return int(np.abs(ints).max())
    return max(abs(int(i)) for i in ints.reshape(-1).tolist())


def fractions_to_ints(values: np.ndarray) -> tuple[np.ndarray, int]:
    """``(ints, den)`` with ``values == ints / den`` exactly; ``den`` is the LCM of the denominators."""
    flat = values.reshape(-1).tolist()
    den = math.lcm(*{f.denominator for f in flat}) if flat else 1
    ints = np.array([f.numerator * (den // f.denominator) for f in flat], dtype=object).reshape(
        values.shape
    )
    return _to_int64_if_small(ints), den


def _slices(ints: np.ndarray, width: int) -> list[np.ndarray]:
    """Signed ``width``-bit slices (float64, exact) with ``ints == sum_s slices[s] * 2**(width*s)``."""
    small = ints.dtype == np.int64 and _max_abs(ints) < 2**53
    values = ints if small else np.asarray(ints, dtype=object)
    sign = np.where(values < 0, -1.0, 1.0)
    mag = np.abs(values)
    out = []
    while True:
        out.append(sign * (mag & ((1 << width) - 1)).astype(np.float64))
        mag = mag >> width
        if not mag.any():
            return out


def int_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The exact integer product ``a @ b`` (numpy broadcasting over batch axes).

    Operands are cut into signed slices small enough that every slice product done by
    float64 BLAS is exact (all partial sums are integers below ``2**53``); the slice
    products are recombined in int64 when the result surely fits, else in Python integers.
    """
    k = a.shape[-1]
    bound = _max_abs(a) * _max_abs(b) * max(k, 1)
    if bound < 2**53:  # one float64 product, exact
        return np.matmul(a.astype(np.float64), b.astype(np.float64)).astype(np.int64)
    width = max(4, (53 - (k + 1).bit_length() - 1) // 2)
    sa, sb = _slices(a, width), _slices(b, width)
    small = bound < _INT64_SAFE
    total: Any = None
    for i, x in enumerate(sa):
        for j, y in enumerate(sb):
            c = np.matmul(x, y)
            shift = width * (i + j)
            term = (
                c.astype(np.int64) << shift
                if small
                else c.astype(np.int64).astype(object) * (1 << shift)
            )
            total = term if total is None else total + term
    return total if small else _to_int64_if_small(total)


@dataclass(frozen=True, repr=False)
class RationalTensor(ExactTensor):
    """An array of ``Fraction``: inputs, projections, scores."""

    values: np.ndarray
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", _readonly(self.values))
        object.__setattr__(self, "shape", tuple(self.values.shape))

    def _arb(self, ev: Evaluator) -> np.ndarray:
        return np.asarray(_ARB_OF_FRACTION(self.values), dtype=object).reshape(self.shape)

    def rational(self, index: tuple[int, ...]) -> Fraction:
        return self.values[index]

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        v = self.values[index]
        return sympy.Rational(v.numerator, v.denominator)

    def exact(self) -> np.ndarray:
        return self.values

    @cached_property
    def as_ints(self) -> ScaledIntTensor:
        """The same entries as an integer array over one common denominator."""
        ints, den = fractions_to_ints(self.values)
        return ScaledIntTensor(ints, den)


@dataclass(frozen=True, repr=False, eq=False)
class ScaledIntTensor(ExactTensor):
    """Rational entries ``ints / den``: an integer array (int64, or Python ints when large)
    and one common positive denominator. Memory is one machine word per entry; ``values``
    (``Fraction`` objects) is built only when asked for."""

    ints: np.ndarray
    den: int = 1
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        if self.den <= 0:
            raise InputError(f"denominator must be positive, got {self.den}")
        ints = self.ints if self.ints.dtype in (np.int64, object) else self.ints.astype(np.int64)
        object.__setattr__(self, "ints", _readonly_view(ints))
        object.__setattr__(self, "shape", tuple(ints.shape))

    @property
    def as_ints(self) -> ScaledIntTensor:
        """Itself (the integer form)."""
        return self

    @cached_property
    def values(self) -> np.ndarray:
        """The entries as a read-only object array of ``Fraction``."""
        den = self.den
        flat = [Fraction(int(i), den) for i in self.ints.reshape(-1).tolist()]
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        out = out.reshape(self.shape)
        out.flags.writeable = False
        return out

    def _arb(self, ev: Evaluator) -> np.ndarray:
        den = self.den
        conv = np.frompyfunc(lambda i: flint.arb(flint.fmpq(int(i), den)), 1, 1)
        return np.asarray(conv(self.ints), dtype=object).reshape(self.shape)

    def rational(self, index: tuple[int, ...]) -> Fraction:
        return Fraction(int(self.ints[index]), self.den)

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        return sympy.Rational(int(self.ints[index]), self.den)

    def exact(self) -> np.ndarray:
        return self.values

    def to_numpy(self, *, limits: Limits = DEFAULT_LIMITS, method: str = "auto") -> np.ndarray:
        """Correctly rounded float64: one IEEE division of exact operands when both fit in 53 bits."""
        if method != "exact" and self.den < 2**53 and _max_abs(self.ints) < 2**53:
            return self.ints.astype(np.float64) / float(self.den)
        return super().to_numpy(limits=limits, method=method)


class Kernels(Protocol):
    """Batched certified paths for one plain attention (implemented by :mod:`symattn.fast`).

    ``exact`` declares what it needs and never imports the implementation: the engine, which
    sits above both, hands an implementation to each :class:`AttentionSpec` it builds.
    """

    def spec_float64(self, spec: AttentionSpec, *, limits: Limits) -> np.ndarray:
        """The output, correctly rounded to float64."""
        ...

    def spec_certify(
        self, spec: AttentionSpec, decide: Callable[[Ball], Any], start_bits: int, *, limits: Limits
    ) -> np.ndarray:
        """``decide`` applied to certified balls of every output entry, refined until decided."""
        ...

    def spec_weights_float64(self, spec: AttentionSpec, *, limits: Limits) -> np.ndarray:
        """The weights, correctly rounded to float64."""
        ...

    def spec_weights_certify(
        self, spec: AttentionSpec, decide: Callable[[Ball], Any], start_bits: int, *, limits: Limits
    ) -> np.ndarray:
        """``decide`` applied to certified balls of every weight, refined until decided."""
        ...

    def spec_projected_float64(
        self, spec: AttentionSpec, source: np.ndarray, tensor: MatMulTensor, *, limits: Limits
    ) -> np.ndarray:
        """``concat(heads) @ W_O`` correctly rounded to float64."""
        ...


@dataclass(frozen=True)
class AttentionSpec:
    """What the fast paths need to recompute one plain attention.

    ``k`` and ``v`` are already repeated for grouped-query attention; ``masked`` (True = does
    not take part) and ``add`` (additive mask values, ``Fraction``) broadcast to the scores.
    ``kernels`` implements the batched paths (``None``: per-entry paths only).
    """

    q: ScaledIntTensor
    k: ScaledIntTensor
    v: ScaledIntTensor
    scale: Surd
    masked: np.ndarray | None
    add: np.ndarray | None
    batch: tuple[int, ...]
    kernels: Kernels | None = None

    @property
    def n_scores(self) -> int:
        """Entries of the score matrix (all batch entries)."""
        return math.prod(self.batch) * self.q.shape[-2] * self.k.shape[-2]


#: routed to :mod:`symattn.fast` from this many score entries on (``method="auto"``)
FAST_MIN_SCORES = 256


def _use_fast(spec: AttentionSpec | None, method: str) -> bool:
    if method not in ("auto", "fast", "exact"):
        raise InputError(f"method must be 'auto', 'fast' or 'exact', got {method!r}")
    if spec is None or method == "exact" or spec.kernels is None:
        return False
    if min(spec.q.shape[-2:] + spec.k.shape[-2:] + spec.v.shape[-1:]) == 0 or 0 in spec.batch:
        return False
    return method == "fast" or spec.n_scores >= FAST_MIN_SCORES


@dataclass(frozen=True, repr=False)
class SurdTensor(ExactTensor):
    """Scaled (and masked) scores: entries ``p + q*sqrt(r)``, or -inf where ``masked``."""

    p: np.ndarray
    q: np.ndarray
    r: int
    masked: np.ndarray  # bool, True = -inf (does not take part)
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", _readonly(self.p))
        object.__setattr__(self, "q", _readonly(self.q))
        m = np.array(self.masked, dtype=bool)
        m.flags.writeable = False
        object.__setattr__(self, "masked", m)
        object.__setattr__(self, "shape", tuple(self.p.shape))

    def surd(self, index: tuple[int, ...]) -> Surd | None:
        """The entry as a :class:`Surd`, ``None`` where masked."""
        if self.masked[index]:
            return None
        return Surd(self.p[index], self.q[index], self.r)

    def _arb(self, ev: Evaluator) -> np.ndarray:
        out = np.empty(self.shape, dtype=object)
        root = flint.arb(self.r).sqrt()
        for idx in _indices(self.shape):
            if self.masked[idx]:
                out[idx] = flint.arb.neg_inf()
            else:
                x = arb_of(self.p[idx])
                if self.q[idx]:
                    x += arb_of(self.q[idx]) * root
                out[idx] = x
        return out

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        if self.masked[index] or self.q[index] != 0:
            return None
        return self.p[index]

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        s = self.surd(index)
        return -sympy.oo if s is None else s.sympy()

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        return bool(self.masked[index])


@dataclass(frozen=True, repr=False, eq=False)
class LinearSurdTensor(ExactTensor):
    """Scaled (and masked) scores kept compact: ``scores * coef + add``, -inf where ``masked``.

    ``scores`` is rational (:class:`ScaledIntTensor` for large inputs), ``coef`` a :class:`Surd`,
    ``add`` an optional array of ``Fraction`` (an additive mask) and ``masked`` a bool array,
    both broadcast to the shape. Same interface as :class:`SurdTensor` (``p``, ``q``, ``r``,
    ``surd``, ``masked``), with ``p`` and ``q`` built only when asked for.
    """

    scores: ExactTensor
    coef: Surd
    masked: np.ndarray
    add: np.ndarray | None = None
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        shape = tuple(self.scores.shape)
        m = np.broadcast_to(np.asarray(self.masked, dtype=bool), shape)
        object.__setattr__(self, "masked", m)
        if self.add is not None:
            object.__setattr__(
                self, "add", np.broadcast_to(np.asarray(self.add, dtype=object), shape)
            )
        object.__setattr__(self, "shape", shape)

    @property
    def r(self) -> int:
        """The radicand of every entry."""
        return self.coef.r

    @cached_property
    def p(self) -> np.ndarray:
        """Rational parts (masked entries keep ``score * coef.p + add``; ``masked`` says which)."""
        p = self.scores.exact() * self.coef.p
        if self.add is not None:
            p = p + self.add
        return _readonly(p)

    @cached_property
    def q(self) -> np.ndarray:
        """Coefficients of ``sqrt(r)``."""
        return _readonly(self.scores.exact() * self.coef.q)

    def surd(self, index: tuple[int, ...]) -> Surd | None:
        """The entry as a :class:`Surd`, ``None`` where masked."""
        if self.masked[index]:
            return None
        x = self.scores.rational(index)
        assert x is not None
        s = Surd(x * self.coef.p, x * self.coef.q, self.coef.r)
        return s + self.add[index] if self.add is not None else s

    def _arb(self, ev: Evaluator) -> np.ndarray:
        out = np.empty(self.shape, dtype=object)
        for idx in _indices(self.shape):
            s = self.surd(idx)
            out[idx] = flint.arb.neg_inf() if s is None else s.arb()
        return out

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        s = self.surd(index)
        return s.p if s is not None and s.q == 0 else None

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        s = self.surd(index)
        return -sympy.oo if s is None else s.sympy()

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        return bool(self.masked[index])


@dataclass(frozen=True, repr=False)
class ExpTensor(ExactTensor):
    """``exp`` of every entry of a :class:`SurdTensor` (0 where masked)."""

    logits: SurdTensor | LinearSurdTensor
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", self.logits.shape)

    def _arb(self, ev: Evaluator) -> np.ndarray:
        x = ev.arb(self.logits)
        out = np.empty(self.shape, dtype=object)
        for idx in _indices(self.shape):
            out[idx] = flint.arb(0) if self.logits.masked[idx] else x[idx].exp()
        return out

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        if self.logits.masked[index]:
            return Fraction(0)
        s = self.logits.surd(index)
        return Fraction(1) if s is not None and s.p == 0 and s.q == 0 else None

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        s = self.logits.surd(index)
        return sympy.Integer(0) if s is None else sympy.exp(s.sympy())


@dataclass(frozen=True, repr=False)
class RowSumTensor(ExactTensor):
    """The sum over the last axis of an :class:`ExpTensor` (softmax's denominator)."""

    terms: ExpTensor
    shape: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", self.terms.shape[:-1])

    def _arb(self, ev: Evaluator) -> np.ndarray:
        x = ev.arb(self.terms)
        out = np.empty(self.shape, dtype=object)
        for idx in _indices(self.shape):
            total = flint.arb(0)
            for v in x[idx]:
                total += v
            out[idx] = total
        return out

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        parts = [self.terms.rational(index + (j,)) for j in range(self.terms.shape[-1])]
        return sum(parts, Fraction(0)) if all(p is not None for p in parts) else None

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        return sympy.Add(*[self.terms.sympy(index + (j,)) for j in range(self.terms.shape[-1])])


@dataclass(frozen=True, repr=False)
class SoftmaxTensor(ExactTensor):
    """``exp(s_ij) / sum_k exp(s_ik)``; a row with no active entry is all zeros (safe softmax)."""

    terms: ExpTensor
    sums: RowSumTensor
    shape: tuple[int, ...] = field(init=False)
    attention: AttentionSpec | None = None  # set by the engine: enables the batched paths

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", self.terms.shape)

    @property
    def logits(self) -> SurdTensor | LinearSurdTensor:
        """The scaled, masked scores the weights come from."""
        return self.terms.logits

    def _routed(self, method: str) -> bool:
        spec = self.attention
        return (
            _use_fast(spec, method)
            and spec is not None
            and self.shape == spec.batch + (spec.q.shape[-2], spec.k.shape[-2])
        )

    def _fast_float64(self, limits: Limits, method: str) -> np.ndarray | None:
        if not self._routed(method):
            return None
        assert self.attention is not None and self.attention.kernels is not None  # _routed
        return self.attention.kernels.spec_weights_float64(self.attention, limits=limits)

    def _fast_certify(
        self, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits, method: str
    ) -> np.ndarray | None:
        if not self._routed(method):
            return None
        assert self.attention is not None and self.attention.kernels is not None  # _routed
        return self.attention.kernels.spec_weights_certify(
            self.attention, decide, start_bits, limits=limits
        )

    def fully_masked(self, row: tuple[int, ...]) -> bool:
        """Whether every entry of ``row`` (an index without the last axis) is masked."""
        return bool(self.logits.masked[row].all())

    def _arb(self, ev: Evaluator) -> np.ndarray:
        e, s = ev.arb(self.terms), ev.arb(self.sums)
        out = np.empty(self.shape, dtype=object)
        for idx in _indices(self.shape):
            row = idx[:-1]
            if self.logits.masked[idx]:
                out[idx] = flint.arb(0)
            else:
                out[idx] = e[idx] / s[row]
        return out

    def row_groups(self, row: tuple[int, ...]) -> dict[Surd, list[int]]:
        """Active keys of ``row`` grouped by equal score."""
        groups: dict[Surd, list[int]] = {}
        for j in range(self.shape[-1]):
            s = self.logits.surd(row + (j,))
            if s is not None:
                groups.setdefault(s, []).append(j)
        return groups

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        if self.logits.masked[index]:
            return Fraction(0)
        groups = self.row_groups(index[:-1])
        return Fraction(1, len(next(iter(groups.values())))) if len(groups) == 1 else None

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        if self.logits.masked[index]:
            return sympy.Integer(0)
        return self.terms.sympy(index) / self.sums.sympy(index[:-1])


@dataclass(frozen=True, repr=False)
class MatMulTensor(ExactTensor):
    """``left @ right`` with an exact rational ``right`` (``P V``, ``concat(heads) W_O``)."""

    left: ExactTensor
    right: RationalTensor | ScaledIntTensor
    shape: tuple[int, ...] = field(init=False)
    attention: AttentionSpec | None = (
        None  # set by the engine for ``P V``: enables the batched paths
    )

    def __post_init__(self) -> None:
        if self.left.shape[-1] != self.right.shape[-2]:
            raise InputError(f"cannot multiply shapes {self.left.shape} and {self.right.shape}")
        batch = np.broadcast_shapes(self.left.shape[:-2], self.right.shape[:-2])
        object.__setattr__(
            self, "shape", tuple(batch) + (self.left.shape[-2], self.right.shape[-1])
        )

    def _arb(self, ev: Evaluator) -> np.ndarray:
        return np.matmul(ev.arb(self.left), ev.arb(self.right))

    def _projected_heads(self) -> tuple[AttentionSpec, np.ndarray] | None:
        """``(spec, source)`` when this is ``concat(heads) @ W_O`` over one plain attention."""
        left = self.left
        if not (isinstance(left, ReshapeTensor) and isinstance(left.base, MatMulTensor)):
            return None
        spec = left.base.attention
        if spec is None or self.right.ndim != 2 or left.ndim < 2:
            return None
        return spec, left.source

    def _fast_float64(self, limits: Limits, method: str) -> np.ndarray | None:
        if self.attention is None:
            heads = self._projected_heads()
            if heads is None or not _use_fast(heads[0], method) or heads[0].kernels is None:
                return None
            return heads[0].kernels.spec_projected_float64(heads[0], heads[1], self, limits=limits)
        if not _use_fast(self.attention, method) or self.attention.kernels is None:
            return None
        return self.attention.kernels.spec_float64(self.attention, limits=limits)

    def _fast_certify(
        self, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits, method: str
    ) -> np.ndarray | None:
        if (
            not _use_fast(self.attention, method)
            or self.attention is None
            or self.attention.kernels is None
        ):
            return None
        return self.attention.kernels.spec_certify(
            self.attention, decide, start_bits, limits=limits
        )

    def _operands(self, index: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        batch = index[:-2]
        lb = batch[len(batch) - (self.left.ndim - 2) :] if self.left.ndim > 2 else ()
        lb = tuple(0 if n == 1 else b for b, n in zip(lb, self.left.shape[:-2]))
        rb = batch[len(batch) - (self.right.ndim - 2) :] if self.right.ndim > 2 else ()
        rb = tuple(0 if n == 1 else b for b, n in zip(rb, self.right.shape[:-2]))
        return lb + (index[-2],), rb, index[-1]

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        lrow, rb, col = self._operands(index)
        n = self.left.shape[-1]
        column = [self.right.values[rb + (k, col)] for k in range(n)]
        if isinstance(self.left, SoftmaxTensor):
            # sum_t a_t e^t / sum_t n_t e^t is rational iff every group averages alike
            groups = self.left.row_groups(lrow)
            if not groups:
                return Fraction(0)
            means = {sum((column[j] for j in js), Fraction(0)) / len(js) for js in groups.values()}
            return means.pop() if len(means) == 1 else None
        parts = [self.left.rational(lrow + (k,)) for k in range(n)]
        if any(p is None for p in parts):
            return None
        return sum((p * c for p, c in zip(parts, column)), Fraction(0))  # type: ignore[operator]

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        import sympy  # lazy: importing symattn does not load sympy

        lrow, rb, col = self._operands(index)
        if isinstance(self.left, SoftmaxTensor):  # (sum_j v_j e^{s_j}) / (sum_j e^{s_j})
            if self.left.fully_masked(lrow):
                return sympy.Integer(0)
            num = []
            for k in range(self.left.shape[-1]):
                c = self.right.values[rb + (k, col)]
                if c and not self.left.logits.masked[lrow + (k,)]:
                    num.append(
                        sympy.Rational(c.numerator, c.denominator)
                        * self.left.terms.sympy(lrow + (k,))
                    )
            return sympy.Add(*num) / self.left.sums.sympy(lrow)
        terms = []
        for k in range(self.left.shape[-1]):
            c = self.right.values[rb + (k, col)]
            if c:
                terms.append(
                    self.left.sympy(lrow + (k,)) * sympy.Rational(c.numerator, c.denominator)
                )
        return sympy.Add(*terms)


@dataclass(frozen=True, repr=False)
class ReshapeTensor(ExactTensor):
    """A permutation/reshape of another tensor's entries (split and concat of heads)."""

    base: ExactTensor
    source: np.ndarray  # for each entry, the flat index into ``base``
    shape: tuple[int, ...] = field(init=False)

    @classmethod
    def of(cls, base: ExactTensor, transform: Callable[[np.ndarray], np.ndarray]) -> ReshapeTensor:
        """Apply ``transform`` (numpy reshape/transpose steps) to ``base``'s layout."""
        flat = np.arange(math.prod(base.shape)).reshape(base.shape)
        return cls(base, np.ascontiguousarray(transform(flat)))

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(self.source.shape))

    def _fast_float64(self, limits: Limits, method: str) -> np.ndarray | None:
        base = self.base._fast_float64(limits, method)
        return None if base is None else _readonly_view(np.asarray(base).reshape(-1)[self.source])

    def _fast_certify(
        self, decide: Callable[[Ball], T | None], start_bits: int, limits: Limits, method: str
    ) -> np.ndarray | None:
        base = self.base._fast_certify(decide, start_bits, limits, method)
        return None if base is None else _readonly_view(np.asarray(base).reshape(-1)[self.source])

    def _where(self, index: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(int(i) for i in np.unravel_index(int(self.source[index]), self.base.shape))

    def _arb(self, ev: Evaluator) -> np.ndarray:
        return ev.arb(self.base).reshape(-1)[self.source]

    def rational(self, index: tuple[int, ...]) -> Fraction | None:
        return self.base.rational(self._where(index))

    def is_neg_inf(self, index: tuple[int, ...]) -> bool:
        return self.base.is_neg_inf(self._where(index))

    def sympy(self, index: tuple[int, ...]) -> sympy.Expr:
        return self.base.sympy(self._where(index))


def rational_tensor(values: np.ndarray) -> RationalTensor:
    """A :class:`RationalTensor` over an object array of ``Fraction``."""
    return RationalTensor(values)
