"""The arrays ``evalf`` and ``enclose`` return: :class:`RoundedArray` (correctly rounded
decimals) and :class:`BallArray` (certified balls), held compactly in numpy arrays.

A :class:`RoundedArray` holds each decimal as an integer coefficient and a power of ten
(``int64`` arrays up to 18 digits); a :class:`BallArray` holds each ball as a dyadic centre
(24-bit digits, a sign and a power of two) and a dyadic radius. Neither makes a Python object
per entry until asked: ``to_decimal()`` / ``to_balls()`` give the object arrays of
``Decimal`` / :class:`~symattn.exact.Ball` the former API returned, indexing one entry gives
one ``Decimal`` / ``Ball``, ``to_numpy()`` gives float64.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from symattn.exact.ball import Ball

__all__ = ["LIMB_BITS", "BallArray", "RoundedArray", "ints_to_limbs", "limbs_to_ints"]

#: bits per digit of a :class:`BallArray` centre
LIMB_BITS = 24
_LIMB_BYTES = LIMB_BITS // 8

#: entry kinds of a RoundedArray besides a finite value
_FINITE, _NEG_INF, _POS_INF, _NAN, _NEG_ZERO = 0, 1, 2, 3, 4
_SPECIAL = {
    _NEG_INF: Decimal("-Infinity"),
    _POS_INF: Decimal("Infinity"),
    _NAN: Decimal("NaN"),
}


def ints_to_limbs(values: list[int], n: int | None = None) -> np.ndarray:
    """Non-negative Python integers as ``(len, n)`` int64 digits of :data:`LIMB_BITS` bits,
    low first (``n`` at least what the largest needs)."""
    need = max((v.bit_length() for v in values), default=0) // LIMB_BITS + 1
    n = max(need, n or 1)
    if not values:
        return np.zeros((0, n), dtype=np.int64)
    raw = b"".join([v.to_bytes(_LIMB_BYTES * n, "little") for v in values])
    b = np.frombuffer(raw, dtype=np.uint8).reshape(len(values), n, _LIMB_BYTES).astype(np.int64)
    out = b[:, :, 0].copy()
    for k in range(1, _LIMB_BYTES):
        out |= b[:, :, k] << (8 * k)
    return out


def limbs_to_ints(limbs: np.ndarray) -> list[int]:
    """The integers of ``(len, n)`` digits (:func:`ints_to_limbs`'s inverse)."""
    count, n = limbs.shape
    b = np.empty((count, n, _LIMB_BYTES), dtype=np.uint8)
    for k in range(_LIMB_BYTES):
        b[:, :, k] = (limbs >> (8 * k)) & 0xFF
    raw = b.reshape(count, n * _LIMB_BYTES)
    width = n * _LIMB_BYTES
    buf = raw.tobytes()
    return [int.from_bytes(buf[i * width : (i + 1) * width], "little") for i in range(count)]


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    if not a.flags.c_contiguous or not a.flags.owndata and not a.flags.writeable:
        a = a.copy()  # (np.ascontiguousarray would make a 0-d array 1-d)
    a.flags.writeable = False
    return a


def _edge_index(shape: tuple[int, ...], edge: int = 3) -> tuple[np.ndarray, ...]:
    """Per axis, the indices numpy shows when it summarises (the first and last ``edge``)."""
    axes = []
    for n in shape:
        idx = np.arange(n) if n <= 2 * edge else np.r_[0:edge, n - edge : n]
        axes.append(idx)
    return np.ix_(*axes)


def _entry_text(x: Any) -> str:
    """An entry as the array shows it: a ball without its brackets (``0.5 ± 1e-31``)."""
    text = str(x)
    return text[1:-1] if isinstance(x, Ball) else text


def _array_text(name: str, objs: np.ndarray, extra: str) -> str:
    body = np.array2string(
        objs, separator=", ", formatter={"all": _entry_text}, prefix=name + "(", threshold=1000
    )
    return f"{name}({body}{extra})"


class _Packed:
    """What both arrays share: shape, indexing, iteration, numpy conversion."""

    shape: tuple[int, ...]

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of entries."""
        return math.prod(self.shape)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def _objects(self) -> np.ndarray:
        raise NotImplementedError

    def _take(self, key: Any) -> Any:
        raise NotImplementedError

    def __getitem__(self, key: Any) -> Any:
        return self._take(key)

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]

    def tolist(self) -> Any:
        """Nested lists of the entries (``Decimal`` / ``Ball``), like ``ndarray.tolist``."""
        return self._objects().tolist()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        objs = self._objects()
        return objs if dtype is None else objs.astype(dtype)

    def _summary(self) -> np.ndarray:
        """An object array with the entries a numpy repr shows filled in."""
        if self.size <= 1000:
            return self._objects()
        out = np.full(self.shape, None, dtype=object)
        idx = _edge_index(self.shape)
        out[idx] = self._take(idx)._objects()
        return out


@dataclass(frozen=True, eq=False, repr=False)
class RoundedArray(_Packed):
    """Correctly rounded decimals: entry ``coef * 10**exp`` (or a special value, ``kind``).

    ``digits`` is the number of significant digits asked for (``None`` when not one
    number). ``coef`` is ``int64`` when every coefficient fits, else Python integers.
    """

    coef: np.ndarray
    exp: np.ndarray
    kind: np.ndarray | None = None  # int8: 0 finite, 1 -inf, 2 +inf, 3 nan, 4 -0
    digits: int | None = None

    @property
    def shape(self) -> tuple[int, ...]:  # type: ignore[override]
        return tuple(self.coef.shape)

    @classmethod
    def of(
        cls,
        coef: np.ndarray,
        exp: np.ndarray,
        kind: np.ndarray | None = None,
        digits: int | None = None,
    ) -> RoundedArray:
        """A frozen array from its parts (copied where not contiguous, made read-only)."""
        if kind is not None and not kind.any():
            kind = None
        return cls(
            _frozen(coef),
            _frozen(exp.astype(np.int64)),
            None if kind is None else _frozen(kind),
            digits,
        )

    @classmethod
    def from_decimals(cls, values: Any, digits: int | None = None) -> RoundedArray:
        """The array of an object array (or nested lists) of ``Decimal``."""
        a = np.asarray(values, dtype=object)
        flat = a.reshape(-1).tolist()
        coefs: list[int] = []
        exps: list[int] = []
        kinds = np.zeros(len(flat), dtype=np.int8)
        for n, d in enumerate(flat):
            d = Decimal(d)
            if not d.is_finite():
                kinds[n] = _NAN if d.is_nan() else _NEG_INF if d < 0 else _POS_INF
                coefs.append(0)
                exps.append(0)
                continue
            sign, digs, e = d.as_tuple()
            c = int("".join(map(str, digs))) if digs else 0
            if sign and c == 0:
                kinds[n] = _NEG_ZERO
            coefs.append(-c if sign else c)
            exps.append(int(e))
        big = any(abs(c) >= 1 << 62 for c in coefs)
        coef = np.array(coefs, dtype=object if big else np.int64).reshape(a.shape)
        return cls.of(
            coef, np.array(exps, dtype=np.int64).reshape(a.shape), kinds.reshape(a.shape), digits
        )

    def _take(self, key: Any) -> Any:
        coef, exp = self.coef[key], self.exp[key]
        kind = self.kind[key] if self.kind is not None else None
        if isinstance(coef, np.ndarray):
            return RoundedArray.of(coef, exp, kind, self.digits)
        return _decimal(int(coef), int(exp), 0 if kind is None else int(kind))

    def reshape(self, *shape: Any) -> RoundedArray:
        """The same entries in another shape."""
        kind = self.kind.reshape(*shape) if self.kind is not None else None
        return RoundedArray.of(
            self.coef.reshape(*shape), self.exp.reshape(*shape), kind, self.digits
        )

    def to_decimal(self) -> np.ndarray:
        """The read-only object array of ``Decimal`` (what ``evalf`` returned before)."""
        coefs = self.coef.reshape(-1).tolist()
        exps = self.exp.reshape(-1).tolist()
        out = np.empty(len(coefs), dtype=object)
        out[:] = [f"{c}E{e}" for c, e in zip(coefs, exps, strict=True)]
        out[:] = list(map(Decimal, out.tolist()))
        if self.kind is not None:
            kinds = self.kind.reshape(-1)
            for n in np.flatnonzero(kinds).tolist():
                out[n] = _decimal(coefs[n], exps[n], int(kinds[n]))
        out = out.reshape(self.shape)
        out.flags.writeable = False
        return out

    _objects = to_decimal

    def to_numpy(self) -> np.ndarray:
        """float64: each decimal correctly rounded (nearest, ties to even)."""
        coef, exp = self.coef, self.exp
        out = np.zeros(self.shape)
        small = exp.astype(np.int64)
        if coef.dtype == np.int64:
            fast = (np.abs(coef) < 1 << 53) & (small >= -22) & (small <= 22)
            c = coef.astype(np.float64)
            with np.errstate(all="ignore"):
                up = c * 10.0 ** np.clip(small, 0, 22)
                down = c / 10.0 ** np.clip(-small, 0, 22)
            out = np.where(small >= 0, up, down)  # one rounding of exact operands
        else:
            fast = np.zeros(self.shape, dtype=bool)
        if self.kind is not None:
            fast &= self.kind == _FINITE
        slow = np.argwhere(~fast)
        for idx in map(tuple, slow.tolist()):
            k = 0 if self.kind is None else int(self.kind[idx])
            out[idx] = float(_decimal(int(coef[idx]), int(exp[idx]), k))
        return out

    def __eq__(self, other: object) -> Any:
        """Entrywise equality, as the object array of ``Decimal`` compares."""
        if isinstance(other, RoundedArray):
            other = other.to_decimal()
        return self.to_decimal() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = "" if self.digits is None else f", digits={self.digits}"
        return _array_text("RoundedArray", self._summary(), extra)

    def __str__(self) -> str:
        return np.array2string(self._summary(), formatter={"all": _entry_text}, threshold=1000)


def _decimal(c: int, e: int, kind: int) -> Decimal:
    if kind == _NEG_ZERO:
        return Decimal(f"-0E{e}")
    if kind:
        return _SPECIAL[kind]
    return Decimal(f"{c}E{e}")


@dataclass(frozen=True, eq=False, repr=False)
class BallArray(_Packed):
    """Certified balls: centre ``sign * M * 2**exp`` with ``M`` in :data:`LIMB_BITS`-bit
    digits (``mid_limbs``, low first), radius ``rad_man * 2**rad_exp``. An entry whose ball is
    not of that form (an exact rational point such as ``1/3``) is held in ``other``."""

    mid_limbs: np.ndarray  # (*shape, n) int64
    sign: np.ndarray  # int8
    exp: np.ndarray  # int64
    rad_man: np.ndarray  # int64, < 2**62
    rad_exp: np.ndarray  # int64
    other: np.ndarray | None = None  # object array: Ball or None
    digits: int | None = None

    @property
    def shape(self) -> tuple[int, ...]:  # type: ignore[override]
        return tuple(self.sign.shape)

    @classmethod
    def of(
        cls,
        mid_limbs: np.ndarray,
        sign: np.ndarray,
        exp: np.ndarray,
        rad: np.ndarray,
        rad_exp: np.ndarray,
        other: np.ndarray | None = None,
        digits: int | None = None,
    ) -> BallArray:
        """A frozen array from its parts (radius ``rad`` below ``2**62``)."""
        shape = sign.shape
        if other is not None and not any(x is not None for x in other.reshape(-1).tolist()):
            other = None
        return cls(
            _frozen(mid_limbs),
            _frozen(sign.astype(np.int8)),
            _frozen(np.broadcast_to(exp, shape).astype(np.int64)),
            _frozen(np.broadcast_to(rad, shape).astype(np.int64)),
            _frozen(np.broadcast_to(rad_exp, shape).astype(np.int64)),
            None if other is None else _frozen(other),
            digits,
        )

    @classmethod
    def from_balls(cls, values: Any, digits: int | None = None) -> BallArray:
        """The array of an object array of :class:`Ball`."""
        a = np.asarray(values, dtype=object)
        flat = a.reshape(-1).tolist()
        mids, signs, exps, rads, rexps = [], [], [], [], []
        other = np.full(len(flat), None, dtype=object)
        for n, b in enumerate(flat):
            parts = _parts(b)
            if parts is None:
                other[n] = b
                parts = (0, 0, 0, 0, 0)
            m, s, e, r, re = parts
            mids.append(m)
            signs.append(s)
            exps.append(e)
            rads.append(r)
            rexps.append(re)
        limbs = ints_to_limbs(mids).reshape(a.shape + (-1,))
        return cls.of(
            limbs,
            np.array(signs, dtype=np.int8).reshape(a.shape),
            np.array(exps, dtype=np.int64).reshape(a.shape),
            np.array(rads, dtype=np.int64).reshape(a.shape),
            np.array(rexps, dtype=np.int64).reshape(a.shape),
            other.reshape(a.shape),
            digits,
        )

    def _fields(self, key: Any) -> tuple[Any, ...]:
        sel = key if isinstance(key, tuple) else (key,)
        limbs = self.mid_limbs[sel + (slice(None),)] if Ellipsis not in sel else None
        if limbs is None:  # an Ellipsis: index the entries, keep the digit axis
            flat = np.arange(self.size).reshape(self.shape)[key]
            limbs = self.mid_limbs.reshape(-1, self.mid_limbs.shape[-1])[np.asarray(flat)]
        other = self.other[key] if self.other is not None else None
        return limbs, self.sign[key], self.exp[key], self.rad_man[key], self.rad_exp[key], other

    def _take(self, key: Any) -> Any:
        limbs, sign, exp, rad, rexp, other = self._fields(key)
        if isinstance(sign, np.ndarray):
            return BallArray.of(limbs, sign, exp, rad, rexp, other, self.digits)
        if other is not None:
            return other
        (m,) = limbs_to_ints(np.asarray(limbs).reshape(1, -1))
        return _ball(int(sign) * m, int(exp), int(rad), int(rexp))

    def reshape(self, *shape: Any) -> BallArray:
        """The same balls in another shape."""
        sign = self.sign.reshape(*shape)
        other = self.other.reshape(*shape) if self.other is not None else None
        return BallArray.of(
            self.mid_limbs.reshape(sign.shape + (-1,)),
            sign,
            self.exp.reshape(*shape),
            self.rad_man.reshape(*shape),
            self.rad_exp.reshape(*shape),
            other,
            self.digits,
        )

    def _mids(self) -> list[int]:
        ints = limbs_to_ints(self.mid_limbs.reshape(-1, self.mid_limbs.shape[-1]))
        return [s * m for s, m in zip(self.sign.reshape(-1).tolist(), ints, strict=True)]

    def to_balls(self) -> np.ndarray:
        """The read-only object array of :class:`Ball` (what ``enclose`` returned before)."""
        mids = self._mids()
        flat = np.empty(len(mids), dtype=object)
        flat[:] = [
            _ball(m, e, r, re)
            for m, e, r, re in zip(
                mids,
                self.exp.reshape(-1).tolist(),
                self.rad_man.reshape(-1).tolist(),
                self.rad_exp.reshape(-1).tolist(),
                strict=True,
            )
        ]
        if self.other is not None:
            o = self.other.reshape(-1)
            for n in np.flatnonzero(o != None).tolist():  # noqa: E711 - elementwise
                flat[n] = o[n]
        out = flat.reshape(self.shape)
        out.flags.writeable = False
        return out

    _objects = to_balls

    def mid(self) -> np.ndarray:
        """The centres as float64, to about a unit in the last place (not certified: the balls
        are ``to_balls()``)."""
        out = self._float_mids()
        if self.other is not None:
            for idx in map(tuple, np.argwhere(self.other != None).tolist()):  # noqa: E711
                out[idx] = float(self.other[idx].mid)
        return out

    def _float_mids(self) -> np.ndarray:
        top = self.mid_limbs.shape[-1]
        # the top three digits carry 72 bits: enough for a double, rounded once per digit
        acc = np.zeros(self.shape)
        for k in range(top - 1, max(top - 4, -1), -1):
            acc = acc * float(1 << LIMB_BITS) + self.mid_limbs[..., k].astype(np.float64)
        low = max(top - 3, 0)
        with np.errstate(all="ignore"):
            out: np.ndarray = self.sign * np.ldexp(
                acc, np.clip(self.exp + LIMB_BITS * low, -1100, 1100).astype(np.int32)
            )
        return out

    def rad(self) -> np.ndarray:
        """The radii as float64, rounded up (at least the true radius)."""
        with np.errstate(all="ignore"):
            r = np.ldexp(
                self.rad_man.astype(np.float64), np.clip(self.rad_exp, -1100, 1100).astype(np.int32)
            )
        r = np.asarray(np.where(self.rad_man > 1 << 53, np.nextafter(r, np.inf), r))
        if self.other is not None:
            for idx in map(tuple, np.argwhere(self.other != None).tolist()):  # noqa: E711
                ball = self.other[idx]
                r[idx] = np.nextafter(float(ball.radius), np.inf) if ball.radius else 0.0
        return r

    def contains(self, x: Any) -> np.ndarray:
        """Whether each ball holds the matching entry of ``x`` (exact numbers: ``Fraction``,
        ``int``, ``Decimal``, float, broadcast to the shape), decided exactly."""
        xs = np.broadcast_to(np.asarray(x, dtype=object), self.shape).reshape(-1).tolist()
        balls = self.to_balls().reshape(-1).tolist()
        return np.array([v in b for v, b in zip(xs, balls, strict=True)]).reshape(self.shape)

    def __repr__(self) -> str:
        extra = "" if self.digits is None else f", digits={self.digits}"
        return _array_text("BallArray", self._summary(), extra)

    def __str__(self) -> str:
        return np.array2string(self._summary(), formatter={"all": _entry_text}, threshold=1000)


def _parts(b: Ball) -> tuple[int, int, int, int, int] | None:
    """``(|m|, sign, e, r, re)`` of a dyadic ball (``None``: held as it is)."""
    d = b._dyadic
    if d is None:
        lo, hi = b.lower, b.upper
        if lo != hi or lo.denominator & (lo.denominator - 1):
            return None
        e = -(lo.denominator.bit_length() - 1)
        m, r, re = lo.numerator, 0, 0
    else:
        m, r, e = d
        re = e
        if r:
            tz = (r & -r).bit_length() - 1
            r, re = r >> tz, e + tz
        if r >= 1 << 62:
            return None
    return abs(m), (m > 0) - (m < 0), e, r, re


def _ball(m: int, e: int, r: int, re: int) -> Ball:
    """The Ball of centre ``m 2**e`` and radius ``r 2**re``."""
    ball = Ball.__new__(Ball)
    if r == 0:
        ball.__dict__["_dyadic"] = (m, 0, e)
        return ball
    base = min(e, re)
    ball.__dict__["_dyadic"] = (m << (e - base), r << (re - base), base)
    return ball
