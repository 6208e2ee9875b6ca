"""What a value a text gives a name is: a size, a count, one token's vector of an input; its
width, and a key that compares rational values (:mod:`~symattn.read.definitions` decides
with these whether a name given again is a conflict)."""

from __future__ import annotations

from typing import Final

from symattn.read.evaluate import Value, flatten, shape
from symattn.read.roles import RoleName, symbol_role
from symattn.read.scalar import Scalar
from symattn.read.tokens import ExprError

__all__ = [
    "TOKEN_VECTORS",
    "integer_of",
    "is_count",
    "is_global",
    "is_size",
    "is_token_vector",
    "key_of",
    "width_of",
]


def is_global(name: str) -> bool:
    """Whether a name is a parameter of the whole text (``d_k``, ``\\sqrt{d_k}``), whose
    second value is a conflict wherever it is given."""
    role = symbol_role(name)
    # (and the name's own spelling: text)
    return (role is not None and role.role is RoleName.D_K) or "d_k" in name or "d_{k}" in name


def integer_of(v: Value) -> int | None:
    """The value as an integer, when it is one (a scalar of denominator 1)."""
    r = v.rational() if isinstance(v, Scalar) else None
    return int(r) if r is not None and r.denominator == 1 else None


def is_size(v: Value) -> bool:
    """Whether a value is a size (a positive integer: ``B = 2``, ``n_heads = 4``), as the
    parameters of a worked example are."""
    n = integer_of(v)
    return n is not None and n > 0


def is_token_vector(name: str, v: Value) -> bool:
    """Whether ``name = v`` gives one token's vector of an input (``Q = [1, 0, 0, 1]``):
    given again beside the other inputs on one line (``"sat" → Q = […], K = […], V = […]``),
    it is the next token's, not a second value."""
    role = symbol_role(name)
    try:
        dims = shape(v)
    except ExprError:
        return False
    return role is not None and role.role in TOKEN_VECTORS and len(dims) == 1


#: the inputs written one token's vector at a time
TOKEN_VECTORS: Final = frozenset({RoleName.X, RoleName.Q, RoleName.K, RoleName.V, RoleName.KV})


def is_count(v: Value) -> bool:
    """Whether a value is a count (a non-negative integer), as an index's values are."""
    n = integer_of(v)
    return n is not None and n >= 0


def width_of(v: Value) -> int | None:
    """The length of a value's last axis (None: a scalar, or a ragged list)."""
    try:
        dims = shape(v)
    except ExprError:
        return None
    return dims[-1] if dims else None


def key_of(v: Value) -> tuple[object, ...] | None:
    """A hashable key of a rational value (None when an entry is irrational)."""
    out: list[object] = []
    for s in flatten(v):
        r = s.rational()
        if r is None:
            return None
        out.append(r)
    return (isinstance(v, Scalar), *out)
