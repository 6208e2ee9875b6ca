"""Arrays of numbers as exact values: nested lists, numpy arrays, torch tensors.

:func:`to_exact_array` checks nesting and size before converting anything, names the entry
that is wrong (``Q[1][0]``), and returns a read-only object array of ``Fraction`` (and
``NEG_INF`` where an additive mask allows minus infinity).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import numpy as np

from symattn.config import DEFAULT_LIMITS, Limits
from symattn.errors import InputError, LimitError, NumberError, ShapeError
from symattn.numbers.interop import from_torch, is_sympy, is_torch
from symattn.numbers.scalars import check_finite_float, to_fraction
from symattn.numbers.written import NEG_INF, NegInf, excerpt, is_neg_inf_text

__all__ = ["to_exact_array"]


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
    return _finish(values, shape)
