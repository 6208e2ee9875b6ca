"""The exact-number layer: what people write, and Python/numpy/torch objects, as exact Fractions.

``parse_number`` reads untrusted text with a small regular grammar (never ``eval``/``sympify``)
and remembers how the number was written (:class:`Written`), because a claim like ``0.34``
only promises two decimals. ``to_fraction`` and ``to_exact_array`` turn numbers and arrays
into exact values; a float is read through its shortest repr (``0.1`` is 1/10) unless
``exact_float=True`` asks for its exact binary value.
"""

from __future__ import annotations

import operator
import re
import sys
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Final

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError, NumberError, ShapeError

__all__ = [
    "NEG_INF",
    "NegInf",
    "Written",
    "as_written",
    "is_neg_inf_text",
    "parse_number",
    "to_exact_array",
    "to_fraction",
]


class NegInf:
    """The "masked" entry of an additive mask (minus infinity); use the singleton ``NEG_INF``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "-inf"

    def __str__(self) -> str:
        return "-inf"

    def __reduce__(self) -> str:
        # pickle and copy hand back the module-level singleton
        return "NEG_INF"


NEG_INF: Final[NegInf] = NegInf()

_KINDS: Final = ("integer", "decimal", "scientific", "fraction")

# One-character replacements applied before NFKC: minus signs NFKC leaves alone, fraction slashes.
_CHAR_MAP: Final = {"\u2212": "-", "\u2044": "/", "\u2215": "/"}
# Compatibility tags whose NFKC image is the same number (fullwidth, small, math-font digits, ½).
# Superscripts/subscripts/circled digits are left as they are, so "10²" is an error, not 102.
_SAFE_TAGS: Final = ("<wide>", "<small>", "<font>", "<fraction>", "<noBreak>")

_DECIMAL_RE: Final = re.compile(
    r"(?P<sign>[+-])?(?:(?P<int>[0-9]+)(?:\.(?P<frac>[0-9]*))?|\.(?P<frac2>[0-9]+))"
    r"(?:[eE](?P<esign>[+-])?(?P<exp>[0-9]+))?",
    re.ASCII,
)
_FRACTION_RE: Final = re.compile(
    r"(?P<sign>[+-])?(?P<num>[0-9]+)[ ]*/[ ]*(?P<dsign>[+-])?(?P<den>[0-9]+)", re.ASCII
)
_SEPARATOR_RE: Final = re.compile(r"[0-9][,_ '\u00a0\u202f][0-9]")
_NEG_INF_TEXTS: Final = frozenset({"-inf", "-infinity", "-∞"})
_SHOW: Final = 40


@dataclass(frozen=True)
class Written:
    """A number as a person wrote it: the exact value plus how it was written."""

    value: Fraction
    text: str
    kind: str
    decimals: int | None
    significant: int | None

    @property
    def half_unit(self) -> Fraction | None:
        """Half a unit in the last written place (``0.34`` -> 1/200, ``1.2e3`` -> 50)."""
        if self.kind == "fraction" or self.decimals is None:
            return None
        place = -self.decimals
        if self.kind == "scientific":
            match = _DECIMAL_RE.fullmatch(_normalize(self.text))
            if (
                match is not None
                and match["exp"] is not None
                and len(match["exp"].lstrip("0")) < 12
            ):
                frac = match["frac"] if match["frac"] is not None else (match["frac2"] or "")
                exponent = int(match["exp"]) * (-1 if match["esign"] == "-" else 1)
                place = max(place, exponent - len(frac))
        return Fraction(10) ** place / 2

    def __str__(self) -> str:
        return self.text


def _show(text: str) -> str:
    """The offending text, cut to about 40 characters, quoted."""
    if len(text) > _SHOW:
        text = text[:_SHOW] + "…"
    return repr(text)


def _literal_limit(length: int, limits: Limits) -> LimitError:
    return LimitError(
        f"number literal of {length} characters exceeds "
        f"max_literal_length={limits.max_literal_length} "
        "(raise it with Limits(max_literal_length=...))"
    )


def _exponent_limit(shown: str, limits: Limits) -> LimitError:
    return LimitError(
        f"exponent {shown} exceeds max_decimal_exponent={limits.max_decimal_exponent} "
        "(raise it with Limits(max_decimal_exponent=...))"
    )


def _normalize(text: str) -> str:
    """Map fullwidth digits/signs/point and unicode minus signs to ASCII, then strip spaces."""
    if text.isascii():
        return text.strip()
    chars: list[str] = []
    for ch in text:
        if ch.isascii():
            chars.append(ch)
        elif ch in _CHAR_MAP:
            chars.append(_CHAR_MAP[ch])
        elif unicodedata.decomposition(ch).startswith(_SAFE_TAGS):
            chars.append(unicodedata.normalize("NFKC", ch))
        else:
            chars.append(ch)
    return "".join(chars).replace("\u2044", "/").strip()


def is_neg_inf_text(text: str) -> bool:
    """True for text meaning minus infinity: ``-inf``, ``−inf``, ``-∞``, ``-infinity``."""
    if not isinstance(text, str) or len(text) > 32:
        return False
    return _normalize(text).lower() in _NEG_INF_TEXTS


def _significant(digits: str) -> int:
    """Significant digits as written: leading zeros do not count; zero has 1."""
    return max(1, len(digits.lstrip("0")))


def parse_number(text: str, *, limits: Limits = DEFAULT_LIMITS, what: str = "number") -> Written:
    """Read ``12``, ``-0.340``, ``1.2e-3``, ``3/4`` (fullwidth too) as an exact :class:`Written`."""
    if not isinstance(text, str):
        raise NumberError(f"{what}: expected number text, got {type(text).__name__}")
    stripped = text.strip()
    if len(stripped) > limits.max_literal_length:
        raise _literal_limit(len(stripped), limits)
    norm = _normalize(stripped)
    if len(norm) > limits.max_literal_length:
        raise _literal_limit(len(norm), limits)

    match = _DECIMAL_RE.fullmatch(norm)
    if match is not None:
        return _from_decimal_match(match, stripped, limits)
    match = _FRACTION_RE.fullmatch(norm)
    if match is not None:
        den = _int(match["den"], limits)
        if den == 0:
            raise NumberError(f"{_show(stripped)} has denominator 0 (in {what})")
        negative = (match["sign"] == "-") != (match["dsign"] == "-")
        value = Fraction(_int(match["num"], limits), den)
        return Written(-value if negative else value, stripped, "fraction", None, None)

    hint = ""
    if _SEPARATOR_RE.search(norm):
        hint = "; write digits without separators and use '.' as the decimal point"
    raise NumberError(f"cannot read {_show(stripped)} as a number (in {what}){hint}")


def _int(digits: str, limits: Limits) -> int:
    """``int(digits)``; past Python's ``int_max_str_digits`` a LimitError, not a bare ValueError."""
    try:
        return int(digits)
    except ValueError:
        raise LimitError(
            f"number literal of {len(digits)} digits is more than Python converts "
            f"(sys.get_int_max_str_digits() = {sys.get_int_max_str_digits()}); "
            f"max_literal_length={limits.max_literal_length} is set above it"
        ) from None


