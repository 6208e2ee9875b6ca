"""The array calls followed exactly, one row each: constructors (``eye``, ``zeros``,
``arange``, …) and pure operations (``reshape``, ``tril``, ``sum``, …) in their numpy, torch,
JAX and TensorFlow spellings.

:data:`CALLS` maps the last part of a call's name (``np.eye`` -> ``eye``) to what it computes
from its evaluated arguments (:class:`Args`); a row whose arguments are not literal or exact
raises :class:`~.values.NotFollowed`, and the value is unknown. A new call is a row here with
a test in ``tests/read/symbolic/test_constructors.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from symattn.config import Limits
from symattn.read.symbolic import values as v
from symattn.read.symbolic.sym import SEQUENCES, Sym, SymKind, exact
from symattn.read.symbolic.values import Array, NotFollowed

__all__ = ["CALLS", "IDENTITY_METHODS", "Args", "axis_of", "int_of"]


@dataclass(frozen=True)
class Args:
    """A call's evaluated arguments; ``receiver`` is ``x`` of ``x.reshape(2, 3)``."""

    args: tuple[Sym, ...]
    kwargs: Mapping[str, Sym]
    receiver: Sym | None
    limits: Limits

    def operand(self) -> Array:
        """The array operated on: the receiver, else the first argument."""
        if self.receiver is not None:
            return _arr(self.receiver)
        if not self.args:
            raise NotFollowed("no operand")
        return _arr(self.args[0])

    def rest(self) -> tuple[Sym, ...]:
        """The arguments after the operand."""
        return self.args if self.receiver is not None else self.args[1:]

    def keyword(self, *names: str) -> Sym | None:
        return next((self.kwargs[n] for n in names if n in self.kwargs), None)


def _arr(s: Sym) -> Array:
    a = exact(s)
    if a is None:
        raise NotFollowed("not exact")
    return a


def int_of(s: Sym) -> int:
    """A literal integer argument."""
    a = exact(s)
    if a is None or a.shape != () or a.data[0].denominator != 1:
        raise NotFollowed("not an integer")
    return int(a.data[0])


def _shape(parts: Sequence[Sym]) -> tuple[int, ...]:
    """``(2, 3)``, ``[2, 3]`` or ``2, 3`` (torch's varargs)."""
    if len(parts) == 1 and parts[0].kind in SEQUENCES:
        return tuple(int_of(p) for p in parts[0].args)
    return tuple(int_of(p) for p in parts)


def axis_of(a: Args, position: int) -> int | None:
    """``axis=``/``dim=`` or the positional argument at ``position`` after the operand."""
    s = a.keyword("axis", "dim")
    rest = a.rest()
    if s is None and len(rest) > position:
        s = rest[position]
    if s is None or (s.kind is SymKind.CONST and s.name == "None"):
        return None
    return int_of(s)


def _keepdims(a: Args) -> bool:
    s = a.keyword("keepdims", "keepdim")
    return s is not None and s.kind is SymKind.CONST and s.name == "True"


def _array(a: Args) -> Array:
    if not a.args:
        raise NotFollowed("array()")
    return _arr(a.args[0])


def _eye(a: Args) -> Array:
    n = int_of(a.args[0]) if a.args else None
    if n is None:
        raise NotFollowed("eye()")
    m_sym = a.keyword("M", "m") or (a.args[1] if len(a.args) > 1 else None)
    k_sym = a.keyword("k")
    return v.eye(n, int_of(m_sym) if m_sym else n, int_of(k_sym) if k_sym else 0, a.limits)


def _filled(value: int) -> Callable[[Args], Array]:
    def build(a: Args) -> Array:
        shape = (
            _shape(a.args) if a.args else _shape([s for s in (a.keyword("shape", "size"),) if s])
        )
        return v.full(shape, Fraction(value), a.limits)

    return build


def _like(value: int | None) -> Callable[[Args], Array]:
    def build(a: Args) -> Array:
        base = a.operand()
        fill = Fraction(value) if value is not None else _arr(a.rest()[0]).data[0]
        return v.full(base.shape, fill, a.limits)

    return build


def _full(a: Args) -> Array:
    if len(a.args) < 2:
        raise NotFollowed("full()")
    fill = _arr(a.args[1])
    if fill.shape != ():
        raise NotFollowed("full() of an array")
    return v.full(_shape(a.args[:1]), fill.data[0], a.limits)


