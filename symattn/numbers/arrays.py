"""Arrays of numbers as exact values: nested lists, numpy arrays, torch tensors.

:func:`to_exact_array` checks nesting and size before converting anything, names the entry
that is wrong (``Q[1][0]``), and returns a read-only object array of ``Fraction`` (and
``NEG_INF`` where an additive mask allows minus infinity). :func:`read_array` reads the same
values without a Python object per entry where it can: binary floats stay a float64 array
(their exact values), decimals become integers over one power of ten (:class:`ExactArray`).

Nested lists of integers, Decimals, Fractions and text (what a spec parser hands over) are
converted once per distinct entry, and equal entries share one ``Fraction``: a matrix of short
decimals costs a pointer per entry, not an object (:func:`_shared_values`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import chain, repeat

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError, NumberError, ShapeError
from symattn.numbers.interop import from_torch, is_sympy, is_torch, plain_array
from symattn.numbers.scalars import check_finite_float, to_fraction, total_bits
from symattn.numbers.written import NEG_INF, NegInf, bits_of, excerpt, is_neg_inf_text

__all__ = ["ExactArray", "read_array", "to_exact_array"]


def _entries(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def _loc(index: tuple[int, ...]) -> str:
    return "".join(f"[{i}]" for i in index)


def _is_neg_inf_obj(x: object) -> bool:
    """True for the ways minus infinity arrives: NEG_INF, a float, text, a Decimal, sympy -oo."""
    if x is NEG_INF:
        return True
    if isinstance(x, float):  # a subclass by its own value
        return float.__float__(x) == float("-inf")
    if isinstance(x, np.floating):
        return bool(x == float("-inf"))
    if isinstance(x, str):
        return is_neg_inf_text(x)
    if isinstance(x, Decimal):
        return x.is_infinite() and x.is_signed()
    return is_sympy(x) and type(x).__name__ == "NegativeInfinity"


def _element(
    x: object, exact_float: bool, allow_neg_inf: bool, what: str, limits: Limits
) -> Fraction | NegInf:
    if allow_neg_inf and _is_neg_inf_obj(x):
        return NEG_INF
    if x is NEG_INF:
        raise NumberError(f"{what} is -inf, which is only allowed in an additive mask")
    if isinstance(x, str) and is_neg_inf_text(x):
        raise NumberError(
            f"{what} is {excerpt(x)}; minus infinity is only allowed in an additive mask"
        )
    return to_fraction(x, exact_float=exact_float, what=what, limits=limits)


def _as_seq(x: object) -> Sequence[object] | np.ndarray | None:
    """``x`` when it is a list level (a list, a tuple, an array of at least one dimension)."""
    if isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim > 0):
        return x
    return None


def _check_size(shape: tuple[int, ...], what: str, limits: Limits) -> None:
    if len(shape) > limits.max_nesting:
        raise LimitError(
            f"{what} is nested {len(shape)} levels deep, beyond max_nesting={limits.max_nesting} "
            "(raise it with Limits(max_nesting=...))"
        )
    limits.check_elements(shape, what)


def _finish(values: list[Fraction | NegInf], shape: tuple[int, ...]) -> np.ndarray:
    out = np.fromiter(values, dtype=object, count=len(values)).reshape(shape)
    out.flags.writeable = False
    return out


def _numeric_array(
    arr: np.ndarray, exact_float: bool, allow_neg_inf: bool, what: str, limits: Limits
) -> np.ndarray:
    """Convert an int/float numpy array (vectorized checks; each distinct value converted once)."""
    flat = arr.reshape(-1)
    if arr.dtype.kind in "iu":
        return _finish([Fraction(v) for v in flat.tolist()], arr.shape)
    bad = np.isnan(flat) | np.isposinf(flat)
    neg = np.isneginf(flat)
    if not allow_neg_inf:
        bad |= neg
    if bad.any():
        i = int(np.argmax(bad))
        index = np.unravel_index(i, arr.shape) if arr.ndim else ()
        check_finite_float(float(flat[i]), f"{what}{_loc(tuple(int(k) for k in index))}")
    finite = ~neg
    values: list[Fraction | NegInf] = [NEG_INF] * flat.size
    if finite.any():
        uniq, inverse = np.unique(flat[finite], return_inverse=True)
        if exact_float:
            converted = [Fraction(*v.as_integer_ratio()) for v in uniq]
        else:
            converted = [Fraction(str(v)) for v in uniq]
        for pos, k in zip(
            np.flatnonzero(finite).tolist(), inverse.reshape(-1).tolist(), strict=True
        ):
            values[pos] = converted[k]
    return _finish(values, arr.shape)


#: entry types whose equal values are one exact value, so one conversion may serve them all
#: (not float: read by its repr, and ``0.1 == Decimal(0.1)``; not bool: ``True == 1``, refused)
_SHAREABLE = frozenset({int, Decimal, Fraction, str})
#: distinct values remembered while reading one array (here) or one spec (``spec.load``,
#: ``spec.fields``); a value past this many is read each time it comes (all-distinct values
#: would only cost the memory of remembering them)
MAX_SHARED = 1 << 16


class _Once(dict[object, "Fraction | NegInf"]):
    """Each distinct entry converted once (``__missing__``); equal entries get the same value.
    Past :data:`MAX_SHARED` entries a new one is converted without being remembered, and its
    bits are added to ``unshared_bits``."""

    __slots__ = ("convert", "unshared_bits")

    def __init__(self, convert: Callable[[object], Fraction | NegInf]) -> None:
        super().__init__()
        self.convert = convert
        self.unshared_bits = 0

    def __missing__(self, key: object) -> Fraction | NegInf:
        value = self.convert(key)
        if len(self) < MAX_SHARED:
            self[key] = value
        elif isinstance(value, Fraction):
            self.unshared_bits += bits_of(value)
        return value


def _flat_entries(x: object, shape: tuple[int, ...]) -> list[object] | None:
    """The entries of nested lists (or tuples) of exactly ``shape``, in order, when each is an
    int, Decimal, Fraction or text; None otherwise (ragged, or other kinds of entries: the
    entry-by-entry walk then says where). A few C-speed passes, one per level."""
    level: list[object] = [x]
    for n in shape:
        if not set(map(type, level)) <= {list, tuple} or set(map(len, level)) != {n}:  # type: ignore[arg-type]
            return None
        level = list(chain.from_iterable(level))  # type: ignore[arg-type]
    return level if set(map(type, level)) <= _SHAREABLE else None


def _shared_values(
    entries: list[object], convert: Callable[[object], Fraction | NegInf]
) -> tuple[list[Fraction | NegInf], int]:
    """``entries`` converted, each distinct one once, and their bits (what ``max_bits``
    bounds, counted per entry); raises what ``convert`` raises, or a TypeError for an
    unhashable entry (``Decimal('sNaN')``)."""
    once = _Once(convert)
    values = list(map(once.__getitem__, entries))
    bits = {k: bits_of(v) if isinstance(v, Fraction) else 0 for k, v in once.items()}
    total = sum(map(bits.get, entries, repeat(0))) + once.unshared_bits
    return values, total


def to_exact_array(
    x: object,
    *,
    exact_float: bool = False,
    allow_neg_inf: bool = False,
    what: str = "value",
    limits: Limits = DEFAULT_LIMITS,
) -> np.ndarray:
    """Nested lists, a numpy array, a torch tensor or a scalar as a read-only array of Fractions.

    With ``allow_neg_inf``, minus infinity (``-inf``, ``−inf``, ``-∞``, float -inf) is ``NEG_INF``.
    """
    if is_torch(x):
        x = from_torch(x)
    x = plain_array(x, what)
    if isinstance(x, np.ndarray):
        _check_size(x.shape, what, limits)
        kind = x.dtype.kind
        if kind == "b":
            raise NumberError(
                f"{what} is a boolean array, not numbers; "
                "a boolean array belongs in a mask (use it as a mask)"
            )
        if kind == "c":
            raise NumberError(f"{what} is a complex array; attention inputs must be real numbers")
        if kind in "iuf":
            return _numeric_array(x, exact_float, allow_neg_inf, what, limits)
        if kind not in "OU":
            raise NumberError(
                f"{what} is an array of dtype {x.dtype}, which symattn cannot read as numbers"
            )
        if x.ndim == 0:
            x = x[()]
        # object and string arrays: walk them like nested lists
    shape_list: list[int] = []
    node = _as_seq(x)
    while node is not None:
        shape_list.append(len(node))
        if len(shape_list) > limits.max_nesting:
            _check_size(tuple(shape_list), what, limits)
        if len(node) == 0:
            break
        node = _as_seq(node[0])
    shape = tuple(shape_list)
    _check_size(shape, what, limits)
    entries = _flat_entries(x, shape)
    if entries is not None:
        try:
            shared, bits = _shared_values(
                entries, lambda v: _element(v, exact_float, allow_neg_inf, what, limits)
            )
        except (InputError, TypeError):
            pass  # the walk below converts again and names the entry
        else:
            del entries
            limits.check_bits(bits, what)
            return _finish(shared, shape)
        del entries
    values: list[Fraction | NegInf] = []

    def fill(item: object, index: tuple[int, ...]) -> None:
        level = len(index)
        seq = _as_seq(item)
        if level == len(shape):
            if seq is not None:
                raise ShapeError(
                    f"ragged {what}: {what}{_loc(index)} is a list, "
                    "but entries at this depth are numbers"
                )
            try:
                values.append(_element(item, exact_float, allow_neg_inf, what, limits))
            except InputError:
                # convert again naming the entry, so the message says where the problem is
                values.append(
                    _element(item, exact_float, allow_neg_inf, f"{what}{_loc(index)}", limits)
                )
            return
        if seq is None:
            raise ShapeError(
                f"ragged {what}: {what}{_loc(index)} is a single value, "
                f"but a list of {shape[level]} was expected"
            )
        if len(seq) != shape[level]:
            first = _loc(index[:-1] + (0,)) if index else ""
            raise ShapeError(
                f"ragged {what}: {what}{_loc(index)} has {_entries(len(seq))} "
                f"but {what}{first} has {_entries(shape[level])}"
            )
        for i, sub in enumerate(seq):
            fill(sub, index + (i,))

    fill(x, ())
    limits.check_bits(total_bits(values), what)  # text, Decimal, Fraction: bounded in all
    return _finish(values, shape)


@dataclass(frozen=True)
class ExactArray:
    """An array read exactly: binary floats kept as float64 (``floats``: their values are the
    exact entries), or integers over one denominator (``ints / den``; int64, or Python integers
    in an object array). ``neg_inf`` marks minus infinity (an additive mask; the entry holds 0).
    """

    floats: np.ndarray | None
    ints: np.ndarray | None
    den: int
    neg_inf: np.ndarray | None

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
        a = self.floats if self.floats is not None else self.ints
        assert a is not None
        return tuple(a.shape)

    def fractions(self) -> np.ndarray:
        """The entries as a read-only object array of ``Fraction`` (``NEG_INF`` at ``neg_inf``)."""
        if self.floats is not None:
            flat = [Fraction(*v.as_integer_ratio()) for v in self.floats.reshape(-1).tolist()]
        else:
            assert self.ints is not None
            den = self.den
            flat = [Fraction(int(i), den) for i in self.ints.reshape(-1).tolist()]
        values: list[Fraction | NegInf] = list(flat)
        if self.neg_inf is not None:
            for pos in np.flatnonzero(self.neg_inf).tolist():
                values[pos] = NEG_INF
        return _finish(values, self.shape)


#: significand bits of the binary float formats numpy holds, by item size
_PRECISION = {2: 11, 4: 24, 8: 53}


def _int_array(ints: list[int], shape: tuple[int, ...]) -> np.ndarray:
    if all(-(2**62) < i < 2**62 for i in ints):
        return np.array(ints, dtype=np.int64).reshape(shape)
    out = np.empty(len(ints), dtype=object)
    out[:] = ints
    return out.reshape(shape)


def _decimal_digits(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(m, k, ok)``: where ``ok``, the entry's shortest repr is exactly ``m / 10**k``.

    For the smallest ``k`` with ``fl(m / 10**k) == a`` (``m`` and ``10**k`` exact doubles,
    ``|m| < 2**(p-1)`` for a format of ``p`` significand bits), the rounding interval of
    ``a`` is narrower than ``10**-k``: ``m / 10**k`` is the only decimal with ``k`` places
    that rounds to ``a``, and none has fewer, so it is what the shortest repr reads. For
    float32 and float16 the float64 quotient is rounded again to the format; a quotient that
    lands exactly on a midpoint of the format is left to the repr (``ok`` false).
    """
    bits = _PRECISION[a.dtype.itemsize]
    af = a.astype(np.float64)
    m_out = np.zeros(a.shape)
    k_out = np.zeros(a.shape, dtype=np.int64)
    ok = np.zeros(a.shape, dtype=bool)
    todo = np.flatnonzero(np.ones(a.shape, dtype=bool))
    flat_a, flat_af = a.reshape(-1), af.reshape(-1)
    m_flat, k_flat, ok_flat = m_out.reshape(-1), k_out.reshape(-1), ok.reshape(-1)
    for k in range(23):  # 10**k is an exact double for k <= 22
        if todo.size == 0:
            break
        pk = 10.0**k
        with np.errstate(over="ignore", invalid="ignore"):
            m = np.round(flat_af[todo] * pk)
            fits = np.abs(m) < 2.0 ** (bits - 1)
            quotient = m / pk  # correctly rounded: both operands exact
            back = quotient.astype(a.dtype)
            hit = fits & (back == flat_a[todo])
            if bits < 53:  # double rounding: refuse a float64 quotient on a midpoint
                half = np.spacing(np.abs(back)).astype(np.float64) / 2
                hit &= np.abs(quotient - back.astype(np.float64)) != half
        done = todo[hit]
        m_flat[done], k_flat[done], ok_flat[done] = m[hit], k, True
        todo = todo[~hit & fits]  # past 2**(p-1) more places cannot help
    return m_out, k_out, ok


