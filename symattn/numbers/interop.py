"""Numbers from other libraries: torch tensors and sympy numbers, recognised without importing
either library (a user who passes one has already imported it)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from symattn.config import Limits
from symattn.errors import NumberError
from symattn.numbers.written import excerpt, exponent_limit, parse_number

__all__ = ["from_torch", "is_sympy", "is_torch", "sympy_fraction"]


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