def _from_decimal_match(match: re.Match[str], text: str, limits: Limits) -> Written:
    """Build a Written from a match of ``_DECIMAL_RE`` (exponent checked before int())."""
    int_digits = match["int"] or ""
    frac_digits = match["frac"] if match["frac"] is not None else (match["frac2"] or "")
    has_point = match["frac"] is not None or match["frac2"] is not None
    exponent = 0
    if match["exp"] is not None:
        exp_digits = match["exp"].lstrip("0")
        if len(exp_digits) > len(str(limits.max_decimal_exponent)):
            raise _exponent_limit(_show(match["exp"]), limits)
        exponent = int(exp_digits or "0") * (-1 if match["esign"] == "-" else 1)
        if abs(exponent) > limits.max_decimal_exponent:
            raise _exponent_limit(str(exponent), limits)
    mantissa = _int(int_digits + frac_digits or "0", limits)
    shift = exponent - len(frac_digits)
    value = Fraction(mantissa * 10**shift) if shift >= 0 else Fraction(mantissa, 10**-shift)
    if match["sign"] == "-":
        value = -value
    if match["exp"] is not None:
        kind = "scientific"
    elif has_point:
        kind = "decimal"
    else:
        kind = "integer"
    return Written(value, text, kind, max(0, -shift), _significant(int_digits + frac_digits))


def _check_decimal(x: Decimal, what: str, limits: Limits) -> None:
    """Reject non-finite Decimals and ones beyond the limits (before any power of ten is built)."""
    if x.is_nan():
        raise NumberError(f"{what} is NaN; attention inputs must be finite")
    if x.is_infinite():
        raise NumberError(
            f"{what} is {'-' if x.is_signed() else '+'}infinity; attention inputs must be finite"
        )
    sign, digits, exponent = x.as_tuple()
    if len(digits) > limits.max_literal_length:
        raise _literal_limit(len(digits), limits)
    if (
        not isinstance(exponent, int)
        or abs(exponent) > limits.max_decimal_exponent + limits.max_literal_length
    ):
        raise _exponent_limit(str(exponent), limits)


