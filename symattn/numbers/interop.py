"""Numbers from other libraries: torch tensors and sympy numbers, recognised without importing
either library (a user who passes one has already imported it); numpy's array subclasses
(masked arrays, ``np.matrix``); and how binary floats are read (:class:`FloatReading`)."""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Any

import numpy as np

from symattn.config import Limits
from symattn.errors import NumberError
from symattn.numbers.written import excerpt, exponent_limit, parse_number

__all__ = [
    "FloatReading",
    "float_reading",
    "from_torch",
    "holds_floats",
    "is_sympy",
    "is_torch",
    "plain_array",
    "reads_binary",
    "sympy_fraction",
]


class FloatReading(Enum):
    """How binary floats are read: ``BINARY`` as their exact values (what a kernel computes
    with), ``SHORTEST`` through their shortest repr (``0.1`` is 1/10, what a worked example
    means), ``AUTO`` per argument: numpy arrays and scalars and torch tensors binary, Python
    floats, strings and lists of them shortest."""

    AUTO = "auto"
    BINARY = "binary"
    SHORTEST = "shortest"


def float_reading(read_floats: object = None, exact_float: object = None) -> FloatReading:
    """The reading the keywords ask for: ``read_floats`` (``"auto"``, ``"binary"``,
    ``"shortest"`` or a :class:`FloatReading`), or its older alias ``exact_float``
    (``True``: binary, ``False``: shortest); neither: ``AUTO``."""
    if exact_float is not None and not isinstance(exact_float, bool):
        raise NumberError(f"exact_float must be True or False, got {excerpt(repr(exact_float))}")
    reading: FloatReading | None = None
    if isinstance(read_floats, FloatReading):
        reading = read_floats
    elif isinstance(read_floats, str):
        reading = next((r for r in FloatReading if r.value == read_floats), None)
    if read_floats is not None and reading is None:
        choices = ", ".join(repr(r.value) for r in FloatReading)
        raise NumberError(f"read_floats must be one of {choices}, got {excerpt(repr(read_floats))}")
    alias = None
    if exact_float is not None:
        alias = FloatReading.BINARY if exact_float else FloatReading.SHORTEST
    if reading is not None and alias is not None and reading is not alias:
        raise NumberError(
            f"read_floats={reading.value!r} and exact_float={exact_float} disagree; give one"
        )
    return reading or alias or FloatReading.AUTO


def reads_binary(x: object, reading: FloatReading) -> bool:
    """Whether the floats of the argument ``x`` are read as their binary values."""
    if reading is not FloatReading.AUTO:
        return reading is FloatReading.BINARY
    if isinstance(x, np.ndarray):
        return bool(x.dtype.kind == "f")
    return isinstance(x, np.floating) or is_torch(x)


def holds_floats(x: object, budget: int = 1 << 20) -> bool:
    """Whether ``x`` holds a binary float (a float array or tensor, a float, or one in a list):
    a walk without recursion that gives up (False) after ``budget`` items."""
    stack = [x]
    while stack and budget > 0:
        item = stack.pop()
        budget -= 1
        if isinstance(item, np.ndarray):
            if item.dtype.kind == "f":
                return True
            if item.dtype.kind == "O":
                stack.extend(item.reshape(-1).tolist())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (float, np.floating)):
            return True
        elif is_torch(item):
            return "float" in str(getattr(item, "dtype", ""))
    return False


def plain_array(x: Any, what: str) -> Any:
    """``x`` with numpy's array subclasses made plain: a ``np.matrix`` as the array it holds;
    a masked array refused (its mask would be dropped in silence). Anything else as it is."""
    if isinstance(x, np.ma.MaskedArray):
        if np.ma.getmask(x) is np.ma.nomask or not np.ma.getmaskarray(x).any():
            return np.asarray(np.ma.getdata(x))
        raise NumberError(
            f"{what} is a numpy masked array with masked entries; symattn does not drop a mask "
            "in silence: pass the data (x.data or x.filled(...)), and the mask as attn_mask"
        )
    if isinstance(x, np.matrix):
        return np.asarray(x)
    return x


def is_torch(x: object) -> bool:
    """Whether ``x`` is a torch tensor."""
    module = type(x).__module__
    return (module == "torch" or module.startswith("torch.")) and hasattr(x, "detach")


def from_torch(t: Any) -> np.ndarray:
    """A torch tensor as a numpy array (bfloat16 goes through ``.float()``, which is exact)."""
    t = t.detach().cpu()
    if str(getattr(t, "dtype", "")) == "torch.bfloat16":
        t = t.float()
    return np.asarray(t.numpy())


def is_sympy(x: object) -> bool:
    """Whether ``x`` is a sympy object."""
    return type(x).__module__.startswith("sympy")


def sympy_fraction(x: Any, exact_float: bool, what: str, limits: Limits) -> Fraction:
    """A sympy Integer/Rational exactly; a Float by its decimal string or exact binary value."""
    if getattr(x, "is_Rational", False):
        return Fraction(int(x.p), int(x.q))
    name = type(x).__name__
    if name in ("NaN", "Infinity", "NegativeInfinity", "ComplexInfinity"):
        raise NumberError(f"{what} is the sympy {name} {x}; attention inputs must be finite")
    if getattr(x, "is_Float", False):
        if not getattr(x, "is_finite", False):
            raise NumberError(f"{what} is {x} (a sympy Float); attention inputs must be finite")
        sign, man, exp, bc = x._mpf_
        if abs(exp + bc) > 4 * limits.max_decimal_exponent:  # 2**4 > 10: checked before str()
            raise exponent_limit(f"2**{exp + bc}", limits)
        if not exact_float:
            return parse_number(str(x), limits=limits, what=what).value
        value = Fraction(int(man)) * Fraction(2) ** int(exp)
        return -value if sign else value
    raise NumberError(
        f"{what} is a sympy {type(x).__name__} ({excerpt(str(x))}), "
        "not an exact rational number or Float"
    )
