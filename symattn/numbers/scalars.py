"""One number of any kind as an exact value: Python, numpy, Decimal, sympy, torch or text.

A float is read through its shortest repr (``0.1`` is 1/10) unless ``exact_float=True``
asks for its exact binary value. NaN, infinities and booleans are refused with a message
that says why.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import NumberError
from symattn.numbers.format import ratio_text
from symattn.numbers.interop import (
    from_torch,
    is_sympy,
    is_torch,
    plain_array,
    sympy_fraction,
)
from symattn.numbers.written import (
    Written,
    WrittenKind,
    bits_of,
    check_decimal,
    decimal_written,
    literal_limit,
    parse_number,
    significant_digits,
)

__all__ = ["as_written", "bool_error", "check_finite_float", "to_fraction", "total_bits"]


def total_bits(values: Iterable[object]) -> int:
    """The bits of the Fractions among ``values`` (what :attr:`Limits.max_bits` bounds)."""
    return sum(bits_of(v) for v in values if isinstance(v, Fraction))


def _sized(x: Fraction, what: str, limits: Limits) -> Fraction:
    """``x``, unless it alone is larger than ``max_bits``."""
    limits.check_bits(bits_of(x), what)
    return x


def bool_error(x: object, what: str) -> NumberError:
    """The error for a boolean where a number belongs."""
    return NumberError(
        f"{what} is the boolean {x!r}, not a number; a boolean belongs in a mask (use it as a mask)"
    )


def check_finite_float(x: float, what: str) -> None:
    """Refuse NaN and infinities, naming ``what``."""
    if x != x:
        raise NumberError(f"{what} is NaN; attention inputs must be finite")
    if x in (float("inf"), float("-inf")):
        raise NumberError(f"{what} is {'-' if x < 0 else '+'}inf; attention inputs must be finite")


def as_written(x: object, *, limits: Limits = DEFAULT_LIMITS, what: str = "number") -> Written:
    """Any number as a :class:`Written`: text parsed, Decimals keep their digits, floats by repr."""
    if isinstance(x, Written):
        return x
    if isinstance(x, str):
        return parse_number(x, limits=limits, what=what)
    if isinstance(x, (bool, np.bool_)):
        raise bool_error(x, what)
    if isinstance(x, (int, np.integer)):
        n = int(x)
        if n.bit_length() > 4 * limits.max_literal_length + 4:
            raise literal_limit(int(n.bit_length() * 0.30103) + 1, limits)
        _sized(Fraction(n), what, limits)
        text = str(n)
        if len(text) > limits.max_literal_length:
            raise literal_limit(len(text), limits)
        return Written(
            Fraction(n), text, WrittenKind.INTEGER, 0, significant_digits(text.lstrip("-"))
        )
    if isinstance(x, Decimal):
        return decimal_written(x, what, limits)
    if isinstance(x, np.floating):  # np.float64 is a float subclass; its str is the shortest repr
        check_finite_float(float(x), what)
        return parse_number(str(x), limits=limits, what=what)
    if isinstance(x, float):  # a subclass by its own value, never by its own repr()
        v = float.__float__(x)
        check_finite_float(v, what)
        return parse_number(float.__repr__(v), limits=limits, what=what)
    if isinstance(x, Fraction):
        _sized(x, what, limits)
        return Written(x, ratio_text(x), WrittenKind.FRACTION, None, None)
    if is_sympy(x) and getattr(x, "is_Float", False):
        to_fraction(x, what=what, limits=limits)  # finiteness and limits
        return parse_number(str(x), limits=limits, what=what)
    value = to_fraction(x, what=what, limits=limits)
    if value.denominator == 1:
        return as_written(value.numerator, limits=limits, what=what)
    return Written(value, ratio_text(value), WrittenKind.FRACTION, None, None)


def to_fraction(
    x: object, *, exact_float: bool = False, what: str = "value", limits: Limits = DEFAULT_LIMITS
) -> Fraction:
    """``x`` as an exact Fraction; floats through their shortest repr unless ``exact_float``."""
    if isinstance(x, Fraction):
        return _sized(x, what, limits)
    if isinstance(x, (bool, np.bool_)):
        raise bool_error(x, what)
    if isinstance(x, int):
        return _sized(Fraction(x), what, limits)
    if isinstance(x, np.floating):
        check_finite_float(float(x), what)
        if exact_float:
            return Fraction(*x.as_integer_ratio())
        return Fraction(str(x))
    if isinstance(x, float):  # a subclass by its own value, never by its own repr()
        v = float.__float__(x)
        check_finite_float(v, what)
        return Fraction(v) if exact_float else Fraction(float.__repr__(v))
    if isinstance(x, str):
        return parse_number(x, limits=limits, what=what).value
    if isinstance(x, Decimal):
        check_decimal(x, what, limits)
        return Fraction(x)
    if isinstance(x, Written):
        return x.value
    if isinstance(x, np.integer):
        return Fraction(int(x))  # at most 64 bits
    if isinstance(x, np.ndarray) and x.ndim == 0:
        plain: np.ndarray = plain_array(x, what)
        return to_fraction(plain[()], exact_float=exact_float, what=what, limits=limits)
    if is_sympy(x):
        return sympy_fraction(x, exact_float, what, limits)
    if is_torch(x):
        arr = from_torch(x)
        if arr.ndim == 0:
            return to_fraction(arr[()], exact_float=exact_float, what=what, limits=limits)
        raise NumberError(f"{what} is a tensor of shape {tuple(arr.shape)}, not a single number")
    if not isinstance(x, (complex, np.complexfloating)):
        num, den = getattr(x, "numerator", None), getattr(x, "denominator", None)
        if num is not None and den is not None:
            try:
                n, d = operator.index(num), operator.index(den)
            except TypeError:
                pass
            else:
                if d == 0:
                    raise NumberError(f"{what} has denominator 0")
                return _sized(Fraction(n, d), what, limits)
    raise NumberError(
        f"{what} is of type {type(x).__name__}, which is not a number symattn can read exactly"
    )