def _decimal_written(x: Decimal, what: str, limits: Limits) -> Written:
    """A Decimal keeps its written digits: ``Decimal('0.340')`` promises 3 decimals."""
    _check_decimal(x, what, limits)
    _, digits, raw_exponent = x.as_tuple()
    exponent = int(raw_exponent)  # finite, so an int (checked above)
    if exponent > 0:
        kind, text = "scientific", str(x)
    else:
        kind, text = ("decimal" if exponent < 0 else "integer"), format(x, "f")
    sig = _significant("".join(map(str, digits)))
    return Written(Fraction(x), text, kind, max(0, -exponent), sig)


def as_written(x: object, *, limits: Limits = DEFAULT_LIMITS, what: str = "number") -> Written:
    """Any number as a :class:`Written`: text parsed, Decimals keep their digits, floats by repr."""
    if isinstance(x, Written):
        return x
    if isinstance(x, str):
        return parse_number(x, limits=limits, what=what)
    if isinstance(x, (bool, np.bool_)):
        raise _bool_error(x, what)
    if isinstance(x, (int, np.integer)):
        n = int(x)
        if n.bit_length() > 4 * limits.max_literal_length + 4:
            raise _literal_limit(int(n.bit_length() * 0.30103) + 1, limits)
        text = str(n)
        if len(text) > limits.max_literal_length:
            raise _literal_limit(len(text), limits)
        return Written(Fraction(n), text, "integer", 0, _significant(text.lstrip("-")))
    if isinstance(x, Decimal):
        return _decimal_written(x, what, limits)
    if isinstance(x, float) and not isinstance(x, np.floating):
        _check_finite_float(x, what)
        return parse_number(repr(x), limits=limits, what=what)
    if isinstance(x, np.floating):  # np.float64 is a float subclass; its str is the shortest repr
        _check_finite_float(float(x), what)
        return parse_number(str(x), limits=limits, what=what)
    if isinstance(x, Fraction):
        return Written(x, str(x), "fraction", None, None)
    if _is_sympy(x) and getattr(x, "is_Float", False):
        to_fraction(x, what=what, limits=limits)  # finiteness and limits
        return parse_number(str(x), limits=limits, what=what)
    value = to_fraction(x, what=what, limits=limits)
    if value.denominator == 1:
        return as_written(value.numerator, limits=limits, what=what)
    return Written(value, str(value), "fraction", None, None)


def _bool_error(x: object, what: str) -> NumberError:
    return NumberError(
        f"{what} is the boolean {x!r}, not a number; a boolean belongs in a mask (use it as a mask)"
    )


def _check_finite_float(x: float, what: str) -> None:
    if x != x:
        raise NumberError(f"{what} is NaN; attention inputs must be finite")
    if x in (float("inf"), float("-inf")):
        raise NumberError(f"{what} is {'-' if x < 0 else '+'}inf; attention inputs must be finite")


def _is_sympy(x: object) -> bool:
    return type(x).__module__.startswith("sympy")


def is_torch(x: object) -> bool:
    module = type(x).__module__
    return (module == "torch" or module.startswith("torch.")) and hasattr(x, "detach")


def _sympy_fraction(x: object, exact_float: bool, what: str, limits: Limits) -> Fraction:
    """A sympy Integer/Rational exactly; a Float by its decimal string or exact binary value."""
    if getattr(x, "is_Rational", False):
        return Fraction(int(x.p), int(x.q))  # type: ignore[attr-defined]
    name = type(x).__name__
    if name in ("NaN", "Infinity", "NegativeInfinity", "ComplexInfinity"):
        raise NumberError(f"{what} is the sympy {name} {x}; attention inputs must be finite")
    if getattr(x, "is_Float", False):
        if not getattr(x, "is_finite", False):
            raise NumberError(f"{what} is {x} (a sympy Float); attention inputs must be finite")
        sign, man, exp, bc = x._mpf_  # type: ignore[attr-defined]
        if abs(exp + bc) > 4 * limits.max_decimal_exponent:  # 2**4 > 10: checked before str()
            raise _exponent_limit(f"2**{exp + bc}", limits)
        if not exact_float:
            return parse_number(str(x), limits=limits, what=what).value
        value = Fraction(man) * Fraction(2) ** exp
        return -value if sign else value
    raise NumberError(
        f"{what} is a sympy {type(x).__name__} ({_show(str(x))}), "
        "not an exact rational number or Float"
    )