def _read_decimal_floats(a: np.ndarray) -> tuple[np.ndarray, int]:
    """A float array read through each entry's shortest repr, as ``(ints, den)``: vectorised
    where :func:`_decimal_digits` decides, by the repr of each distinct other value."""
    m, k, ok = _decimal_digits(a)
    kmax = int(k.max(initial=0))
    rest = ~ok
    extra: dict[float, Fraction] = {}
    den = 10**kmax
    if rest.any():
        for v in np.unique(a[rest]):
            extra[float(v)] = Fraction(str(v))
        den = math.lcm(den, *(f.denominator for f in extra.values()))
    if not extra and float(np.abs(m).max(initial=0.0)) * 10.0**kmax < 2.0**62:
        ints = m.astype(np.int64) * (10 ** (kmax - k))
        return ints, den
    flat_m = m.reshape(-1).tolist()
    flat_k = k.reshape(-1).tolist()
    flat_ok = ok.reshape(-1).tolist()
    flat_a = a.reshape(-1).tolist()
    out: list[int] = []
    for mv, kv, good, av in zip(flat_m, flat_k, flat_ok, flat_a, strict=True):
        if good:
            out.append(int(mv) * (den // 10**kv))
        else:
            f = extra[float(av)]
            out.append(f.numerator * (den // f.denominator))
    return _int_array(out, a.shape), den


def _fractions_to_ints(values: np.ndarray) -> tuple[np.ndarray, int]:
    flat = [f for f in values.reshape(-1).tolist() if f is not NEG_INF]
    den = math.lcm(*{f.denominator for f in flat}) if flat else 1
    ints = [
        0 if f is NEG_INF else f.numerator * (den // f.denominator)
        for f in values.reshape(-1).tolist()
    ]
    return _int_array(ints, values.shape), den


def read_array(
    x: object,
    *,
    exact_float: bool = False,
    allow_neg_inf: bool = False,
    what: str = "value",
    limits: Limits = DEFAULT_LIMITS,
) -> ExactArray:
    """The values :func:`to_exact_array` reads, without a Python object per entry for numpy
    arrays and torch tensors of floats (float16, float32, float64; bfloat16 through float32)
    and integers."""
    if is_torch(x):
        x = from_torch(x)
    x = plain_array(x, what)
    if isinstance(x, np.ndarray) and x.dtype.kind in "fiu":
        _check_size(x.shape, what, limits)
        if x.dtype.kind in "iu":
            if x.dtype.kind == "u" and x.size and int(x.max()) >= 2**63:
                return ExactArray(None, _int_array(x.reshape(-1).tolist(), x.shape), 1, None)
            return ExactArray(None, x.astype(np.int64), 1, None)
        if x.dtype.itemsize in _PRECISION:
            flat = x.reshape(-1)
            bad = np.isnan(flat) | np.isposinf(flat)
            neg = np.isneginf(flat)
            if not allow_neg_inf:
                bad |= neg
            if bad.any():
                i = int(np.argmax(bad))
                index = np.unravel_index(i, x.shape) if x.ndim else ()
                check_finite_float(float(flat[i]), f"{what}{_loc(tuple(int(k) for k in index))}")
            neg_inf = neg.reshape(x.shape) if neg.any() else None
            clean = np.where(neg_inf, 0, x) if neg_inf is not None else x
            if exact_float:
                return ExactArray(np.array(clean, dtype=np.float64), None, 1, neg_inf)
            ints, den = _read_decimal_floats(np.asarray(clean))
            return ExactArray(None, ints, den, neg_inf)
    values = to_exact_array(
        x, exact_float=exact_float, allow_neg_inf=allow_neg_inf, what=what, limits=limits
    )
    neg_inf = (
        np.vectorize(lambda v: v is NEG_INF, otypes=[bool])(values)
        if allow_neg_inf and values.size
        else None
    )
    if neg_inf is not None and not neg_inf.any():
        neg_inf = None
    ints, den = _fractions_to_ints(values)
    return ExactArray(None, ints, den, neg_inf)