def _arange(a: Args) -> Array:
    nums = [_arr(s).data[0] for s in a.args]
    if not 1 <= len(nums) <= 3:
        raise NotFollowed("arange()")
    if len(nums) == 1:
        start, stop, step = Fraction(0), nums[0], Fraction(1)
    else:
        start, stop = nums[0], nums[1]
        step = nums[2] if len(nums) == 3 else Fraction(1)
    if step == 0:
        raise NotFollowed("arange() step 0")
    n = max(0, -((start - stop) // step))
    if n > a.limits.max_elements:
        raise NotFollowed("arange() too long")
    return v.nested([start + i * step for i in range(int(n))], a.limits)


def _decimal(x: Fraction) -> bool:
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def _linspace(a: Args) -> Array:
    if len(a.args) < 3:
        raise NotFollowed("linspace() without a count")
    lo, hi = (_arr(s).data[0] for s in a.args[:2])
    n = int_of(a.args[2])
    if n < 2:
        raise NotFollowed("linspace()")
    step = (hi - lo) / (n - 1)
    if not _decimal(step):
        raise NotFollowed("linspace() with a step that is no exact decimal")
    return v.nested([lo + i * step for i in range(n)], a.limits)


def _diag(a: Args) -> Array:
    return v.diag(a.operand(), a.limits)


def _triangle(lower: bool) -> Callable[[Args], Array]:
    def build(a: Args) -> Array:
        k = a.keyword("k", "diagonal")
        rest = a.rest()
        if k is None and rest:
            k = rest[0]
        return v.triangle(a.operand(), int_of(k) if k is not None else 0, lower, a.limits)

    return build


def _reshape(a: Args) -> Array:
    base = a.operand()
    rest = a.rest() or tuple(s for s in (a.keyword("shape", "newshape"),) if s)
    return v.reshape(base, _shape(rest), a.limits)


def _transpose(a: Args) -> Array:
    base = a.operand()
    rest = a.rest()
    if not rest or len(base.shape) < 2:
        return v.transpose(base, None, a.limits)
    if len(rest) == 1 and rest[0].kind in SEQUENCES:
        return v.transpose(base, _shape(rest), a.limits)
    if len(rest) == 2:
        # torch: transpose(d0, d1) swaps two axes
        d0, d1 = (int_of(s) % len(base.shape) for s in rest)
        axes = list(range(len(base.shape)))
        axes[d0], axes[d1] = axes[d1], axes[d0]
        return v.transpose(base, tuple(axes), a.limits)
    return v.transpose(base, _shape(rest), a.limits)


def _parts(a: Args) -> list[Array]:
    if not a.args or a.args[0].kind not in SEQUENCES:
        raise NotFollowed("not a list of arrays")
    return [_arr(p) for p in a.args[0].args]


def _stack(a: Args) -> Array:
    return v.stack(_parts(a), axis_of(a, 1) or 0, a.limits)


def _concatenate(a: Args) -> Array:
    axis = axis_of(a, 1)
    return v.concatenate(_parts(a), 0 if axis is None else axis, a.limits)


def _vstack(a: Args) -> Array:
    parts = [p if len(p.shape) > 1 else v.reshape(p, (1, -1), a.limits) for p in _parts(a)]
    return v.concatenate(parts, 0, a.limits)


def _hstack(a: Args) -> Array:
    parts = _parts(a)
    return v.concatenate(parts, 0 if len(parts[0].shape) == 1 else 1, a.limits)


def _reduction(op: Callable[[Sequence[Fraction]], Fraction]) -> Callable[[Args], Array]:
    def build(a: Args) -> Array:
        return v.reduce(a.operand(), axis_of(a, 0), _keepdims(a), op, a.limits)

    return build


def _sum(xs: Sequence[Fraction]) -> Fraction:
    return sum(xs, Fraction(0))


def _mean(xs: Sequence[Fraction]) -> Fraction:
    return _sum(xs) / len(xs)


def _sqrt(a: Args) -> Array:
    base = a.operand()
    out = [v.sqrt_exact(x) for x in base.data]
    if any(x is None for x in out):
        raise NotFollowed("an irrational square root")
    return Array(base.shape, tuple(x for x in out if x is not None))


def _matmul(a: Args) -> Array:
    rest = a.rest()
    if not rest:
        raise NotFollowed("matmul()")
    return v.matmul(a.operand(), _arr(rest[0]), a.limits)


def _unsqueeze(a: Args) -> Array:
    base = a.operand()
    d = axis_of(a, 0)
    if d is None:
        raise NotFollowed("unsqueeze()")
    d %= len(base.shape) + 1
    return v.reshape(base, (*base.shape[:d], 1, *base.shape[d:]), a.limits)


def _bool(a: Args) -> Array:
    return a.operand().map(lambda x: Fraction(x != 0))


def _flatten(a: Args) -> Array:
    return v.reshape(a.operand(), (-1,), a.limits)


#: call name -> what it computes exactly
CALLS: Final[Mapping[str, Callable[[Args], Array]]] = {
    # constructors (np/torch/jnp/tf)
    **dict.fromkeys(
        ("array", "asarray", "tensor", "as_tensor", "constant", "Tensor", "FloatTensor"), _array
    ),
    **dict.fromkeys(("DoubleTensor", "matrix", "convert_to_tensor"), _array),
    "eye": _eye,
    "identity": _eye,
    "zeros": _filled(0),
    "ones": _filled(1),
    "zeros_like": _like(0),
    "ones_like": _like(1),
    "full_like": _like(None),
    "full": _full,
    "diag": _diag,
    "arange": _arange,
    "range": _arange,
    "linspace": _linspace,
    # operations
    "tril": _triangle(True),
    "triu": _triangle(False),
    "reshape": _reshape,
    "view": _reshape,
    "transpose": _transpose,
    "permute": _transpose,
    "t": _transpose,
    "stack": _stack,
    "concatenate": _concatenate,
    "concat": _concatenate,
    "cat": _concatenate,
    "vstack": _vstack,
    "hstack": _hstack,
    "sum": _reduction(_sum),
    "reduce_sum": _reduction(_sum),
    "mean": _reduction(_mean),
    "max": _reduction(max),
    "amax": _reduction(max),
    "reduce_max": _reduction(max),
    "min": _reduction(min),
    "sqrt": _sqrt,
    "matmul": _matmul,
    "dot": _matmul,
    "mm": _matmul,
    "unsqueeze": _unsqueeze,
    "expand_dims": _unsqueeze,
    "flatten": _flatten,
    "bool": _bool,
}

#: methods that give the same values (a copy, another dtype or device)
IDENTITY_METHODS: Final = frozenset(
    {"copy", "clone", "float", "double", "detach", "numpy", "cpu", "contiguous", "astype", "to"}
    | {"tolist", "half", "requires_grad_"}
)