def to_fraction(
    x: object, *, exact_float: bool = False, what: str = "value", limits: Limits = DEFAULT_LIMITS
) -> Fraction:
    """``x`` as an exact Fraction; floats through their shortest repr unless ``exact_float``."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (bool, np.bool_)):
        raise _bool_error(x, what)
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, float) and not isinstance(x, np.floating):
        _check_finite_float(x, what)
        return Fraction(x) if exact_float else Fraction(repr(x))
    if isinstance(x, str):
        return parse_number(x, limits=limits, what=what).value
    if isinstance(x, Decimal):
        _check_decimal(x, what, limits)
        return Fraction(x)
    if isinstance(x, Written):
        return x.value
    if isinstance(x, np.integer):
        return Fraction(int(x))
    if isinstance(x, np.floating):
        _check_finite_float(float(x), what)
        if exact_float:
            return Fraction(*x.as_integer_ratio())
        return Fraction(str(x))
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return to_fraction(x[()], exact_float=exact_float, what=what, limits=limits)
    if _is_sympy(x):
        return _sympy_fraction(x, exact_float, what, limits)
    if is_torch(x):
        arr = from_torch(x)
        if arr.ndim == 0:
            return to_fraction(arr[()], exact_float=exact_float, what=what, limits=limits)
        raise NumberError(f"{what} is a tensor of shape {tuple(arr.shape)}, not a single number")
    if not isinstance(x, (complex, np.complexfloating)):
        num, den = getattr(x, "numerator", None), getattr(x, "denominator", None)
        if num is not None and den is not None:
            try:
                n, d = operator.index(num), operator.index(den)  # type: ignore[arg-type]
            except TypeError:
                pass
            else:
                if d == 0:
                    raise NumberError(f"{what} has denominator 0")
                return Fraction(n, d)
    raise NumberError(
        f"{what} is of type {type(x).__name__}, which is not a number symattn can read exactly"
    )


def from_torch(t: object) -> np.ndarray:
    """A torch tensor as a numpy array (bfloat16 goes through ``.float()``, which is exact)."""
    t = t.detach().cpu()  # type: ignore[attr-defined]
    if str(getattr(t, "dtype", "")) == "torch.bfloat16":
        t = t.float()  # type: ignore[attr-defined]
    return np.asarray(t.numpy())  # type: ignore[attr-defined]


def _entries(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def _loc(index: tuple[int, ...]) -> str:
    return "".join(f"[{i}]" for i in index)


def _is_neg_inf_obj(x: object) -> bool:
    """True for the ways minus infinity arrives: NEG_INF, a float, text, a Decimal, sympy -oo."""
    if x is NEG_INF:
        return True
    if isinstance(x, (float, np.floating)) and not isinstance(x, bool):
        return bool(x == float("-inf"))
    if isinstance(x, str):
        return is_neg_inf_text(x)
    if isinstance(x, Decimal):
        return x.is_infinite() and x.is_signed()
    return _is_sympy(x) and type(x).__name__ == "NegativeInfinity"


def _element(
    x: object, exact_float: bool, allow_neg_inf: bool, what: str, limits: Limits
) -> Fraction | NegInf:
    if allow_neg_inf and _is_neg_inf_obj(x):
        return NEG_INF
    if x is NEG_INF:
        raise NumberError(f"{what} is -inf, which is only allowed in an additive mask")
    if isinstance(x, str) and is_neg_inf_text(x):
        raise NumberError(
            f"{what} is {_show(x)}; minus infinity is only allowed in an additive mask"
        )
    return to_fraction(x, exact_float=exact_float, what=what, limits=limits)


def _is_seq(x: object) -> bool:
    return isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim > 0)


def _check_size(shape: tuple[int, ...], what: str, limits: Limits) -> None:
    if len(shape) > limits.max_nesting:
        raise LimitError(
            f"{what} is nested {len(shape)} levels deep, beyond max_nesting={limits.max_nesting} "
            "(raise it with Limits(max_nesting=...))"
        )
    limits.check_elements(shape, what)


def _finish(values: list[Fraction | NegInf], shape: tuple[int, ...]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    out = out.reshape(shape)
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
        _check_finite_float(float(flat[i]), f"{what}{_loc(tuple(int(k) for k in index))}")
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
    node = x
    while _is_seq(node):
        shape_list.append(len(node))  # type: ignore[arg-type]
        if len(shape_list) > limits.max_nesting:
            _check_size(tuple(shape_list), what, limits)
        if len(node) == 0:  # type: ignore[arg-type]
            break
        node = node[0]  # type: ignore[index]
    shape = tuple(shape_list)
    _check_size(shape, what, limits)
    values: list[Fraction | NegInf] = []

    def fill(item: object, index: tuple[int, ...]) -> None:
        level = len(index)
        if level == len(shape):
            if _is_seq(item):
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
        if not _is_seq(item):
            raise ShapeError(
                f"ragged {what}: {what}{_loc(index)} is a single value, "
                f"but a list of {shape[level]} was expected"
            )
        if len(item) != shape[level]:  # type: ignore[arg-type]
            first = _loc(index[:-1] + (0,)) if index else ""
            raise ShapeError(
                f"ragged {what}: {what}{_loc(index)} has {_entries(len(item))} "  # type: ignore[arg-type]
                f"but {what}{first} has {_entries(shape[level])}"
            )
        for i, sub in enumerate(item):  # type: ignore[arg-type]
            fill(sub, index + (i,))

    fill(x, ())
    return _finish(values, shape)
